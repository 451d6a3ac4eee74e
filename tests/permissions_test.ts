import assert from "node:assert/strict";
import {
  APPS_HOST_BINARIES,
  ENV_ALLOW,
  envNameAllowed,
  explainRefusal,
  HOST_BINARIES,
  HOST_ENV_NAMES,
  PERMISSION_FLAGS,
  permissionFlags,
  RUN_ALLOW,
  TASK_PERMISSION_FLAGS,
} from "../src/permissions.ts";
import { SOURCE_PERMISSIONS } from "../src/exec/self.ts";
import { BASELINE_ENV_ALLOW, namesOf } from "../src/exec/env.ts";
import { compileArgs } from "../tools/compile.ts";
import { PINNED_APPS_HOSTS } from "../hosts/installed.ts";
import { CLI_HOSTS, HOSTS, PINNED_HOSTS } from "../hosts/registry.ts";
import { HOME_ALLOW } from "../hosts/cli/_real_host.ts";
import { permissionFiles } from "../tools/permissions.ts";
import { ROOT, runToEnd, tempFolder } from "./binary/_run.ts";

const denoJson = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url))) as {
  tasks: Record<string, string>;
};

Deno.test("deno task conformance, the fake host from source and the compiled binary share one permission set", () => {
  // The task's read list alone is wider: the install cache it puts on PATH, where doctor reads the versions.
  assert.ok(
    denoJson.tasks.conformance?.includes(`deno run --quiet ${TASK_PERMISSION_FLAGS.join(" ")} main.ts`),
    `the conformance task must run main.ts with exactly: ${TASK_PERMISSION_FLAGS.join(" ")}`,
  );
  assert.deepEqual(
    TASK_PERMISSION_FLAGS.filter((flag) => !flag.startsWith("--allow-read=")),
    PERMISSION_FLAGS.filter((flag) => !flag.startsWith("--allow-read=")),
  );
  assert.deepEqual([...SOURCE_PERMISSIONS], [...PERMISSION_FLAGS]);
  const compile = compileArgs({ output: "dist/conformance" });
  const flags = compile.filter((arg) => /^--(allow|deny)-|^--no-prompt$/.test(arg));
  assert.deepEqual(flags, [...PERMISSION_FLAGS]);
});

Deno.test("src/host_permissions.ts, the conformance task of deno.json and fake_host/dialect_names.ts are what deno task permissions writes", async () => {
  const root = new URL("../", import.meta.url);
  const denoText = await Deno.readTextFile(new URL("deno.json", root));
  for (const [path, text] of Object.entries(permissionFiles(denoText))) {
    assert.equal(
      await Deno.readTextFile(new URL(path, root)),
      text,
      `${path} is stale: run "deno task permissions" (a registry host or a src/normalize/mod.ts dialect changed)`,
    );
  }
});

Deno.test("each real host's permission prefixes, in its own file, cover every variable it is handed", () => {
  for (const host of CLI_HOSTS) {
    const invocation = host.runner.build("version-check", { prompt: "" });
    for (const name of invocation.envAllow) {
      assert.ok(
        HOME_ALLOW.includes(name) || envNameAllowed(name, host.envPrefixes),
        `host "${host.entry.id}" hands on "${name}": add a prefix covering it to its envPrefixes`,
      );
    }
  }
});

Deno.test("each real host names the variables its envAllow wildcards stand for, under them and its prefixes", () => {
  for (const host of CLI_HOSTS) {
    const id = host.entry.id;
    const allow = host.runner.build("version-check", { prompt: "" }).envAllow;
    for (const wildcard of allow.filter((name) => name.endsWith("*"))) {
      assert.ok(
        host.envNames.some((name) => envNameAllowed(name, [wildcard])),
        `host "${id}" hands on "${wildcard}" but names none of its variables in envNames: under the ` +
          "permission set the environment cannot be listed, so that wildcard would hand on nothing",
      );
    }
    for (const name of host.envNames) {
      assert.ok(!name.endsWith("*"), `host "${id}": envNames are names, got "${name}"`);
      assert.ok(
        envNameAllowed(name, allow),
        `host "${id}" names "${name}", which its envAllow does not hand on`,
      );
      assert.ok(
        envNameAllowed(name, host.envPrefixes),
        `host "${id}" names "${name}" outside its envPrefixes`,
      );
      assert.ok(HOST_ENV_NAMES.includes(name), `host "${id}" names "${name}": run "deno task permissions"`);
      assert.ok(
        namesOf(allow).includes(name),
        `host "${id}": "${name}" is not among the names readEnv tries`,
      );
    }
  }
  const cline = CLI_HOSTS.find((host) => host.entry.id === "cline")!;
  assert.ok(namesOf(cline.runner.build("version-check", { prompt: "" }).envAllow).includes("CLINE_API_KEY"));
});

