import assert from "node:assert/strict";
import { diffReports, isEmptyDiff, renderDiffMarkdown } from "../../src/report/diff.ts";
import { mixedReport, report, result } from "./_fixtures.ts";

function pair() {
  const before = report([
    result("codex", "cli/a", "PASS"),
    result("codex", "cli/b", "FAIL", { message: "broken" }),
    result("codex", "cli/c", "SKIP", { message: "binary absent" }),
    result("codex", "cli/d", "PASS"),
    result("codex", "cli/gone", "PASS"),
    result("old-host", "cli/a", "PASS"),
  ]);
  const after = report([
    result("codex", "cli/a", "TIMEOUT", { message: "no terminal event" }),
    result("codex", "cli/b", "PASS"),
    result("codex", "cli/c", "PASS"),
    result("codex", "cli/d", "PASS"),
    result("codex", "cli/new", "WARN", { message: "no usage event" }),
    result("gemini", "cli/a", "PASS"),
  ], { suite: "2026.12.01" });
  return { before, after };
}

Deno.test("diffReports sorts changes into new failures, fixes, other changes, added and removed", () => {
  const { before, after } = pair();
  const diff = diffReports(before, after);
  assert.deepEqual(diff.newFailures, [
    { host: "codex", test: "cli/a", from: "PASS", to: "TIMEOUT", message: "no terminal event" },
  ]);
  assert.deepEqual(diff.fixed, [{ host: "codex", test: "cli/b", from: "FAIL", to: "PASS", message: "" }]);
  assert.deepEqual(diff.changed, [{ host: "codex", test: "cli/c", from: "SKIP", to: "PASS", message: "" }]);
  assert.deepEqual(diff.added.map((r) => `${r.host} ${r.test}`), ["codex cli/new", "gemini cli/a"]);
  assert.deepEqual(diff.removed.map((r) => `${r.host} ${r.test}`), ["codex cli/gone", "old-host cli/a"]);
  assert.deepEqual(diff.addedHosts, ["gemini"]);
  assert.deepEqual(diff.removedHosts, ["old-host"]);
  assert.equal(isEmptyDiff(diff), false);
});

Deno.test("a failure that changes kind is a status change, not a new failure", () => {
  const before = report([result("codex", "cli/a", "FAIL")]);
  const after = report([result("codex", "cli/a", "TIMEOUT")]);
  const diff = diffReports(before, after);
  assert.deepEqual([diff.newFailures.length, diff.fixed.length, diff.changed.length], [0, 0, 1]);
});

Deno.test("the diff renders as markdown sections", () => {
  const { before, after } = pair();
  const text = renderDiffMarkdown(diffReports(before, after));
  assert.match(text, /^## Changes since the previous report$/m);
  assert.match(text, /Suite revision changed from `2026\.11\.30` to `2026\.12\.01`/);
  assert.match(text, /^### New failures \(1\)\n\n\| Host \| Test \| Before \| Now \| Message \|$/m);
  assert.match(text, /^\| codex \| cli\/a \| PASS \| TIMEOUT \| no terminal event \|$/m);
  assert.match(text, /^### Fixed \(1\)$/m);
  assert.match(text, /^### Other status changes \(1\)$/m);
  assert.match(text, /^### Added tests \(2\)\n\n- codex · cli\/new: WARN\n- gemini · cli\/a: PASS$/m);
  assert.match(text, /^### Removed tests \(2\)$/m);
  assert.match(text, /^Hosts added: gemini\.$/m);
  assert.match(text, /^Hosts removed: old\\?-host\.$/m);
});

Deno.test("identical reports have no changes", () => {
  const diff = diffReports(mixedReport(), mixedReport());
  assert.equal(isEmptyDiff(diff), true);
  assert.match(renderDiffMarkdown(diff), /^No changes\.$/m);
});

Deno.test("the diff escapes and redacts messages", () => {
  const before = report([result("codex", "cli/a", "PASS")]);
  const after = report([result("codex", "cli/a", "FAIL", { message: "a | b <i> Bearer abcdef123456" })]);
  assert.match(
    renderDiffMarkdown(diffReports(before, after)),
    /\| a \\\| b &lt;i&gt; Bearer \\\[REDACTED\\\] \|$/m,
  );
});
