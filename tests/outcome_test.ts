import assert from "node:assert/strict";
import { compare, fail, info, isFailing, pass, skip, STATUSES, summarize, warn } from "../src/outcome.ts";

Deno.test("compare: failures against a PASS expectation are unexpected; SKIP and WARN are not", () => {
  assert.equal(compare({ status: "PASS", expected: "PASS" }), "expected");
  assert.equal(compare({ status: "FAIL", expected: "PASS" }), "unexpected");
  assert.equal(compare({ status: "TIMEOUT", expected: "PASS" }), "unexpected");
  assert.equal(compare({ status: "ERROR", expected: "PASS" }), "unexpected");
  assert.equal(compare({ status: "SKIP", expected: "PASS" }), "expected");
  assert.equal(compare({ status: "WARN", expected: "PASS" }), "expected");
});

Deno.test("compare: a listed failure that now passes is stale; a different failure is unexpected", () => {
  assert.equal(compare({ status: "PASS", expected: "FAIL" }), "stale");
  assert.equal(compare({ status: "PASS", expected: "TIMEOUT" }), "stale");
  assert.equal(compare({ status: "FAIL", expected: "FAIL" }), "expected");
  assert.equal(compare({ status: "TIMEOUT", expected: "FAIL" }), "unexpected");
  assert.equal(compare({ status: "SKIP", expected: "FAIL" }), "expected");
  // An INFO breaks no obligation: expected whatever is listed, and never the proof that a failure is gone.
  for (const expected of STATUSES) assert.equal(compare({ status: "INFO", expected }), "expected", expected);
  assert.equal(isFailing("INFO"), false);
});

Deno.test("INFO sits after WARN in board order", () => {
  assert.deepEqual([...STATUSES], ["PASS", "FAIL", "WARN", "INFO", "SKIP", "TIMEOUT", "ERROR"]);
});

Deno.test("summarize counts every status into its key", () => {
  const summary = summarize(STATUSES.map((status) => ({ status })).concat([{ status: "PASS" }]));
  assert.deepEqual(summary, {
    passed: 2,
    failed: 1,
    warned: 1,
    info: 1,
    skipped: 1,
    timedOut: 1,
    errored: 1,
    flaky: 0,
  });
});

Deno.test("outcome helpers carry status, message and details", () => {
  assert.deepEqual(pass(), { status: "PASS" });
  assert.deepEqual(fail("boom", { a: 1 }), { status: "FAIL", message: "boom", details: { a: 1 } });
  assert.deepEqual(warn("meh"), { status: "WARN", message: "meh" });
  assert.deepEqual(info("no unsafe-eval", { csp: "x" }), {
    status: "INFO",
    message: "no unsafe-eval",
    details: { csp: "x" },
  });
  assert.deepEqual(skip("binary absent"), { status: "SKIP", message: "binary absent" });
});

Deno.test("summarize counts flaky results apart, and under their status too", () => {
  const summary = summarize([{ status: "PASS", flaky: true }, { status: "PASS" }, { status: "FAIL" }]);
  assert.equal(summary.passed, 2);
  assert.equal(summary.flaky, 1);
  assert.equal(summary.failed, 1);
});
