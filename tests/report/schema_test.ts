import assert from "node:assert/strict";
import { ReportError } from "../../src/report/report_error.ts";
import { parseReport } from "../../src/report/schema.ts";
import { mixedReport } from "./_fixtures.ts";

function parseError(text: string): ReportError {
  try {
    parseReport(text, "dir/bad.json");
  } catch (error) {
    assert.ok(error instanceof ReportError, `expected a ReportError, got ${error}`);
    assert.ok(!error.message.includes("\n"), `message is one line: ${error.message}`);
    assert.ok(error.message.includes('"dir/bad.json"'), `message names the file: ${error.message}`);
    assert.equal(error.exitCode, 2);
    return error;
  }
  assert.fail("parseReport accepted a bad report");
}

Deno.test("parseReport reads back a valid report unchanged", () => {
  const report = mixedReport();
  report.run.incomplete = true;
  report.run.command = "conformance run --host fake";
  assert.deepEqual(parseReport(JSON.stringify(report), "r.json"), report);
});

Deno.test("parseReport reads a report written before INFO existed, without the info count, as 0", () => {
  const report = mixedReport();
  report.results = report.results.filter((result) => result.status !== "INFO");
  const value = JSON.parse(JSON.stringify(report));
  delete value.summary.info;
  assert.equal(parseReport(JSON.stringify(value), "old.json").summary.info, 0);
  value.summary.info = 1;
  assert.match(parseError(JSON.stringify(value)).message, /summary says info=1 but its results give 0/);
});

Deno.test("parseReport rejects text that is not JSON", () => {
  assert.match(parseError("{ not json").message, /is not valid JSON/);
});

Deno.test("parseReport rejects another schema and says which", () => {
  const report = { ...mixedReport(), schema: "conformance-report/2" };
  assert.match(parseError(JSON.stringify(report)).message, /schema "conformance-report\/2", expected/);
});

Deno.test("parseReport points at the bad field", () => {
  const report = mixedReport();
  (report.results[3] as { status: string }).status = "BROKEN";
  assert.match(parseError(JSON.stringify(report)).message, /at results\[3\]\.status/);
  const noSuite = mixedReport() as unknown as { run: Record<string, unknown> };
  delete noSuite.run.suite;
  assert.match(parseError(JSON.stringify(noSuite)).message, /at run\.suite/);
  const badShard = mixedReport();
  badShard.run.shard = "0/3";
  assert.match(parseError(JSON.stringify(badShard)).message, /at run\.shard/);
});

Deno.test("parseReport rejects a summary that disagrees with the results", () => {
  const report = mixedReport();
  report.summary.passed += 1;
  assert.match(parseError(JSON.stringify(report)).message, /summary says passed=3 but its results give 2/);
});

Deno.test("parseReport rejects a result for a host that is not listed", () => {
  const report = mixedReport();
  report.hosts = report.hosts.filter((host) => host.id !== "codex");
  assert.match(parseError(JSON.stringify(report)).message, /host "codex" that is not in its hosts list/);
});

Deno.test("parseReport rejects null and arrays", () => {
  assert.match(parseError("null").message, /invalid/);
  assert.match(parseError("[]").message, /schema/);
});

Deno.test("parseReport: a report from before --retries has no flaky count (read as 0); flaky results round-trip", () => {
  const old = JSON.parse(JSON.stringify(mixedReport()));
  delete old.summary.flaky;
  assert.equal(parseReport(JSON.stringify(old), "old.json").summary.flaky, 0);

  const report = mixedReport();
  report.results[0] = { ...report.results[0]!, flaky: true, attempts: 2 };
  report.summary.flaky = 1;
  assert.deepEqual(parseReport(JSON.stringify(report), "r.json"), report);
  const edited = { ...report, summary: { ...report.summary, flaky: 0 } };
  assert.match(parseError(JSON.stringify(edited)).message, /summary says flaky=0 but its results give 1/);
  const once = { ...report, results: [{ ...report.results[0]!, attempts: 1 }, ...report.results.slice(1)] };
  assert.match(parseError(JSON.stringify(once)).message, /results\[0\]\.attempts/);
});
