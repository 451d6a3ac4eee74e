/**
 * No false green: a host that cannot run stops `conformance run` before any test, with exit 2 and one line
 * naming the fix. Run as a real subprocess under the harness's own permission set, with an empty
 * `hosts:install` cache and a PATH without the agent CLIs.
 */
import assert from "node:assert/strict";
import { runHarness } from "../robustness/_harness.ts";
import { browserProblem, checkPrerequisites, missingBinary } from "../../cli/preflight.ts";
import type { AppsHostEntry, CliHostEntry, HostEntry } from "../../src/host.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { UsageError } from "../../src/errors.ts";

function conformance(args: string[], env: Record<string, string>, alsoRun: string[] = []) {
  return runHarness(args, { env, alsoRun });
}

/** An environment where no real agent CLI can be found: an empty install cache, a system-only PATH. */
async function withoutClis(): Promise<
  { env: Record<string, string>; [Symbol.asyncDispose](): Promise<void> }
> {
  const cache = await Deno.makeTempDir({ prefix: "conformance-preflight-" });
  return {
    env: { CONFORMANCE_HOSTS_DIR: cache, PATH: "/usr/bin:/bin", CONFORMANCE_CLAUDE_CODE_BIN: "" },
    [Symbol.asyncDispose]: () => Deno.remove(cache, { recursive: true }),
  };
}

function assertOneLine(stderr: string, what: string): void {
  assert.equal(stderr.trim().split("\n").length, 1, `${what}: one line, no stack trace:\n${stderr}`);
}

Deno.test("run --host claude-code without claude stops before any test, naming hosts:install and the variable", async () => {
  await using clean = await withoutClis();
  const { code, stdout, stderr } = await conformance(["run", "--host", "claude-code"], clean.env);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "", "no test ran, so no reporter wrote");
  assert.match(
    stderr,
    /Host "claude-code": binary "claude" not found: run "(npx -y deno@[\d.]+|\S*deno) task hosts:install" \(installs @anthropic-ai\/claude-code@[\d.]+\), or set CONFORMANCE_CLAUDE_CODE_BIN=\/path\/to\/claude/,
  );
  assertOneLine(stderr, "claude-code absent");
});

Deno.test("a CONFORMANCE_<HOST>_BIN naming nothing is named as the problem", async () => {
  await using clean = await withoutClis();
  const env = { ...clean.env, CONFORMANCE_CODEX_BIN: "/tmp/no-such-codex" };
  const { code, stderr } = await conformance(["run", "--host", "codex"], env);
  assert.equal(code, 2, stderr);
  assert.match(
    stderr,
    /CONFORMANCE_CODEX_BIN="\/tmp\/no-such-codex" is not an executable file: fix the path/,
  );
  assertOneLine(stderr, "bad override");
});

Deno.test("a config host with a mistyped binary: stops, naming the binary and the config file", async () => {
  await using clean = await withoutClis();
  const dir = await Deno.makeTempDir({ prefix: "conformance-preflight-config-" });
  try {
    const file = `${dir}/hosts.yaml`;
    await Deno.writeTextFile(
      file,
      [
        "hosts:",
        "  - id: my-agent",
        "    kind: cli",
        "    binary: my-agnet",
        "    dialect: claude",
        "    paths:",
        '      streaming: ["-p", "{prompt}"]',
        "",
      ].join("\n"),
    );
    const { code, stdout, stderr } = await conformance(
      ["run", "--config", file, "--host", "my-agent"],
      clean.env,
      ["my-agnet"],
    );
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(
      stderr,
      /Host "my-agent" needs "my-agnet" \(a program\) \(from ".*hosts\.yaml"\), which the harness's permission set does not permit: run it as .*task -q conformance:permit -- run --config .*hosts\.yaml --host my-agent$/m,
    );
    assertOneLine(stderr, "config binary typo");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a browser host with CONFORMANCE_CHROMIUM naming nothing stops with one line, not one error per test", async () => {
  for (const host of ["reference", undefined]) {
    const args = host === undefined ? ["run"] : ["run", "--host", host];
    const { code, stdout, stderr } = await conformance(args, {
      CONFORMANCE_CHROMIUM: "/usr/bin/chromium-nope",
    });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(
      stderr,
      /Host "reference" needs a browser: CONFORMANCE_CHROMIUM="\/usr\/bin\/chromium-nope" /,
    );
    assert.match(stderr, /apt-get install chromium|name one of \/usr\/bin\/chromium/);
    assertOneLine(stderr, `browser absent, ${host ?? "default hosts"}`);
  }
});

const options = { named: new Set<string>(), configHosts: new Set<string>(), configSource: null };

Deno.test("checkPrerequisites: only named CLI hosts are held to the binary check; problems share one line", async () => {
  const absent = (id: string): CliHostEntry => ({
    id,
    kind: "cli",
    summary: "",
    capabilities: [],
    runner: {
      name: id,
      binary: `${id}-bin`,
      dialect: "claude",
      capabilities: NO_CAPABILITIES,
      streamShape: { init: "none", terminal: "eof" },
      goldenPaths: [],
      detect: () => Promise.resolve(null),
      build: () => {
        throw new Error("not built");
      },
    },
  });
  const entries: HostEntry[] = [absent("a"), absent("b"), absent("c")];
  await checkPrerequisites(entries, options);
  const error = await checkPrerequisites(entries, { ...options, named: new Set(["a", "c"]) }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof UsageError);
  assert.match(
    error.message,
    /^Host "a": binary "a-bin" not found: put "a-bin" on PATH, or set CONFORMANCE_A_BIN=.*; Host "c"/,
  );
  assert.doesNotMatch(error.message, /Host "b"/);
  assert.doesNotMatch(error.message, /\n/);
});

Deno.test("an apps host that starts a program of its own (the MCP Inspector) is held to it when named", async () => {
  const inspectorLike: AppsHostEntry = {
    id: "inspector-like",
    kind: "web",
    summary: "",
    capabilities: [],
    program: "conformance-no-such-program",
    create: () => {
      throw new Error("not created");
    },
  };
  const browser = () => "/bin/sh";
  await checkPrerequisites([inspectorLike], { ...options, browser });
  const error = await checkPrerequisites([inspectorLike], {
    ...options,
    browser,
    named: new Set(["inspector-like"]),
  }).then(() => null, (e: unknown) => e);
  assert.ok(error instanceof UsageError);
  assert.match(error.message, /^Host "inspector-like": binary "conformance-no-such-program" not found/);
  assert.match(
    missingBinary("mcp-inspector", "mcp-inspector", { ...options, env: { get: () => undefined } }),
    /deno task hosts:install" \(installs @modelcontextprotocol\/inspector@2\.12\.0\)/,
  );
});

Deno.test("missingBinary and browserProblem: the way out fits where the binary or browser comes from", async () => {
  const env = { get: (_name: string) => undefined };
  assert.match(
    missingBinary("gemini", "gemini", { ...options, env }),
    /deno task hosts:install.*CONFORMANCE_GEMINI_BIN/,
  );
  assert.match(
    missingBinary("x", "x", { ...options, configHosts: new Set(["x"]), configSource: "c.yaml", env }),
    /binary "x" not found on PATH: fix its "binary:" in "c\.yaml"/,
  );
  assert.equal(await browserProblem("reference", { ...options, env, browser: () => "/bin/sh" }), null);
  assert.match(
    (await browserProblem("reference", { ...options, env, browser: () => null }))!,
    /^Host "reference" needs a browser and none was found: install Chromium \(apt-get install chromium\) or set CONFORMANCE_CHROMIUM/,
  );
});
