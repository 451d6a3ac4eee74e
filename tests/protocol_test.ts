import assert from "node:assert/strict";
import {
  CAPABILITY_KINDS,
  CHANNEL,
  isCapabilityResult,
  outcomeStatusOf,
  runsUnder,
  runTestId,
  severityOf,
  SUITE_STATUSES,
} from "../src/protocol.ts";

Deno.test("outcomeStatusOf maps a failed check by its clause: MUST → FAIL, SHOULD → WARN, MAY → INFO", () => {
  const table = [
    ["PASS", "MUST", "PASS"],
    ["FAIL", "MUST", "FAIL"],
    ["FAIL", "MUST NOT", "FAIL"],
    ["FAIL", "REQUIRED", "FAIL"],
    ["FAIL", undefined, "FAIL"],
    ["FAIL", "SHOULD", "WARN"],
    ["FAIL", "SHOULD NOT", "WARN"],
    // A MAY not taken ran and observed something: INFO, never the "could not apply" of a SKIP.
    ["FAIL", "MAY", "INFO"],
    ["SKIP", "MAY", "SKIP"],
    ["PASS", "MAY", "PASS"],
    ["SKIP", "MUST", "SKIP"],
    ["TIMEOUT", "SHOULD", "TIMEOUT"],
    ["NOTRUN", "MUST", "ERROR"],
  ] as const;
  for (const [status, clause, expected] of table) {
    assert.equal(outcomeStatusOf(clause ? { status, clause } : { status }), expected, `${status} ${clause}`);
  }
  assert.equal(severityOf("MAY"), "info");
  assert.deepEqual([...SUITE_STATUSES], ["PASS", "FAIL", "TIMEOUT", "SKIP", "NOTRUN"]);
});

Deno.test("the channel keeps the upstream name; request kinds are unique", () => {
  assert.equal(CHANNEL, "__mcpConformance");
  assert.equal(new Set(CAPABILITY_KINDS).size, CAPABILITY_KINDS.length);
  for (
    const upstream of [
      "clickTrigger",
      "confirmDialog",
      "checkLinkOpen",
      "conversationContains",
      "toggleTheme",
    ]
  ) {
    assert.ok((CAPABILITY_KINDS as readonly string[]).includes(upstream), upstream);
  }
});

Deno.test("isCapabilityResult accepts answers and rejects junk that crossed frame.evaluate", () => {
  assert.equal(isCapabilityResult({ ok: true, value: 1 }), true);
  assert.equal(isCapabilityResult({ ok: false, unsupported: true }), true);
  assert.equal(isCapabilityResult({ ok: false, error: "x" }), true);
  assert.equal(isCapabilityResult(null), false);
  assert.equal(isCapabilityResult({ ok: "yes" }), false);
  assert.equal(isCapabilityResult({ ok: false, error: 3 }), false);
});

Deno.test("runTestId prefixes apps/ once; runsUnder defaults to run_conformance", () => {
  assert.equal(runTestId("visibility/app-tool-hidden"), "apps/visibility/app-tool-hidden");
  assert.equal(runTestId("apps/visibility/app-tool-hidden"), "apps/visibility/app-tool-hidden");
  assert.equal(runsUnder({}, "run_conformance"), true);
  assert.equal(runsUnder({}, "run_conformance_nocsp"), false);
  assert.equal(runsUnder({ launcher: "run_conformance_nocsp" }, "run_conformance_nocsp"), true);
});
