/**
 * `conformance run --suite-server URL` (and a web host's YAML `server: { url }`): a host pointed at another
 * conformance MCP server runs that server's suite, reported under that suite's ids namespaced by the server's
 * name. The other server is real and separate: tests/suite/upstream_shaped/server.ts, a process of its own
 * (its own MCP server, not the harness's), serving the upstream-shaped suite from a launcher without inputs.
 * `conformance` runs as a user starts it (`deno run … main.ts`), so its exit codes and one-line errors are
 * the ones a user sees.
 */
import { inspectorInstalled } from "../hosts/web/_inspector.ts";
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { mcpInspectorYaml } from "../../hosts/web/mcp_inspector.ts";
import { freeLoopbackPort } from "../../hosts/web/_server_process.ts";
import { startInspector } from "../../hosts/web/mcp_inspector_process.ts";
import { groupAlive, killGroup } from "../../src/exec/process_group.ts";
import type { RunReport } from "../../src/report/schema.ts";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { runDetached } from "../robustness/_harness.ts";
import { BANNER } from "./upstream_shaped/server.ts";
import { INSPECTOR_VERDICTS, UPSTREAM_SHAPED_IDS } from "./upstream_shaped/verdicts.ts";

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname);
/** The namespace of the second server's tests: its `initialize` name. */
const NAMESPACE = "upstream-shaped";
const NAMESPACED = UPSTREAM_SHAPED_IDS.map((id) => `${NAMESPACE}/${id}`);

/** The second server, in a process group of its own. */
interface SuiteServerProcess extends AsyncDisposable {
  readonly url: string;
  readonly pid: number;
}

/** Starts tests/suite/upstream_shaped/server.ts and waits for its banner (the URL it serves). */
async function startSuiteServer(...flags: string[]): Promise<SuiteServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      "--allow-net=127.0.0.1",
      "tests/suite/upstream_shaped/server.ts",
      ...flags,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
    detached: true,
  }).spawn();
  const pid = child.pid;
  let text = "";
  const stop = async () => {
    assert.ok(await killGroup(pid, { graceMs: 5_000, verifyMs: 10_000 }), "the suite server's group ended");
    await child.status;
  };
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const deadline = Date.now() + 120_000;
    while (!text.includes("\n") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const line = text.split("\n")[0]!;
  if (!line.startsWith(BANNER)) {
    await stop();
    throw new Error(`The suite server did not start: ${text}`);
  }
  // The rest of its output is read and dropped, so it never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  return {
    url: line.slice(BANNER.length).trim(),
    pid,
    async [Symbol.asyncDispose]() {
      await stop();
      await drained;
    },
  };
}

/** `deno run` arguments that start `conformance ARGS` writing only under the folder that holds `scratch`. */
function conformanceArgs(scratch: string, args: readonly string[]): string[] {
  return [
    "run",
    "--quiet",
    "--no-prompt",
    "--allow-read",
    `--allow-write=${dirname(scratch)}`,
    "--allow-env",
    "--allow-sys",
    "--allow-run",
    "--allow-net=127.0.0.1,localhost,[::1]",
    "main.ts",
    ...args,
  ];
}

