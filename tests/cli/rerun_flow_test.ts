/**
 * Reruns without ceremony, through the real `conformance` command: `--out` alone leaves the report.json that
 * `--rerun-failed` needs (given as the file or the folder); `list tests --rerun-failed` is its dry run; an
 * interrupted report's unfinished tests are rerun too; a second run into the same folder clears the first's
 * evidence and says so; `parse DIR --judge` judges a saved stream again beside the run's own verdict; and an
 * `--out` outside the write set says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseReport, type RunReport } from "../../src/report/schema.ts";
import { runHarness } from "../robustness/_harness.ts";
import { OK_STREAM, plantCliHost } from "./_planted_host.ts";

const TEST = "cli/behavior/streaming";

Deno.test("--out alone leaves what --rerun-failed needs; the dry run lists it; a green rerun clears the old evidence", async () => {
  await using host = await plantCliHost({
    id: "flaky-agent",
    prefix: "conformance-rerun-flow-",
    // Fails (exit 3) until the file "fixed" exists.
    script: (dir) => [
      'if [ "$1" = "--version" ]; then echo "flaky-agent 0.0.1"; exit 0; fi',
      ...OK_STREAM.map((line) => `echo '${line}'`),
      `[ -f '${dir}/fixed' ] && exit 0`,
      "exit 3",
    ],
  });
  const run = (...args: string[]) => runHarness(args, { alsoRun: [join(host.dir, "flaky-agent")] });
  const out = join(host.dir, "reports");
  const first = await run("run", "--config", host.config, "--host", "flaky-agent", "--live", "--out", out);
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, /wrote .*reports\/report\.json/);
  const report = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  assert.deepEqual(report.results.filter((r) => r.status === "FAIL").map((r) => r.test), [TEST]);
  await Deno.stat(join(out, "streams/flaky-agent/behavior-streaming"));

  // The saved stream judged again, offline, beside the run's own verdict.
  const judged = await run("parse", join(out, "streams/flaky-agent/behavior-streaming"), "--judge");
  assert.equal(judged.code, 1, judged.stderr);
  assert.match(judged.stdout, /^judged again against the stream contract: FAIL: exit code 3, expected 0$/m);
  assert.match(
    judged.stdout,
    /^the run's verdict \(cli\/behavior\/streaming\): FAIL: exit code 3, expected 0$/m,
  );

  // The dry run names exactly what the rerun runs, with the report's flags (--config, --live) brought back.
  const dry = await run("list", "tests", "--rerun-failed", out);
  assert.equal(dry.code, 0, dry.stderr);
  assert.equal(dry.stdout, `flaky-agent\t${TEST}\n`);
  assert.match(dry.stderr, /1 test across 1 host \(the rerun of 1 test\(s\) of ".*report\.json"\)/);

  await Deno.writeTextFile(join(host.dir, "fixed"), "");
  const rerun = await run("run", "--rerun-failed", out, "--out", out);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stderr, /rerunning 1 test\(s\) of ".*report\.json"/);
  assert.match(rerun.stderr, /removed the evidence of an earlier run in .*reports: .*streams\//);
  await assert.rejects(Deno.stat(join(out, "streams")), Deno.errors.NotFound, "no stale evidence is left");
  const after = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  assert.deepEqual(after.results.map((r) => [r.test, r.status]), [[TEST, "PASS"]]);
});

Deno.test("an interrupted report's unfinished tests are rerun, and the dry run says the report was incomplete", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-rerun-interrupted-" });
  try {
    const report: RunReport = {
      schema: "conformance-report/1",
      run: {
        harness: "0.1.0",
        suite: "x",
        startedAt: "2026-12-01T00:00:00.000Z",
        durationMs: 10,
        os: "linux",
        deno: Deno.version.deno,
        shard: "1/1",
        incomplete: true,
        interrupted: [{ host: "fake", test: "cli/scripted/ordering", started: true }],
        rerunFlags: [],
      },
      hosts: [{ id: "fake", kind: "cli", version: null }],
      results: [],
      summary: { passed: 0, failed: 0, warned: 0, info: 0, skipped: 0, timedOut: 0, errored: 0, flaky: 0 },
    };
    const file = join(dir, "report.json");
    await Deno.writeTextFile(file, JSON.stringify(report));
    const dry = await runHarness(["list", "tests", "--rerun-failed", file]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(dry.stdout, "fake\tcli/scripted/ordering\n");
    assert.match(dry.stderr, /1 of them interrupted before they had a result \(the report is incomplete\)/);
    const rerun = await runHarness(["run", "--rerun-failed", file]);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stdout, /^1 result: 1 passed/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an --out folder outside the write set is named as such, not as a file that cannot be read", async () => {
  const result = await runHarness(["run", "--host", "fake", "--out", "/etc/conformance-reports"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^conformance: --out "\/etc\/conformance-reports" is outside the folders the harness may write \(the working folder and temp: \.\, \/tmp, \/var\/folders\): pick a folder there, e\.g\. --out reports\n$/,
  );
});
