/**
 * Commands printed for the user run as printed (cli/launch.ts): the program is named the way this process was
 * started, from the README's `npx -y deno@… task -q conformance -- …` to a compiled binary on PATH, and the
 * hints quoted in messages follow it.
 */
import assert from "node:assert/strict";
import { launchOf, localizeCommands, programWords, taskWords } from "../../cli/launch.ts";
import { PERMISSION_FLAGS } from "../../src/permissions.ts";

function context(execPath: string, env: Record<string, string>, extra: { allGranted?: boolean } = {}) {
  return {
    execPath,
    mainModule: "file:///repo/main.ts",
    env: { get: (name: string) => env[name] },
    cwd: "/repo",
    allGranted: extra.allGranted ?? false,
  };
}

const NPX_DENO = "/root/.npm/_npx/7a40be787520bede/node_modules/deno/deno";

Deno.test("from a task: npx's Deno is named as the README starts it, with -q and the --", () => {
  const launch = launchOf(context(NPX_DENO, { CONFORMANCE_TASK: "conformance", PATH: "/usr/bin" }));
  assert.deepEqual(programWords(launch), [
    "npx",
    "-y",
    `deno@${Deno.version.deno}`,
    "task",
    "-q",
    "conformance",
    "--",
  ]);
  const permit = launchOf(context(NPX_DENO, { CONFORMANCE_TASK: "conformance", CONFORMANCE_PERMIT: "1" }));
  assert.deepEqual(programWords(permit).slice(3), ["task", "-q", "conformance:permit", "--"]);
  const onPath = launchOf(
    context("/usr/local/bin/deno", { CONFORMANCE_TASK: "conformance", PATH: "/usr/local/bin" }),
  );
  assert.deepEqual(programWords(onPath), ["deno", "task", "-q", "conformance", "--"]);
  assert.deepEqual(taskWords("hosts:install", onPath), ["deno", "task", "-q", "hosts:install"]);
});

Deno.test("from deno run: the flags it needs and main.ts relative to the working folder", () => {
  const narrow = launchOf(context("/usr/local/bin/deno", { PATH: "/usr/bin" }));
  assert.deepEqual(programWords(narrow), ["/usr/local/bin/deno", "run", ...PERMISSION_FLAGS, "main.ts"]);
  const all = launchOf(context("/usr/local/bin/deno", { PATH: "/usr/local/bin" }, { allGranted: true }));
  assert.deepEqual(programWords(all), ["deno", "run", "-A", "main.ts"]);
});

Deno.test("a compiled binary: its name when its folder is on PATH, else its path; no task to offer", () => {
  const binary = (path: string) => ({
    ...context("/opt/tools/conformance", { PATH: path }),
    mainModule: "file:///tmp/deno-compile-conformance/main.ts",
  });
  assert.deepEqual(programWords(launchOf(binary("/usr/bin:/opt/tools"))), ["conformance"]);
  assert.deepEqual(programWords(launchOf(binary("/usr/bin"))), ["/opt/tools/conformance"]);
  assert.equal(taskWords("hosts:install", launchOf(binary("/usr/bin"))), null);
});

Deno.test("hints quoted in a message are written the way the program was started", () => {
  const task = { kind: "task", deno: ["npx", "-y", "deno@2.9.6"], task: "conformance" } as const;
  assert.equal(
    localizeCommands('No test matches the filters. Run "conformance list tests"', task),
    'No test matches the filters. Run "npx -y deno@2.9.6 task -q conformance -- list tests"',
  );
  assert.equal(
    localizeCommands('binary "claude" not found: run "deno task hosts:install" (installs …)', task),
    'binary "claude" not found: run "npx -y deno@2.9.6 task hosts:install" (installs …)',
  );
  const binary = { kind: "compiled", program: "./conformance" } as const;
  assert.equal(localizeCommands('Run "conformance --help"', binary), 'Run "./conformance --help"');
  assert.equal(localizeCommands('schema "conformance-report/1"', binary), 'schema "conformance-report/1"');
});
