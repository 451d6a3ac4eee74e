/**
 * A run interrupted mid-test reports the tests it stopped as interrupted: never as the host's FAIL, ERROR or
 * TIMEOUT (a CLI test "stopped: expected wall, got abort", an apps test "The suite stopped", a mock-model fault
 * run "still running"), never matched against an expectation, and every report format written on SIGINT says
 * so: `run.interrupted` in report.json, `<skipped type="INTERRUPTED">` and `run.incomplete` in junit.xml, the
 * board's and report.html's interrupted list.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { shimPath } from "../../hosts/installed.ts";
import { detectBinary } from "../../hosts/installed.ts";
import { parseReport, type RunReport } from "../../src/report/schema.ts";
import { describeSurvivors, spawnHarness } from "./_harness.ts";
import {
  BLAMING,
  interrupt,
  INTERRUPTED,
  STOP_HANG_MS,
  waitForProcess,
  waitForResults,
} from "./_interrupt.ts";

const dir = Deno.makeTempDirSync({ prefix: "conformance-interrupt-results-" });
const FORMATS = ["json", "junit", "markdown", "html"].flatMap((name) => ["--reporter", name]);

/** The report of an interrupted run, checked for what every interrupted run must show. */
async function interruptedReport(
  out: string,
  stopMs: number,
  code: number,
  stderr: string,
): Promise<RunReport> {
  assert.equal(code, INTERRUPTED, `stderr: ${stderr.slice(0, 2000)}`);
  assert.ok(stopMs < STOP_HANG_MS, `the harness took ${Math.round(stopMs)} ms to exit after SIGINT: a hang`);
  const report = parseReport(await Deno.readTextFile(`${out}/report.json`), `${out}/report.json`);
  assert.equal(report.run.incomplete, true, "report.json is not marked incomplete");
  const blamed = report.results.filter((result) => BLAMING.has(result.status));
  assert.deepEqual(
    blamed.map(({ test, status, message }) => `${status} ${test}: ${message.slice(0, 120)}`),
    [],
    "the interrupt was blamed on the host",
  );
  const interrupted = report.run.interrupted ?? [];
  assert.ok(interrupted.some((test) => test.started), "no test is listed as stopped while it ran");
  const reported = new Set(report.results.map((result) => `${result.host} ${result.test}`));
  for (const test of interrupted) {
    assert.ok(!reported.has(`${test.host} ${test.test}`), `${test.test} is both interrupted and reported`);
  }
  const junit = await Deno.readTextFile(`${out}/junit.xml`);
  assert.match(
    junit,
    /<skipped message="interrupted: the run was stopped while this test ran" type="INTERRUPTED"/,
  );
  assert.match(junit, /<property name="run.incomplete" value="true"\/>/);
  assert.match(
    junit,
    /<system-err>INCOMPLETE: the run was interrupted; \d+ test\(s\) of this host have no result/,
  );
  const skipped = [...junit.matchAll(/type="INTERRUPTED"/g)].length;
  assert.equal(skipped, interrupted.length, "junit.xml does not list every interrupted test");
  assert.match(await Deno.readTextFile(`${out}/board.md`), /\*\*incomplete run: results are missing\*\*/);
  const html = await Deno.readTextFile(`${out}/report.html`);
  assert.match(html, /<details class="interrupted"><summary><span class="bad">interrupted<\/span>: \d+ test/);
  return report;
}

Deno.test("SIGINT mid-test of the fake tier at --timeout-multiplier 20 blames no host and marks every format", async () => {
  const out = `${dir}/fake`;
  await using harness = spawnHarness([
    "run",
    "--host",
    "fake,fake-minimal",
    "--timeout-multiplier",
    "20",
    ...FORMATS,
    "--out",
    out,
  ]);
  // Some tests have reported; the hanging ones (wall clock, idle, result-then-hang) are still running.
  await waitForResults(out, 1);
  const { exit, stopMs, survivors } = await interrupt(harness);
  await interruptedReport(out, stopMs, exit.code, exit.stderr);
  assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
});

Deno.test("SIGINT mid-suite of the reference host blames no host and the board names the interrupted tests", async () => {
  const out = `${dir}/reference`;
  await using harness = spawnHarness(["run", "--host", "reference", ...FORMATS, "--out", out]);
  await waitForResults(out, 1);
  const { exit, stopMs, survivors } = await interrupt(harness);
  const report = await interruptedReport(out, stopMs, exit.code, exit.stderr);
  const board = await Deno.readTextFile(`${out}/board.md`);
  const count = report.run.interrupted!.length;
  assert.match(board, new RegExp(`\\*\\*Interrupted:\\*\\* ${count} test\\(s\\) have no result`));
  assert.match(board, /\(running\)/);
  assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
});

const CLAUDE = await detectBinary("claude-code", "claude").catch(() => null);

Deno.test({
  name: "SIGINT mid-run of the mock-model tier gives no TIMEOUT, ERROR or FAIL for the runs it stopped",
  ignore: CLAUDE === null,
  fn: async () => {
    const out = `${dir}/mock-model`;
    await using harness = spawnHarness([
      "run",
      "--host",
      "claude-code",
      "--mock-model",
      "--tier",
      "mock-model",
      ...FORMATS,
      "--out",
      out,
    ], { env: { PATH: `${dirname(shimPath("claude"))}:${Deno.env.get("PATH") ?? ""}` } });
    // The CLI has started against the mock model (its fault runs retry for up to a minute): runs are in flight.
    await waitForProcess(harness, /claude/, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { exit, stopMs, survivors } = await interrupt(harness);
    await interruptedReport(out, stopMs, exit.code, exit.stderr);
    assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
  },
});

Deno.test({
  name: "interrupt results: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
