import assert from "node:assert/strict";
import { formatSkipGroups, groupSkips, skipReason } from "../../src/report/skip_reasons.ts";

Deno.test("skipReason: the message's head, without its test-specific asides", () => {
  const cases: [string, string][] = [
    ['binary absent: "claude" is not installed (deno task hosts:install), not on PATH', "binary absent"],
    ["live tier off: a real host calls its model; run with --live", "live tier off"],
    ['golden path "resume" unsupported by codex: no builder', 'golden path "resume" unsupported by codex'],
    ["The host sent no hostContext (see context/initialize-hostcontext)", "The host sent no hostContext"],
    ["The View is already at its maximum height (480px (max))", "The View is already at its maximum height"],
    ['binary "claude" not found on PATH', 'binary "claude" not found on PATH'],
    ["Ends with a full stop.\nsecond line: ignored", "Ends with a full stop"],
    ["", "no reason given"],
  ];
  for (const [message, reason] of cases) assert.equal(skipReason(message), reason, message);
});

Deno.test("groupSkips: counts per reason, most frequent first, other statuses ignored", () => {
  const skip = (message: string) => ({ status: "SKIP" as const, message });
  const groups = groupSkips([
    skip("live tier off: run with --live"),
    skip('binary absent: "claude" is not installed'),
    { status: "FAIL", message: "binary absent: not a skip" },
    skip('binary absent: "claude" is not installed'),
    skip("live tier off: run with --live"),
    skip('binary absent: "codex" is not installed'),
  ]);
  assert.deepEqual(groups, [{ reason: "binary absent", count: 3 }, { reason: "live tier off", count: 2 }]);
  assert.equal(formatSkipGroups(groups), "5 skipped: 3 × binary absent; 2 × live tier off");
  assert.equal(formatSkipGroups([]), null);
});

Deno.test("formatSkipGroups: past the limit, the rarest reasons share one clause", () => {
  const groups = ["a", "b", "c", "d"].map((reason, i) => ({ reason, count: 4 - i }));
  assert.equal(formatSkipGroups(groups, 3), "10 skipped: 4 × a; 3 × b; 3 × 2 other reasons");
  assert.equal(formatSkipGroups(groups, 4), "10 skipped: 4 × a; 3 × b; 2 × c; 1 × d");
});
