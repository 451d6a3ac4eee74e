/**
 * Adding an agent CLI is one host file plus its entry in hosts/registry.ts, and it then passes every gate: in
 * a copy of the repository, a throwaway host written as one file (the pattern of hosts/cli/qwen.ts) and
 * registered with one import and one list entry type-checks, is constructable, gets its install pin and its
 * permission names once `deno task permissions` has regenerated src/host_permissions.ts and deno.json (the
 * permission test says so while they are stale), and is held by the fixture gate to its recordings: the gate
 * fails until `deno task record:fixtures --host throwaway` has recorded them, then every test of
 * tests/normalize/fixtures_test.ts passes. The binary the recorder runs is a real stand-in CLI, a small
 * claude stream-json script put first on PATH (as an installed CLI would be), which talks to the recorder's
 * mock model; no fixture file is written by hand.
 */
import assert from "node:assert/strict";
import { ROOT, runToEnd, tempFolder } from "../../binary/_run.ts";

const HOST_FILE = `/** A throwaway agent CLI: proves a host is one file. */
import { capabilities, defineRealHost } from "./_real_host.ts";

/** The throwaway host. */
export const throwaway = defineRealHost({
  id: "throwaway",
  binary: "throwaway-agent",
  install: { package: "throwaway-agent", version: "1.2.3" },
  envPrefixes: ["THROWAWAY_*"],
  summary: "a throwaway agent CLI (claude stream-json)",
  dialect: "claude",
  capabilities: capabilities("streaming"),
  capabilityMarkers: { streaming: ["stream-json"] },
  streamShape: { init: "required", terminal: "event" },
  envAllow: ["THROWAWAY_API_KEY"],
  paths: {
    "streaming": (request) => ({ args: ["--output-format", "stream-json", request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "it prints no JSON document",
    "resume": "it keeps no sessions",
    "detached": "it has no plain-text mode",
  },
  mockModel: ({ url }) => ({ env: { THROWAWAY_BASE_URL: url, THROWAWAY_API_KEY: "sk-mock" }, files: {} }),
});
`;

const GATE_SCRIPT = `import { CLI_HOSTS, PINNED_HOSTS } from "./hosts/registry.ts";
import { PERMISSION_FLAGS } from "./src/permissions.ts";
const host = CLI_HOSTS.find((candidate) => candidate.entry.id === "throwaway")!;
const built = host.runner.goldenPaths.map((path) => host.runner.build(path, { prompt: "hi" }).args.join(" "));
let refused = 0;
for (const path of ["blocking-json", "resume", "detached"]) {
  try { host.runner.build(path, { prompt: "hi" }); } catch (error) { if (error instanceof RangeError) refused++; }
}
console.log(JSON.stringify({
  built,
  refused,
  pin: PINNED_HOSTS.find((pin) => pin.host === "throwaway"),
  run: PERMISSION_FLAGS.find((flag) => flag.startsWith("--allow-run="))?.split(",").includes("throwaway-agent"),
  env: PERMISSION_FLAGS.find((flag) => flag.startsWith("--allow-env="))?.split(",").includes("THROWAWAY_*"),
}));
`;

/**
 * The throwaway CLI itself: a small claude-stream-json agent. It prints its version; without a key it fails
 * the way claude-code's no-credentials recording shows (an API-error assistant message, then a result with
 * `is_error`, exit 1); with one it streams a reply from `$THROWAWAY_BASE_URL/v1/messages` and reports what it
 * got: the text and a success result, or an error result when the request fails, the body is not a stream of
 * JSON events, or the stream ends before `message_stop`.
 */
