/**
 * The program runs under its own permission set (the flags of `deno task conformance` and the compiled
 * binary): the fake tier passes, reports land in the working folder, and a host binary outside the set is
 * refused with a clear message rather than a stack trace.
 */
import assert from "node:assert/strict";
import { PERMISSION_FLAGS, permissionFlags } from "../../src/permissions.ts";
import { ROOT, runToEnd, tempFolder } from "./_run.ts";

interface ReportResult {
  host: string;
  test: string;
  status: string;
  expected: string;
  message: string;
}

const OUTSIDER_CONFIG = (binary: string) =>
  [
    "hosts:",
    "  - id: outsider",
    "    kind: cli",
    `    binary: ${binary}`,
    "    dialect: claude",
    "    paths:",
    '      streaming: ["-p", "{prompt}", "--output-format", "stream-json"]',
    '      version-check: ["--version"]',
    "",
  ].join("\n");

Deno.test("under the permission set the fake tier passes and an agent CLI outside it is refused before any test", async () => {
  await using folder = await tempFolder("conformance-permset-");
  const outsider = `${folder.path}/my-agent`;
  await Deno.writeTextFile(outsider, '#!/bin/sh\necho \'{"type":"system","subtype":"init"}\'\n');
  await Deno.chmod(outsider, 0o755);
  await Deno.writeTextFile(`${folder.path}/hosts.yaml`, OUTSIDER_CONFIG(outsider));
  const run = (...args: string[]) =>
    runToEnd(Deno.execPath(), ["run", "--quiet", ...PERMISSION_FLAGS, `${ROOT}main.ts`, "run", ...args], {
      cwd: folder.path,
    });
  const { code, stderr } = await run(
    "--host",
    "fake",
    "--suite",
    "cli",
    "--reporter",
    "json",
    "--out",
    "reports",
  );
  assert.equal(code, 0, `the fake tier passes under the permission set, got ${code}:\n${stderr}`);
  const report = JSON.parse(await Deno.readTextFile(`${folder.path}/reports/report.json`)) as {
    results: ReportResult[];
  };
  const fake = report.results.filter((result) => result.host === "fake");
  assert.ok(fake.length >= 20, `expected the whole fake tier, got ${fake.length} results`);
  const unexpected = fake.filter((result) => result.status !== result.expected);
  assert.deepEqual(unexpected.map((result) => `${result.test}: ${result.status} ${result.message}`), []);
  assert.ok(fake.filter((result) => result.status === "PASS").length >= 20);
  // A binary the harness may not start stops the run (exit 2, before any test), with the command that permits it.
  const refused = await run("--host", "outsider", "--config", "hosts.yaml", "--suite", "cli");
  assert.equal(refused.code, 2, `a usage error, got ${refused.code}:\n${refused.stderr}`);
  assert.match(
    refused.stderr,
    /Host "outsider" needs ".*\/my-agent" \(a program\) \(from "hosts\.yaml"\), which the harness's permission set does not permit: run it as .*task -q conformance:permit -- run --host outsider --config hosts\.yaml --suite cli$/m,
  );
  assert.doesNotMatch(refused.stderr, /internal error|\n\s+at /, "no harness error and no stack trace");
});

Deno.test("a --config host handing on a variable outside the env permission stops before any test", async () => {
  await using folder = await tempFolder("conformance-permset-env-");
  const config = OUTSIDER_CONFIG("my-agent").replace(
    "    dialect: claude\n",
    "    dialect: claude\n    envAllow: [MY_AGENT_TOKEN]\n",
  );
  await Deno.writeTextFile(`${folder.path}/hosts.yaml`, config);
  const run = (flags: readonly string[]) =>
    runToEnd(Deno.execPath(), [
      "run",
      "--quiet",
      ...flags,
      `${ROOT}main.ts`,
      "run",
      "--host",
      "outsider",
      "--config",
      "hosts.yaml",
      "--suite",
      "cli",
      "--out",
      "reports",
    ], { cwd: folder.path });
  const refused = await run(PERMISSION_FLAGS);
  assert.equal(refused.code, 2, `a usage error, got ${refused.code}:\n${refused.stderr}`);
  assert.match(
    refused.stderr,
    /Host "outsider" needs "my-agent" \(a program\) and MY_AGENT_TOKEN \(a variable\) \(from "hosts\.yaml"\), which the harness's permission set does not permit: run it as .*conformance:permit -- run --host outsider/,
  );
  assert.doesNotMatch(refused.stderr, /\n\s+at /, "no stack trace");
  // The way out the message names: the same set with the variable added loads the config (and finds no host).
  const allowed = await run(permissionFlags(["my-agent"], ["MY_AGENT_TOKEN"]));
  assert.doesNotMatch(allowed.stderr, /MY_AGENT_TOKEN/, allowed.stderr);
});

Deno.test("a file outside the read permission is named with its way out, for every command that reads one", async () => {
  await using folder = await tempFolder("conformance-permset-read-");
  // /etc/hosts exists on every POSIX machine and lies outside the working folder and temp.
  const outside = "/etc/hosts";
  const commands = [
    ["parse", "--host", "claude-code", outside],
    ["run", "--host", "fake", "--config", outside],
    ["run", "--host", "fake", "--expectations", outside],
    ["board", outside],
  ];
  for (const args of commands) {
    const { code, stderr } = await runToEnd(
      Deno.execPath(),
      ["run", "--quiet", ...PERMISSION_FLAGS, `${ROOT}main.ts`, ...args],
      { cwd: folder.path },
    );
    const what = `conformance ${args.join(" ")}`;
    assert.equal(code, 2, `${what}: a usage error, got ${code}:\n${stderr}`);
    assert.match(
      stderr,
      /Cannot read "\/etc\/hosts": it is outside the harness's read permission; copy the file into the working folder/,
      what,
    );
    assert.equal(stderr.trim().split("\n").length, 1, `${what}: one line, no stack trace:\n${stderr}`);
  }
});
