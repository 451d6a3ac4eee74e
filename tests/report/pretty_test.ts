import assert from "node:assert/strict";
import { PrettyReporter } from "../../src/report/pretty.ts";
import { collector, mixedReport, result } from "./_fixtures.ts";

const ESC = "\x1b";

function run(options: { isTTY: boolean; color: boolean; columns?: number }) {
  const out = collector();
  const reporter = new PrettyReporter({ out, secrets: [], ...options });
  const report = mixedReport();
  reporter.start({ run: { ...report.run }, hosts: report.hosts, total: report.results.length });
  for (const r of report.results) {
    reporter.testStarted(r.host, r.test);
    reporter.result(r);
  }
  return { out, reporter, report };
}

Deno.test("without a terminal: one plain line per result, then attention list and summary", async () => {
  const { out, reporter, report } = run({ isTTY: false, color: false });
  await reporter.finish(report);
  const text = out.text();
  assert.ok(!text.includes(ESC), "no escape codes at all");
  assert.ok(!text.includes("\r"));
  const lines = text.split("\n");
  assert.equal(lines.filter((line) => / (claude-code|codex|fake) +cli\//.test(line)).length, 11 + 4);
  assert.match(lines[0]!, /^✓ PASS +claude-code +cli\/behavior\/plain +10ms$/);
  assert.match(
    text,
    /^✗ FAIL +claude-code +cli\/scripted\/ordering +10ms +tool_result before tool_call +\[UNEXPECTED\]$/m,
  );
  assert.match(text, /^✗ FAIL +codex +cli\/scripted\/retry .*known: retries silently \(known failure\)$/m);
  assert.match(
    text,
    /^✓ PASS +fake +cli\/behavior\/plain .* \[STALE expectation: listed as FAIL\] remove it/m,
  );
  assert.match(text, /^! WARN +claude-code +cli\/scripted\/retry .*no retry event$/m);
  assert.match(
    text,
    /^i INFO +claude-code +cli\/scripted\/optional .*the optional behaviour is not offered$/m,
  );
  assert.doesNotMatch(text.split("Needs attention:")[1]!, /INFO/, "an INFO never needs attention");
  assert.match(text, /^– SKIP +codex .*binary absent$/m);
  assert.match(text, /\nNeeds attention:\n/);
  assert.equal(
    lines.at(-2),
    "11 results: 2 passed, 2 failed, 1 warned, 1 info, 3 skipped, 1 timed out, 1 errored · " +
      "3 unexpected, 1 stale expectation · 1.2s",
  );
  assert.equal(lines.at(-3), "3 skipped: 2 × images unsupported; 1 × binary absent", "SKIPs by reason");
});

Deno.test("on a terminal: a live progress line rewritten in place, with counts and the running test", async () => {
  const out = collector();
  const reporter = new PrettyReporter({ out, isTTY: true, color: false, columns: 80, secrets: [] });
  const report = mixedReport();
  reporter.start({ run: { ...report.run }, hosts: report.hosts, total: 10 });
  reporter.testStarted("claude-code", "cli/behavior/plain");
  assert.ok(out.text().endsWith("\r\x1b[2K[0/10] ✓0 ✗0 !0 i0 –0  claude-code › cli/behavior/plain"));
  reporter.result(report.results[0]!);
  assert.ok(out.text().endsWith("\r\x1b[2K[1/10] ✓1 ✗0 !0 i0 –0"), "a passing result only updates the line");
  assert.ok(!out.text().includes("\n"));
  reporter.testStarted("claude-code", "cli/scripted/ordering");
  reporter.result(report.results[1]!);
  const text = out.text();
  assert.ok(
    text.includes("\r\x1b[2K✗ FAIL    claude-code  cli/scripted/ordering  10ms"),
    "the line is cleared first",
  );
  assert.ok(
    text.endsWith("[UNEXPECTED]\n\r\x1b[2K[2/10] ✓1 ✗1 !0 i0 –0"),
    "then the progress line is redrawn",
  );
  reporter.result(report.results[3]!);
  assert.equal(report.results[3]!.status, "INFO");
  assert.ok(out.text().endsWith("\r\x1b[2K[3/10] ✓1 ✗1 !0 i1 –0"), "an INFO is counted, not printed as news");
  reporter.testStarted(
    "codex",
    "cli/scripted/a-very-long-test-name-that-goes-on-and-on-and-on-and-on-and-on",
  );
  const last = out.text().split("\r\x1b[2K").at(-1)!;
  assert.ok(last.length <= 79, `the progress line fits the terminal: ${JSON.stringify(last)}`);
  assert.ok(last.endsWith("…"));
  await reporter.finish(report);
  assert.ok(
    out.text().includes("\r\x1b[2K\nNeeds attention:"),
    "the progress line is cleared before the end",
  );
});

Deno.test("colour only when asked, and then unexpected results stand out", async () => {
  const { out, reporter, report } = run({ isTTY: false, color: true });
  await reporter.finish(report);
  const text = out.text();
  assert.ok(text.includes(`${ESC}[32m✓ PASS   ${ESC}[39m`));
  assert.ok(text.includes(`${ESC}[1m${ESC}[31m${ESC}[7m UNEXPECTED ${ESC}[27m${ESC}[39m${ESC}[22m`));
  assert.ok(text.includes(`${ESC}[7m STALE expectation: listed as FAIL ${ESC}[27m`));
});

Deno.test("pretty output is redacted and keeps one line per result", () => {
  const out = collector();
  const reporter = new PrettyReporter({ out, isTTY: false, color: false, secrets: ["my-own-secret-1"] });
  const report = mixedReport();
  reporter.start({ run: { ...report.run }, hosts: report.hosts, total: 1 });
  reporter.result(
    result("codex", "cli/a", "FAIL", { message: "sk-ant-abcdefghijk0123 my-own-secret-1\nsecond line" }),
  );
  assert.equal(out.text().split("\n").length, 2);
  assert.match(out.text(), /\[REDACTED\] \[REDACTED\] +\[UNEXPECTED\]/);
  assert.ok(!out.text().includes("second line"));
});

Deno.test("an interrupted run says so in the summary", () => {
  const { reporter, report } = run({ isTTY: false, color: false });
  report.run.incomplete = true;
  assert.match(reporter.summaryLine(report), / · INCOMPLETE run · /);
});

Deno.test("on a terminal too, the closing lines group the SKIPs by reason", async () => {
  const { out, reporter, report } = run({ isTTY: true, color: false, columns: 80 });
  await reporter.finish(report);
  const lines = out.text().split("\n");
  assert.equal(lines.at(-3), "3 skipped: 2 × images unsupported; 1 × binary absent");
  assert.match(lines.at(-2)!, /^11 results: /);
});