const STAND_IN = `const args = Deno.args;
if (args.includes("--version")) {
  console.log("1.2.3 (throwaway-agent)");
  Deno.exit(0);
}
const session = crypto.randomUUID();
const key = Deno.env.get("THROWAWAY_API_KEY");
const base = Deno.env.get("THROWAWAY_BASE_URL");
const emit = (line) => console.log(JSON.stringify({ ...line, session_id: session }));
const usage = { input_tokens: 0, output_tokens: 0 };
const assistant = (text, extra) =>
  emit({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }], usage }, ...extra });
function fail(message, code) {
  assistant(message, { error: code, is_api_error_message: true });
  emit({ type: "result", subtype: "success", is_error: true, result: message, terminal_reason: "api_error", usage });
  Deno.exit(1);
}
emit({ type: "system", subtype: "init", model: "throwaway-1", tools: [], apiKeySource: key ? "THROWAWAY_API_KEY" : "none" });
if (!key || !base) fail("Not logged in · Please run /login", "authentication_failed");
let body;
try {
  const response = await fetch(base + "/v1/messages", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "throwaway-1",
      max_tokens: 64,
      stream: true,
      messages: [{ role: "user", content: args.at(-1) }],
    }),
  });
  body = await response.text();
  if (!response.ok) fail("API Error: " + response.status + " " + body, "server_error");
} catch (error) {
  fail("API Error: " + error.message, "unknown");
}
let text = "";
let stopped = false;
for (const line of body.split("\\n")) {
  if (!line.startsWith("data:")) continue;
  let event;
  try {
    event = JSON.parse(line.slice(5));
  } catch {
    fail("API Error: the model sent a malformed event", "invalid_response");
  }
  if (event.type === "content_block_delta" && typeof event.delta?.text === "string") text += event.delta.text;
  if (event.type === "message_delta" && event.usage) Object.assign(usage, event.usage);
  if (event.type === "message_stop") stopped = true;
}
if (!stopped) fail("API Error: the model stream ended before message_stop", "invalid_response");
assistant(text, {});
emit({ type: "result", subtype: "success", is_error: false, result: text, usage });
`;

async function writeStandIn(bin: string): Promise<void> {
  const shebang = `#!/usr/bin/env -S ${Deno.execPath()} run --quiet --no-config --no-lock --ext=js ` +
    "--allow-net=127.0.0.1 --allow-env=THROWAWAY_API_KEY,THROWAWAY_BASE_URL\n";
  await Deno.writeTextFile(`${bin}/throwaway-agent`, shebang + STAND_IN, { mode: 0o755 });
}

const COPIED = [
  "main.ts",
  "mod.ts",
  "deno.json",
  "deno.lock",
  "src",
  "hosts",
  "cli",
  "suite",
  "fake_host",
  "tools",
];
const TESTS = [
  "tests/permissions_test.ts",
  "tests/binary/_run.ts",
  "tests/binary/_refusals_child.ts",
  "tests/hosts/cli/runners_test.ts",
  "tests/hosts/cli/one_builder_test.ts",
  "tests/normalize/fixtures_test.ts",
];
const TEST_FLAGS = [
  "test",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-sys",
  "--allow-run",
  "--allow-net=127.0.0.1,localhost,[::1]",
];