Deno.test("no task grants everything, and the product's set names its net, run and write scopes", () => {
  for (const [name, task] of Object.entries(denoJson.tasks)) {
    assert.doesNotMatch(task, /(^|\s)(-A|--allow-all)(\s|$)/, `task "${name}" grants everything`);
  }
  const scoped = (flag: string) => PERMISSION_FLAGS.find((given) => given.startsWith(`${flag}=`));
  assert.equal(scoped("--allow-net"), "--allow-net=127.0.0.1,localhost,[::1]");
  assert.equal(scoped("--allow-import"), "--allow-import=127.0.0.1,localhost,[::1]");
  assert.ok(scoped("--allow-run"), "run access must be a list");
  assert.ok(scoped("--allow-write"), "write access must be a list");
  assert.ok(scoped("--allow-sys"), "system facts must be a list");
  assert.ok(!PERMISSION_FLAGS.includes("--allow-run") && !PERMISSION_FLAGS.includes("--allow-net"));
  assert.ok(PERMISSION_FLAGS.includes("--no-prompt"), "a refusal must never wait for an answer");
});

Deno.test("every agent CLI of the registry is in the run list under the binary name it is installed as", () => {
  // The fakes and the reference agent are the program itself (`/proc/self/exe`), not an installed CLI.
  const cliHosts = HOSTS.filter((host) => host.kind === "cli" && host.runner.binary !== "conformance");
  for (const host of cliHosts) {
    const pin = PINNED_HOSTS.find((pinned) => pinned.host === host.id);
    assert.ok(pin, `host "${host.id}" has no install pin in its host file, so its binary name is unknown`);
    assert.ok(
      HOST_BINARIES.includes(pin.binary),
      `host "${host.id}" runs "${pin.binary}": run "deno task permissions"`,
    );
  }
  assert.ok(RUN_ALLOW.includes("kill") && RUN_ALLOW.includes("ps") && RUN_ALLOW.includes("/proc/self/exe"));
});

Deno.test("every locally run apps host of the registry is in the run list under its shim name", () => {
  assert.ok(PINNED_APPS_HOSTS.length > 0);
  for (const pin of PINNED_APPS_HOSTS) {
    assert.ok(
      HOSTS.some((host) => host.id === pin.host),
      `pinned apps host "${pin.host}" is not in the registry`,
    );
    assert.ok(
      APPS_HOST_BINARIES.includes(pin.binary) && RUN_ALLOW.includes(pin.binary),
      `apps host "${pin.host}" runs "${pin.binary}": run "deno task permissions"`,
    );
  }
});

Deno.test("env access is a list covering every variable a registry host is handed, and no catch-all", () => {
  const env = PERMISSION_FLAGS.find((flag) => flag.startsWith("--allow-env"));
  assert.ok(env?.startsWith("--allow-env="), `env access must be a list, got ${env}`);
  assert.ok(!ENV_ALLOW.includes("*"), "no entry may allow every variable");
  let checked = 0;
  for (const host of HOSTS) {
    if (host.kind !== "cli") continue;
    const invocation = host.runner.build("version-check", { prompt: "" });
    for (const name of [...BASELINE_ENV_ALLOW, ...invocation.envAllow]) {
      assert.ok(envNameAllowed(name), `host "${host.id}" hands on "${name}": add it to src/permissions.ts`);
      checked++;
    }
  }
  assert.ok(checked > 50, `expected the registry's allow-lists, checked ${checked} names`);
  assert.equal(envNameAllowed("GH_TOKEN"), false);
  assert.equal(envNameAllowed("AWS_SECRET_ACCESS_KEY"), true);
});

