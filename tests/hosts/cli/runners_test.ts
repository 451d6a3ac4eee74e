/**
 * The real runners' argv: every known pitfall is handled, unsupported paths are refused by name, and
 * the binary comes from the override, the install cache, or PATH. No host process is started here.
 */
import assert from "node:assert/strict";
import { claudeCode } from "../../../hosts/cli/claude_code.ts";
import { codex } from "../../../hosts/cli/codex.ts";
import { gemini } from "../../../hosts/cli/gemini.ts";
import { kimiCode } from "../../../hosts/cli/kimi_code.ts";
import { omp } from "../../../hosts/cli/omp.ts";
import { opencode } from "../../../hosts/cli/opencode.ts";
import { pi } from "../../../hosts/cli/pi.ts";
import { qwen } from "../../../hosts/cli/qwen.ts";
import { CLI_HOSTS, HOSTS, PINNED_HOSTS } from "../../../hosts/registry.ts";
import { projectEnv } from "../../../src/exec/env.ts";
import { GOLDEN_PATHS } from "../../../src/exec/host_runner.ts";

const P = "Reply with exactly: OK";
const ALL = CLI_HOSTS;
const args = (
  host: (typeof CLI_HOSTS)[number],
  path: string,
  request: Record<string, unknown> = {},
) => [...host.runner.build(path, { prompt: P, ...request }).args];

Deno.test("every real host is registered once, pinned in its own file at an exact version", () => {
  assert.ok(ALL.length > 0);
  for (const host of ALL) {
    assert.equal(HOSTS.filter((entry) => entry.id === host.entry.id).length, 1, host.entry.id);
    const pins = PINNED_HOSTS.filter((candidate) => candidate.host === host.entry.id);
    assert.deepEqual(pins, [host.pin], `${host.entry.id} has exactly its own pin`);
    assert.equal(host.runner.pinnedVersion, host.pin.pkg.version);
    assert.equal(host.runner.binary, host.pin.binary);
    // An exact version, never a range (amp's releases carry a pre-release part: 0.0.<build>-g<commit>).
    assert.match(
      host.pin.pkg.version,
      /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/,
      `${host.entry.id} pins an exact version`,
    );
  }
  // The real hosts the suite was written against stay pinned where they were (no behaviour change).
  assert.deepEqual(
    [claudeCode, codex, gemini, opencode, pi, omp, kimiCode, qwen].map((host) => host.pin.pkg.version),
    ["2.1.332", "0.171.0", "0.61.0", "1.18.33", "0.73.1", "18.2.3", "2.1.0", "0.24.4"],
  );
});

Deno.test("claude: stream-json always with --verbose; IS_SANDBOX exactly when root; background tasks off", () => {
  for (const path of ["streaming", "resume"]) {
    const argv = args(claudeCode, path);
    assert.ok(argv.includes("stream-json") && argv.includes("--verbose"), `${path}: ${argv}`);
  }
  const invocation = claudeCode.runner.build("streaming", { prompt: P });
  assert.equal(invocation.env.IS_SANDBOX, Deno.uid() === 0 ? "1" : undefined);
  assert.equal(invocation.env.CLAUDE_CODE_DISABLE_BACKGROUND_TASKS, "1");
  assert.ok(args(claudeCode, "resume").includes("--continue"));
  const sandboxed = args(claudeCode, "streaming", { workspaceRoot: "/w" });
  // The same mode as without a root, named, so that the root is the one thing the sandboxed run changes.
  assert.deepEqual(
    sandboxed.slice(sandboxed.indexOf("--permission-mode"), sandboxed.indexOf("--permission-mode") + 4),
    ["--permission-mode", "bypassPermissions", "--add-dir", "/w"],
  );
  const blocking = args(claudeCode, "blocking-json", { jsonSchema: "{}" });
  assert.ok(
    blocking.includes("json") && blocking.includes("--json-schema") && !blocking.includes("--verbose"),
  );
});

Deno.test("codex: exec options before resume, no -C after it, --skip-git-repo-check always, model kept", () => {
  const resume = args(codex, "resume", { model: "gpt-x" });
  const at = resume.indexOf("resume");
  assert.ok(at > 0);
  for (
    const option of ["--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-m"]
  ) {
    assert.ok(resume.indexOf(option) >= 0 && resume.indexOf(option) < at, `${option} must precede resume`);
  }
  assert.deepEqual(resume.slice(at), ["resume", "--last", P]);
  assert.ok(!resume.includes("-C"));
  assert.deepEqual(args(codex, "streaming").slice(0, 2), ["exec", "--json"]);
  assert.equal(args(codex, "streaming").at(-1), P);
  assert.ok(!args(codex, "detached").includes("--json"));
  assert.throws(
    () => codex.runner.build("blocking-json", { prompt: P }),
    /no golden path "blocking-json".*JSON/,
  );
});

Deno.test("gemini: --skip-trust and yolo on every prompt path", () => {
  for (const path of ["streaming", "blocking-json", "resume", "detached"]) {
    const argv = args(gemini, path);
    assert.ok(argv.includes("--skip-trust"), path);
    assert.deepEqual(argv.slice(argv.indexOf("--approval-mode"), argv.indexOf("--approval-mode") + 2), [
      "--approval-mode",
      "yolo",
    ]);
  }
  assert.deepEqual(args(gemini, "resume").slice(-2), ["--resume", "latest"]);
});