async function copyRepository(to: string): Promise<void> {
  for (const path of [...COPIED, ...TESTS]) {
    const target = `${to}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    const copy = await runToEnd("cp", ["-r", `${ROOT}${path}`, target]);
    assert.equal(copy.code, 0, copy.stderr);
  }
  await Deno.mkdir(`${to}/tests/fixtures`, { recursive: true });
  const fixtures = await runToEnd("cp", ["-r", `${ROOT}tests/fixtures/cli`, `${to}/tests/fixtures/cli`]);
  assert.equal(fixtures.code, 0, fixtures.stderr);
}

async function register(repo: string): Promise<void> {
  await Deno.writeTextFile(`${repo}/hosts/cli/throwaway.ts`, HOST_FILE);
  const registry = await Deno.readTextFile(`${repo}/hosts/registry.ts`);
  const withImport = registry.replace(
    'import { qwen } from "./cli/qwen.ts";\n',
    'import { qwen } from "./cli/qwen.ts";\nimport { throwaway } from "./cli/throwaway.ts";\n',
  );
  // Appended as the last entry of CLI_HOSTS, whichever host is last now.
  const withEntry = withImport.replace(
    /(export const CLI_HOSTS: readonly RealHost\[\] = \[\n(?: {2}\w+,\n)+)\];/,
    "$1  throwaway,\n];",
  );
  assert.notEqual(withEntry, withImport, "the registry's CLI_HOSTS list moved: update this test");
  await Deno.writeTextFile(`${repo}/hosts/registry.ts`, withEntry);
}

Deno.test("a throwaway agent CLI added as one file and one registry entry passes every gate", async () => {
  await using temp = await tempFolder("conformance-throwaway-host-");
  const repo = temp.path;
  await copyRepository(repo);
  await register(repo);
  const deno = (args: string[]) => runToEnd(Deno.execPath(), args, { cwd: repo, timeoutMs: 300_000 });

  const check = await deno(["check", "main.ts", "mod.ts", ...TESTS]);
  assert.equal(check.code, 0, check.stderr);

  const stale = await deno([...TEST_FLAGS, "--no-check", "tests/permissions_test.ts"]);
  assert.notEqual(stale.code, 0, "the permission test must fail before deno task permissions");
  assert.match(stale.stdout + stale.stderr, /is stale: run "deno task permissions"/);

  const generate = await deno(["task", "permissions"]);
  assert.equal(generate.code, 0, generate.stderr);
  assert.match(await Deno.readTextFile(`${repo}/deno.json`), /--allow-run=[^ ]*,throwaway-agent[, ]/);

  const gates = await deno([
    ...TEST_FLAGS,
    "--no-check",
    "tests/permissions_test.ts",
    "tests/hosts/cli/runners_test.ts",
    "tests/hosts/cli/one_builder_test.ts",
  ]);
  assert.equal(gates.code, 0, gates.stdout + gates.stderr);

  await Deno.writeTextFile(`${repo}/gate.ts`, GATE_SCRIPT);
  const gate = await deno([
    "run",
    "--quiet",
    "--allow-read",
    "--allow-env",
    "--allow-sys",
    "--allow-run",
    "gate.ts",
  ]);
  assert.equal(gate.code, 0, gate.stderr);
  const seen = JSON.parse(gate.stdout);
  assert.deepEqual(seen.built, ["--output-format stream-json hi", "--version"]);
  assert.equal(seen.refused, 3);
  assert.deepEqual(seen.pin, {
    host: "throwaway",
    binary: "throwaway-agent",
    pkg: { name: "throwaway-agent", version: "1.2.3" },
    entry: "node_modules/.bin/throwaway-agent",
    runtimes: [],
    versionArgs: ["--version"],
  });
  assert.equal(seen.run, true);
  assert.equal(seen.env, true);

  const fixtureGate = () =>
    deno([
      ...TEST_FLAGS,
      "--no-check",
      "--filter",
      "gate: every real CLI host",
      "tests/normalize/fixtures_test.ts",
    ]);
  const unrecorded = await fixtureGate();
  assert.notEqual(unrecorded.code, 0, "a real CLI without recordings must not pass the fixture gate");
  assert.match(
    unrecorded.stdout + unrecorded.stderr,
    // The gate stats each file of the set: the first missing is the new host's first case.
    /fixtures\/cli\/throwaway\/no-credentials\/argv\.json/,
  );

  // The recordings come from the recorder running the stand-in binary, found on PATH like any installed CLI.
  await using bin = await tempFolder("conformance-throwaway-bin-");
  await writeStandIn(bin.path);
  const record = await runToEnd(Deno.execPath(), ["task", "record:fixtures", "--host", "throwaway"], {
    cwd: repo,
    env: { PATH: `${bin.path}:${Deno.env.get("PATH") ?? ""}` },
    timeoutMs: 300_000,
  });
  assert.equal(record.code, 0, record.stdout + record.stderr);
  const meta = async (kase: string) =>
    JSON.parse(await Deno.readTextFile(`${repo}/tests/fixtures/cli/throwaway/${kase}/meta.json`));
  assert.deepEqual((await meta("mock-ok")).mockRequests, ["POST /v1/messages 200"]);
  assert.deepEqual((await meta("mock-http-500")).mockRequests, ["POST /v1/messages 500"]);
  assert.equal((await meta("no-credentials")).exitCode, 1);

  const recorded = await deno([...TEST_FLAGS, "--no-check", "tests/normalize/fixtures_test.ts"]);
  assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
});
