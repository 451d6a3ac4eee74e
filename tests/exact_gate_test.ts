/**
 * The end-to-end gates' exact comparison (tests/_exact.ts): a PASS that becomes a SKIP or a WARN is a mismatch,
 * though the run's own rule (`compare`) counts both as expected.
 */
import assert from "node:assert/strict";
import { compare, type Outcome } from "../src/outcome.ts";
import { exactMismatches } from "./_exact.ts";

const nothingListed = () => undefined;

Deno.test("PASS→SKIP and PASS→WARN fail the exact gate though compare() calls them expected", () => {
  for (const status of ["SKIP", "WARN"] as const) {
    assert.equal(compare({ status, expected: "PASS" }), "expected", "the run's rule lets it through");
    const outcomes = new Map<string, Outcome>([["apps/x/y", { status, message: "the host did not answer" }]]);
    assert.deepEqual(exactMismatches({ outcomes, listed: nothingListed }), [
      `apps/x/y: ${status} (the host did not answer), expected PASS`,
    ]);
  }
});

Deno.test("a listed status, or a table row with its words, is expected; nothing else is", () => {
  const outcomes = new Map<string, Outcome>([
    ["known", { status: "FAIL", message: "no CSP applies" }],
    ["flaky", { status: "TIMEOUT", message: "slow first token" }],
    ["skipped", { status: "SKIP", message: 'The host does not support "cancelTool"' }],
    ["worded-wrong", { status: "SKIP", message: "another reason" }],
    ["silent", { status: "FAIL" }],
    ["passes", { status: "PASS" }],
  ]);
  const listed = (test: string) =>
    test === "known" || test === "silent"
      ? { statuses: ["FAIL"] as const, reason: "listed" }
      : test === "flaky"
      ? { statuses: ["PASS", "TIMEOUT"] as const }
      : undefined;
  const wrong = exactMismatches({
    outcomes,
    listed,
    table: {
      skipped: { status: "SKIP", because: '"cancelTool"' },
      "worded-wrong": { status: "SKIP", because: '"cancelTool"' },
      "not-run": { status: "INFO", because: "anything" },
    },
  });
  assert.deepEqual(wrong, [
    'worded-wrong: SKIP (another reason): the gate expects its message to say ""cancelTool""',
    "silent: FAIL without a reason",
    "not-run: in the gate's table but it did not run",
  ]);
});

Deno.test("a listed failure that passes is a mismatch (a stale expectation)", () => {
  const wrong = exactMismatches({
    outcomes: new Map([["t", { status: "PASS" }]]),
    listed: () => ({ statuses: ["FAIL"], reason: "was broken" }),
  });
  assert.deepEqual(wrong, ["t: PASS, expected FAIL: was broken"]);
});