Deno.test("kimi: -p never combined with --yolo, --auto or --plan; agent dropped on resume", () => {
  for (const path of kimiCode.runner.goldenPaths) {
    const argv = args(kimiCode, path, { agent: "a" });
    for (const refused of ["--yolo", "--auto", "--plan"]) {
      assert.ok(!argv.includes(refused), `${path}: ${argv}`);
    }
  }
  assert.ok(args(kimiCode, "streaming", { agent: "a" }).includes("--agent"));
  assert.ok(!args(kimiCode, "resume", { agent: "a" }).includes("--agent"));
  assert.equal(kimiCode.runner.capabilities.permissionSkip, false, "no bypass can be passed with -p");
});

Deno.test("qwen: the prompt is positional and last, never behind -p", () => {
  for (const path of ["streaming", "blocking-json", "resume", "detached"]) {
    const argv = args(qwen, path, { jsonSchema: "{}" });
    assert.equal(argv.at(-1), P, path);
    assert.ok(!argv.includes("-p") && !argv.includes("--prompt"), path);
  }
  assert.equal(qwen.runner.build("streaming", { prompt: P }).env.QWEN_CODE_SUPPRESS_YOLO_WARNING, "1");
});

Deno.test("opencode, pi, omp: model flag only when asked; omp gets an explicit --cwd", () => {
  assert.ok(!args(opencode, "streaming").includes("-m"));
  assert.deepEqual(args(opencode, "streaming", { model: "p/m" }).slice(0, 6), [
    "run",
    "--format",
    "json",
    "--auto",
    "-m",
    "p/m",
  ]);
  assert.deepEqual(args(pi, "streaming").slice(0, 2), ["--mode", "json"]);
  assert.ok(args(pi, "streaming", { tools: ["read", "bash"] }).includes("read,bash"));
  const ompArgv = args(omp, "streaming", { workingDir: "/w" });
  assert.deepEqual(ompArgv.slice(ompArgv.indexOf("--cwd"), ompArgv.indexOf("--cwd") + 2), ["--cwd", "/w"]);
});

Deno.test("every runner: version check is --version; unsupported paths are refused with the reason", () => {
  for (const host of ALL) {
    assert.deepEqual(args(host, "version-check"), ["--version"], host.entry.id);
    for (const path of GOLDEN_PATHS) {
      if (host.runner.goldenPaths.includes(path)) continue;
      const reason = host.runner.unsupportedPaths[path];
      assert.ok(reason, `${host.entry.id}: "${path}" unsupported without a reason`);
      assert.throws(() => host.runner.build(path, { prompt: P }), new RegExp(`no golden path "${path}"`));
    }
    assert.ok(
      host.runner.mockModel || host.runner.mockModelUnsupported,
      `${host.entry.id} cannot be pointed at a mock model and says not why`,
    );
  }
});

Deno.test("every runner: the parent's credentials pass only through its declared allow-list", () => {
  const parent = {
    HOME: "/home/u",
    PATH: "/bin",
    GITHUB_TOKEN: "ghp_x",
    NPM_TOKEN: "npm_x",
    ANTHROPIC_API_KEY: "sk-ant",
    OPENAI_API_KEY: "sk-oai",
    GEMINI_API_KEY: "g",
  };
  const own: Record<string, string> = {
    "claude-code": "ANTHROPIC_API_KEY",
    "codex": "OPENAI_API_KEY",
    "gemini": "GEMINI_API_KEY",
  };
  for (const host of ALL) {
    const invocation = host.runner.build("streaming", { prompt: P });
    const env = projectEnv(invocation, parent);
    assert.equal(env.HOME, "/home/u", host.entry.id);
    assert.equal(env.GITHUB_TOKEN, undefined, `${host.entry.id} leaks GITHUB_TOKEN`);
    assert.equal(env.NPM_TOKEN, undefined, `${host.entry.id} leaks NPM_TOKEN`);
    const mine = own[host.entry.id];
    if (mine) {
      assert.equal(env[mine], parent[mine as keyof typeof parent], `${host.entry.id} needs ${mine} live`);
      for (const other of Object.values(own).filter((name) => name !== mine && name !== "OPENAI_API_KEY")) {
        assert.equal(env[other], undefined, `${host.entry.id} sees ${other}`);
      }
    }
    assert.equal(Object.isFrozen(invocation), true);
    assert.equal(Object.isFrozen(invocation.args), true);
  }
});

Deno.test("binary resolution: CONFORMANCE_<HOST>_BIN wins over the install cache and PATH", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fake = `${dir}/my-claude`;
    await Deno.writeTextFile(fake, "#!/bin/sh\nexit 0\n");
    await Deno.chmod(fake, 0o755);
    Deno.env.set("CONFORMANCE_CLAUDE_CODE_BIN", fake);
    assert.equal(claudeCode.runner.build("version-check", { prompt: "" }).binary, fake);
    assert.equal(await claudeCode.runner.detect(), fake);
    Deno.env.set("CONFORMANCE_CLAUDE_CODE_BIN", `${dir}/absent`);
    assert.equal(await claudeCode.runner.detect(), null, "an override naming nothing is absent, not PATH");
  } finally {
    Deno.env.delete("CONFORMANCE_CLAUDE_CODE_BIN");
    await Deno.remove(dir, { recursive: true });
  }
});
