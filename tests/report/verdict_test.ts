/**
 * Each result's standing against its expectation, said in the JSON report (issue: a reader saw
 * `"expected": "PASS"` beside `"status": "SKIP"` and took it for a mismatch): `verdict`, `matched`, `why`, the
 * expectation's reason, and the summary's counts and run verdict.
 */
import assert from "node:assert/strict";
import { serializeReport } from "../../src/report/json.ts";
import { judge, verdictCounts } from "../../src/report/verdict.ts";
import { mixedReport, report, result } from "./_fixtures.ts";

Deno.test("judge says how each status stands against what is listed", () => {
  const cases = [
    [{ status: "PASS", expected: "PASS" }, "as-expected", true, /nothing is listed/],
    [{ status: "SKIP", expected: "PASS" }, "as-expected", true, /could not apply here, which fails nothing/],
    [{ status: "WARN", expected: "PASS" }, "as-expected", true, /a SHOULD broken fails nothing/],
    [{ status: "INFO", expected: "FAIL" }, "as-expected", true, /never unexpected/],
    [{ status: "FAIL", expected: "FAIL" }, "known", true, /listed in the host's expectations/],
    [{ status: "SKIP", expected: "FAIL" }, "as-expected", true, /says nothing either way/],
    [{ status: "FAIL", expected: "PASS" }, "unexpected", false, /^FAIL where PASS is expected/],
    [{ status: "TIMEOUT", expected: "FAIL" }, "unexpected", false, /^TIMEOUT where FAIL is listed$/],
    [{ status: "PASS", expected: "FAIL" }, "stale", false, /the entry is stale/],
    [
      { status: "PASS", expected: "PASS", expectedAny: ["PASS", "TIMEOUT"] },
      "as-expected",
      true,
      /PASS is among PASS or TIMEOUT/,
    ],
    [
      { status: "TIMEOUT", expected: "PASS", expectedAny: ["PASS", "TIMEOUT"] },
      "known",
      true,
      /listed/,
    ],
  ] as const;
  for (const [input, verdict, matched, why] of cases) {
    const got = judge(input as Parameters<typeof judge>[0]);
    assert.equal(got.verdict, verdict, JSON.stringify(input));
    assert.equal(got.matched, matched, JSON.stringify(input));
    assert.match(got.why, why, JSON.stringify(input));
  }
});

Deno.test("the JSON report writes each result's verdict, why, and the expectation's reason", () => {
  const written = JSON.parse(serializeReport(report([
    result("gemini", "cli/behavior/streaming", "SKIP", { message: "live tier off" }),
    result("gemini", "cli/mock-model/fault-http-500", "TIMEOUT", {
      expected: "TIMEOUT",
      details: { expectationReason: "retries with backoff" },
    }),
    result("gemini", "cli/behavior/resume", "FAIL", { message: "exit code 3, expected 0" }),
  ])));
  const [skip, known, failed] = written.results;
  assert.deepEqual([skip.verdict, skip.matched], ["as-expected", true]);
  assert.match(skip.why, /^SKIP where PASS is expected/);
  assert.deepEqual([known.verdict, known.matched, known.expectationReason], [
    "known",
    true,
    "retries with backoff",
  ]);
  assert.deepEqual([failed.verdict, failed.matched], ["unexpected", false]);
  // The standing comes right after what was expected, before the message and details.
  assert.deepEqual(Object.keys(known).slice(0, 8), [
    "host",
    "test",
    "status",
    "expected",
    "verdict",
    "matched",
    "why",
    "expectationReason",
  ]);
  assert.deepEqual(
    [written.summary.unexpected, written.summary.stale, written.summary.known, written.summary.verdict],
    [1, 0, 1, "fail"],
  );
});

Deno.test("the run's verdict: fail on an unexpected or stale result, else incomplete when interrupted", () => {
  const mixed = mixedReport();
  assert.deepEqual(verdictCounts(mixed.results), { unexpected: 3, stale: 1, known: 1, verdict: "fail" });
  const clean = [result("fake", "a", "PASS"), result("fake", "b", "SKIP")];
  assert.equal(verdictCounts(clean).verdict, "pass");
  assert.equal(verdictCounts(clean, true).verdict, "incomplete");
  const base = report(clean);
  const interrupted = JSON.parse(serializeReport({ ...base, run: { ...base.run, incomplete: true } }));
  assert.equal(interrupted.summary.verdict, "incomplete");
});
