/**
 * The program as one JavaScript file (`deno bundle main.ts`) runs the fake tier from an empty folder with no
 * source tree: the fake host is the bundle re-invoked, under the same permission set. And under that set, which
 * can read a variable by name but not list the environment, every registry CLI is handed the variables its host
 * file names, its wildcards' included. This is what can be proved here of the compiled binary without a
 * `denort` to run it.
 */
import assert from "node:assert/strict";
import { CLI_HOSTS } from "../../hosts/registry.ts";
import { PERMISSION_FLAGS } from "../../src/permissions.ts";
import { ROOT, runToEnd, tempFolder } from "./_run.ts";

let built: Promise<string> | undefined;

/** The bundle of main.ts, built once for this file's tests; its folder goes when the tests end. */
function bundle(): Promise<string> {
  built ??= (async () => {
    const build = await Deno.makeTempDir({ prefix: "conformance-bundle-build-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(build, { recursive: true }));
    const done = await runToEnd(Deno.execPath(), [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--output",
      `${build}/conformance.js`,
      "main.ts",
    ], { cwd: ROOT, timeoutMs: 300_000 });
    assert.equal(done.code, 0, done.stderr);
    return `${build}/conformance.js`;
  })();
  return built;
}

interface ReportResult {
  host: string;
  test: string;
  status: string;
  expected: string;
  message: string;
}

Deno.test("a deno bundle of main.ts runs the fake tier from an empty folder with no source tree present", async () => {
  const source = await bundle();
  await using folder = await tempFolder("conformance-bundle-run-");
  const copy = `${folder.path}/conformance.js`;
  await Deno.copyFile(source, copy);
  const text = await Deno.readTextFile(copy);
  assert.ok(!text.includes(ROOT), `the bundle names the source tree (${ROOT})`);
  assert.deepEqual([...Deno.readDirSync(folder.path)].map((entry) => entry.name), ["conformance.js"]);

  const run = await runToEnd(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-config",
    ...PERMISSION_FLAGS,
    copy,
    "run",
    "--host",
    "fake,fake-minimal",
    "--suite",
    "cli",
    // The bundle's working is under test, not the machine's speed: at load 40 two fake cases met their ×1 limits.
    "--timeout-multiplier",
    "3",
    "--reporter",
    "json",
    "--out",
    "out",
  ], { cwd: folder.path });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${folder.path}/out/report.json`)) as {
    results: ReportResult[];
  };
  const hosts = new Set(report.results.map((result) => result.host));
  assert.deepEqual([...hosts].sort(), ["fake", "fake-minimal"]);
  assert.ok(report.results.length >= 40, `expected both fakes' tiers, got ${report.results.length}`);
  const unexpected = report.results.filter((result) => result.status !== result.expected);
  assert.deepEqual(unexpected.map((result) => `${result.host} ${result.test}: ${result.message}`), []);
  const passed = report.results.filter((result) => result.status === "PASS").length;
  assert.ok(passed >= 40, `only ${passed} passed`);
});

Deno.test("under the permission set every registry CLI is handed the variables its host file names, wildcards' too", async () => {
  const source = await bundle();
  await using folder = await tempFolder("conformance-bundle-env-");
  // Each CLI is a script under its binary name, first on PATH, that writes what it was handed and prints a version.
  const bin = `${folder.path}/bin`;
  const dumps = `${folder.path}/env`;
  await Deno.mkdir(bin);
  await Deno.mkdir(dumps);
  for (const host of CLI_HOSTS) {
    const script = `#!/bin/sh\nenv > '${dumps}/${host.entry.id}.env'\necho 1.0.0-env-probe\n`;
    await Deno.writeTextFile(`${bin}/${host.runner.binary}`, script, { mode: 0o755 });
  }
  const value = (name: string) => `conformance-probe-${name.toLowerCase()}`;
  const names = [...new Set(CLI_HOSTS.flatMap((host) => host.envNames))];
  const run = await runToEnd(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-config",
    ...PERMISSION_FLAGS,
    source,
    "run",
    "--host",
    CLI_HOSTS.map((host) => host.entry.id).join(","),
    "--suite",
    "cli",
    "--tier",
    "constructability",
    "--reporter",
    "json",
    "--out",
    "out",
  ], {
    cwd: folder.path,
    env: {
      ...Object.fromEntries(names.map((name) => [name, value(name)])),
      PATH: `${bin}:${Deno.env.get("PATH")}`,
    },
  });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${folder.path}/out/report.json`)) as {
    hosts: { id: string; version: string | null }[];
  };
  let handed = 0;
  for (const host of CLI_HOSTS) {
    const id = host.entry.id;
    assert.equal(
      report.hosts.find((entry) => entry.id === id)?.version,
      "1.0.0-env-probe",
      `${id} was not run`,
    );
    const env = new Map(
      (await Deno.readTextFile(`${dumps}/${id}.env`)).split("\n").filter((line) => line.includes("=")).map((
        line,
      ) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    for (const name of host.envNames) {
      assert.equal(env.get(name), value(name), `${id} was not handed ${name}`);
      handed++;
    }
    // Deny by default still: no other host's variable reaches it.
    const others = names.filter((name) => !host.envNames.includes(name));
    assert.deepEqual(others.filter((name) => env.has(name)), [], `${id} was handed another host's variables`);
  }
  const wildcards = CLI_HOSTS.flatMap((host) =>
    host.envNames.filter((name) =>
      !host.runner.build("version-check", { prompt: "" }).envAllow.includes(name)
    )
  );
  assert.ok(
    wildcards.includes("CLINE_API_KEY") && wildcards.includes("COPILOT_GITHUB_TOKEN"),
    `${wildcards}`,
  );
  assert.ok(handed > 60, `expected every host's names, checked ${handed}`);
});
