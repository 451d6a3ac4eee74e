/**
 * The program as one JavaScript file (`deno bundle main.ts`) runs the fake tier from an empty folder with no
 * source tree: the fake host is the bundle re-invoked, under the same permission set. This is what can be
 * proved here of the compiled binary's self-containment without a `denort` to run it.
 */
import assert from "node:assert/strict";
import { PERMISSION_FLAGS } from "../../src/permissions.ts";
import { ROOT, runToEnd, tempFolder } from "./_run.ts";

interface ReportResult {
  host: string;
  test: string;
  status: string;
  expected: string;
  message: string;
}

Deno.test("a deno bundle of main.ts runs the fake tier from an empty folder with no source tree present", async () => {
  await using build = await tempFolder("conformance-bundle-build-");
  const built = await runToEnd(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--platform",
    "deno",
    "--output",
    `${build.path}/conformance.js`,
    "main.ts",
  ], { cwd: ROOT, timeoutMs: 300_000 });
  assert.equal(built.code, 0, built.stderr);

  await using folder = await tempFolder("conformance-bundle-run-");
  const bundle = `${folder.path}/conformance.js`;
  await Deno.copyFile(`${build.path}/conformance.js`, bundle);
  const text = await Deno.readTextFile(bundle);
  assert.ok(!text.includes(ROOT), `the bundle names the source tree (${ROOT})`);
  assert.deepEqual([...Deno.readDirSync(folder.path)].map((entry) => entry.name), ["conformance.js"]);

  const run = await runToEnd(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-config",
    ...PERMISSION_FLAGS,
    bundle,
    "run",
    "--host",
    "fake,fake-minimal",
    "--suite",
    "cli",
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