/** `conformance ARGS` as a user starts it; it may write only under the temporary folder. */
async function conformance(args: string[]) {
  const scratch = await Deno.makeTempDir({ prefix: "conformance-suite-server-" });
  try {
    return await runDetached(
      Deno.execPath(),
      conformanceArgs(scratch, args),
      { cwd: ROOT, env: { NO_COLOR: "1" } },
    );
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** A `--reporter json` run's report, with its exit code. */
async function runReport(args: string[]): Promise<{ code: number; report: RunReport; stderr: string }> {
  const run = await conformance(["run", ...args, "--reporter", "json"]);
  let report: RunReport;
  try {
    report = JSON.parse(run.stdout) as RunReport;
  } catch {
    throw new Error(`exit ${run.code}, no JSON report:\n${run.stdout}\n${run.stderr}`);
  }
  return { code: run.code, report, stderr: run.stderr };
}

/** The results that are not among the verdicts `deserved` (by the suite's own id) allows. */
function wrongVerdicts(report: RunReport, deserved: Readonly<Record<string, readonly string[]>>): string[] {
  return report.results.flatMap((result) => {
    const own = result.test.startsWith(`${NAMESPACE}/`) ? result.test.slice(NAMESPACE.length + 1) : null;
    const allowed = own === null ? [] : deserved[own] ?? [];
    return allowed.includes(result.status) ? [] : [`${result.test}: ${result.status} ${result.message}`];
  });
}

const ALL_PASS = Object.fromEntries(UPSTREAM_SHAPED_IDS.map((id) => [id, ["PASS"]]));
const browser = chromiumPath() !== null;
const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "--suite-server on the reference host: the other server's tests, by its ids under its name, all PASS",
  ignore: !browser,
  ...options,
}, async () => {
  await using server = await startSuiteServer();
  const { code, report, stderr } = await runReport(["--host", "reference", "--suite-server", server.url]);
  assert.deepEqual(report.results.map((result) => result.test).sort(), [...NAMESPACED].sort(), stderr);
  assert.deepEqual(wrongVerdicts(report, ALL_PASS), []);
  assert.ok(report.results.every((result) => result.host === "reference" && result.expected === "PASS"));
  assert.equal(code, 0, stderr);
  // A rerun points at the same server.
  assert.deepEqual(report.run.rerunFlags, ["--suite-server", server.url]);

  // An expectations file names that suite's tests by the run's ids: one expected to FAIL that PASSes is
  // unexpected (exit 1), and a catalogue id of the same host is still a known test.
  const expectations = await Deno.makeTempFile({ prefix: "conformance-suite-server-", suffix: ".yaml" });
  try {
    await Deno.writeTextFile(
      expectations,
      `schema: conformance-expectations/1
host: reference
tests:
  ${NAMESPACE}/upstream/read-console:
    status: FAIL
    reason: stands in for a known failure, to see it applied
  apps/lifecycle/teardown-notify:
    status: FAIL
    reason: a catalogue test of the same host, not run here
`,
    );
    const expected = await runReport([
      "--host",
      "reference",
      "--suite-server",
      server.url,
      "--grep",
      "read-console$",
      "--expectations",
      expectations,
    ]);
    assert.deepEqual(
      expected.report.results.map(({ test, status, expected }) => ({ test, status, expected })),
      [{ test: `${NAMESPACE}/upstream/read-console`, status: "PASS", expected: "FAIL" }],
      expected.stderr,
    );
    assert.equal(expected.code, 1, expected.stderr);
  } finally {
    await Deno.remove(expectations);
  }
  const pid = server.pid;
  await server[Symbol.asyncDispose]();
  assert.ok(!(await groupAlive(pid)), "the suite server's process group is gone");
});