Deno.test("permissionFlags adds variables to the env list and refuses a name that would widen the flag", () => {
  const env = permissionFlags([], ["MY_AGENT_KEY"]).find((flag) => flag.startsWith("--allow-env="));
  assert.ok(env?.endsWith(",MY_AGENT_KEY"), env);
  const compiled = compileArgs({ output: "dist/conformance", alsoEnv: ["MY_AGENT_KEY"] });
  assert.ok(compiled.includes(env ?? "?"), "deno task compile --also-env reaches the binary's env list");
  assert.throws(() => permissionFlags([], ["A,B"]), /Invalid variable name "A,B"/);
  assert.throws(() => permissionFlags([], ["*"]), /Invalid variable name "\*"/);
});

Deno.test("permissionFlags adds programs to the run list and refuses a name that would widen the flag", () => {
  const run = permissionFlags(["my-agent"]).find((flag) => flag.startsWith("--allow-run="));
  assert.ok(run?.endsWith(",mcp-inspector,mcp-use-inspector,my-agent"), run);
  assert.throws(() => permissionFlags(["a,b"]), /Invalid program name "a,b"/);
  assert.throws(() => permissionFlags([""]), /Invalid program name ""/);
});

Deno.test("under the permission set, what it refuses is explained with what to do", async () => {
  await using folder = await tempFolder("conformance-refusals-");
  const outsider = `${folder.path}/my-agent`;
  await Deno.writeTextFile(outsider, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(outsider, 0o755);
  const outsideFile = "/var/lib/conformance-refusal-probe.txt";
  const { code, stdout, stderr } = await runToEnd(
    Deno.execPath(),
    ["run", "--quiet", ...PERMISSION_FLAGS, `${ROOT}tests/binary/_refusals_child.ts`, outsider, outsideFile],
    { cwd: folder.path, timeoutMs: 60_000 },
  );
  assert.equal(code, 0, stderr);
  const lines = stdout.trim().split("\n").map((line) =>
    JSON.parse(line) as {
      name: string;
      allowed: boolean;
      explained?: string | null;
    }
  );
  const by = (name: string) => lines.find((line) => line.name === name);
  assert.equal(by("run")?.allowed, false);
  assert.match(
    by("run")?.explained ?? "",
    /^Program ".*\/my-agent" is not permitted by the harness's run permission: from a clone, run the same command under "deno task conformance:permit"/,
  );
  assert.match(by("run")?.explained ?? "", /deno task compile --also-run my-agent/);
  assert.equal(by("write")?.allowed, false);
  assert.match(by("write")?.explained ?? "", /^Cannot write "\/var\/lib\/conformance-refusal-probe.txt"/);
  assert.equal(by("listen")?.allowed, false);
  assert.match(by("listen")?.explained ?? "", /talks only to loopback/);
  assert.equal(by("kill")?.allowed, false, "Deno.kill must stay refused: the harness signals through kill");
  assert.match(by("kill")?.explained ?? "", /uses the "kill" binary/);
  assert.equal(by("env")?.allowed, false, "a variable outside the set is refused, not read as unset");
  assert.match(
    by("env")?.explained ?? "",
    /^Environment variable "GH_TOKEN" is not permitted by the harness's env permission: from a clone/,
  );
  assert.match(by("env")?.explained ?? "", /deno task compile --also-env GH_TOKEN/);
  assert.equal(by("listEnv")?.allowed, false, "the environment cannot be listed under the set");
  await assert.rejects(Deno.stat(outsideFile), Deno.errors.NotFound);
});

Deno.test("a registry binary found off PATH is told to be put on PATH; other errors are not refusals", () => {
  const refusal = new Deno.errors.NotCapable(
    'Requires run access to "/home/u/.cache/conformance/hosts/bin/claude", run again with the --allow-run flag',
  );
  assert.equal(
    explainRefusal(refusal),
    'Program "/home/u/.cache/conformance/hosts/bin/claude" is outside the harness\'s run permission, which ' +
      'allows "claude" only as found on PATH: put its folder first on PATH ' +
      '(export PATH="/home/u/.cache/conformance/hosts/bin:$PATH")',
  );
  assert.equal(
    explainRefusal(
      new Deno.errors.NotCapable(
        'Requires read access to "/srv/hosts.yaml", run again with the --allow-read flag',
      ),
    ),
    'Cannot read "/srv/hosts.yaml": it is outside the harness\'s read permission; copy the file into the ' +
      "working folder (or temp) and pass that path, or run from source with a wider --allow-read; see docs/binary.md",
  );
  assert.equal(explainRefusal(new Deno.errors.NotFound("gone")), null);
  assert.equal(explainRefusal("text"), null);
});