Deno.test({
  name:
    "a web host's YAML server: { url } lists that server's tests; --grep and --tier narrow them by its ids",
  ignore: !browser,
  ...options,
}, async () => {
  await using server = await startSuiteServer();
  const config = await Deno.makeTempFile({ prefix: "conformance-suite-server-", suffix: ".yaml" });
  try {
    await Deno.writeTextFile(
      config,
      `hosts:
  - id: acme
    kind: web
    url: http://127.0.0.1:9/
    launch: [{ click: "text='{launcher}'" }]
    server: { url: "${server.url}" }
    live: false
`,
    );
    const listed = await conformance(["list", "tests", "--config", config, "--host", "acme", "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as { host: string; test: string }[];
    assert.deepEqual(rows.map((row) => row.test), NAMESPACED);
    const narrowed = await conformance([
      "list",
      "tests",
      "--config",
      config,
      "--host",
      "acme",
      "--tier",
      "upstream",
      "--grep",
      "open-link$",
      "--json",
    ]);
    assert.equal(narrowed.code, 0, narrowed.stderr);
    assert.deepEqual((JSON.parse(narrowed.stdout) as { test: string }[]).map((row) => row.test), [
      `${NAMESPACE}/upstream/open-link`,
    ]);
  } finally {
    await Deno.remove(config);
  }
});

Deno.test({
  name:
    "--suite-server on the MCP Inspector, and its YAML description with server: { url }: launcher without inputs",
  ignore: !browser || !inspectorInstalled(),
  ...options,
}, async () => {
  await using server = await startSuiteServer();
  // The Inspector connects slowly on a loaded machine: its launch steps get twice their usual time.
  const slow = ["--timeout-multiplier", "2"];
  const flag = await runReport(["--host", "mcp-inspector", "--suite-server", server.url, ...slow]);
  assert.deepEqual(flag.report.results.map((result) => result.test).sort(), [...NAMESPACED].sort());
  assert.deepEqual(wrongVerdicts(flag.report, INSPECTOR_VERDICTS), []);

  // The YAML form: an Inspector started by hand, pointed at the other server, described with server: { url }.
  const uiPort = freeLoopbackPort();
  const inspector = await startInspector({ serverUrl: server.url, uiPort });
  const config = await Deno.makeTempFile({ prefix: "conformance-suite-server-", suffix: ".yaml" });
  try {
    const yaml = mcpInspectorYaml({ id: "my-inspector", uiPort });
    const pointed = yaml.replace(/server: \{ listen: "[^"]*" \}/, `server: { url: "${server.url}" }`);
    assert.notEqual(pointed, yaml, "the description names its server");
    await Deno.writeTextFile(config, pointed);
    const described = await runReport(["--config", config, "--host", "my-inspector", ...slow]);
    assert.deepEqual(described.report.results.map((result) => result.test).sort(), [...NAMESPACED].sort());
    assert.deepEqual(wrongVerdicts(described.report, INSPECTOR_VERDICTS), []);
  } finally {
    await Deno.remove(config);
    await inspector.close();
  }
  assert.ok(!(await groupAlive(inspector.pid)), "the Inspector's process group is gone");
});

/** A loopback listener that closes every connection unanswered, bound while it lives. */
function deadServer(): { url: string; close(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const connection of listener) connection.close();
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/mcp`,
    close: async () => {
      listener.close();
      await accepting;
    },
  };
}

Deno.test({
  name: "--suite-server refused in one line: unreachable, not MCP, a CLI host, a host that cannot follow it",
  ...options,
}, async () => {
  const dead = deadServer();
  const html = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("<!doctype html><p>a web page</p>", { headers: { "content-type": "text/html" } }),
  );
  const page = `http://127.0.0.1:${html.addr.port}/mcp`;
  try {
    const cases: [string[], RegExp][] = [
      [["--host", "reference", "--suite-server", dead.url], /did not answer as an MCP server/],
      [["--host", "reference", "--suite-server", page], /did not answer as an MCP server/],
      [["--host", "reference", "--suite-server", "not a url"], /is not a URL/],
      [["--host", "fake", "--suite-server", page], /"fake" is a CLI host/],
      [["--host", "mcp-ui", "--suite-server", page], /Host "mcp-ui" cannot be pointed at another/],
      [["--suite-server", page], /--suite-server needs --host/],
    ];
    for (const [args, message] of cases) {
      const run = await conformance(["run", ...args]);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stdout, "", args.join(" "));
      assert.match(run.stderr, /^conformance: [^\n]+\n$/, args.join(" "));
      assert.match(run.stderr, message, args.join(" "));
    }
  } finally {
    await dead.close();
    await html.shutdown();
  }
});

/** The pids of the processes whose parent is `pid`, with their command lines. */
async function childrenOf(pid: number): Promise<{ pid: number; args: string }[]> {
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "pid=,ppid=,args="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(stdout).split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    return match && Number(match[2]) === pid ? [{ pid: Number(match[1]), args: match[3]! }] : [];
  });
}

Deno.test({
  name:
    "a View without a suite is refused in one line; a Ctrl-C while it is listed exits 130, its browser gone",
  ignore: !browser,
  ...options,
}, async () => {
  await using server = await startSuiteServer("--no-suite");
  const refused = await conformance(["list", "tests", "--host", "reference", "--suite-server", server.url]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /^conformance: [^\n]*run_conformance View exposes no suite[^\n]*\n$/);

  const scratch = await Deno.makeTempDir({ prefix: "conformance-suite-server-" });
  await Deno.remove(scratch);
  const child = new Deno.Command(Deno.execPath(), {
    args: conformanceArgs(scratch, ["list", "tests", "--host", "reference", "--suite-server", server.url]),
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const output = child.output();
  try {
    // The listing's browser: Chromium, started by the harness (its parent), in a group of its own.
    let browsers: { pid: number; args: string }[] = [];
    const deadline = Date.now() + 60_000;
    while (browsers.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      browsers = (await childrenOf(child.pid)).filter((p) => p.args.includes("--conformance-launch"));
    }
    assert.ok(browsers.length > 0, "the listing started a browser");
    Deno.kill(child.pid, "SIGINT");
    const ended = await output;
    const stderr = new TextDecoder().decode(ended.stderr);
    assert.equal(ended.code, 130, stderr);
    assert.match(stderr, /^conformance: interrupted while listing the suite of http:[^\n]*\n$/);
    for (const { pid } of browsers) assert.ok(!(await groupAlive(pid)), `the browser's group ${pid} is gone`);
  } finally {
    if (await groupAlive(child.pid)) await killGroup(child.pid, { graceMs: 0, verifyMs: 5_000 });
    await output.catch(() => {});
  }
});
