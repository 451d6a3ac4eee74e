import assert from "node:assert/strict";
import {
  diffReports,
  isEmptyDiff,
  isRegression,
  redactDiff,
  renderDiffHtml,
  renderDiffMarkdown,
} from "../../src/report/diff.ts";
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
  // A host that came or went is one entry, its results not listed among the added or removed tests.
  assert.deepEqual(diff.added, [{ host: "codex", test: "cli/new", status: "WARN" }]);
  assert.deepEqual(diff.removed, [{ host: "codex", test: "cli/gone", status: "PASS" }]);
  assert.deepEqual(diff.addedHosts, [{ host: "gemini", results: 1, passed: 1 }]);
  assert.deepEqual(diff.removedHosts, [{ host: "old-host", results: 1, passed: 1 }]);
  assert.deepEqual(diff.regressions, diff.newFailures);
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
  assert.match(text, /^\*\*1 regression\*\* \(a result got worse\): codex · cli\/a PASS → TIMEOUT\.$/m);
  assert.match(text, /^### Added tests \(1\)\n\n- codex · cli\/new: WARN\n\n/m);
  assert.match(text, /^### Removed tests \(1\)\n\n- codex · cli\/gone: PASS\n\n/m);
  assert.match(
    text,
    /^- Host added: gemini \(1 result, 1 passed\)\n- Host removed: old\\?-host \(1 result, 1 passed\)$/m,
  );
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

Deno.test("a regression is a result that got worse: a new failure, or a new WARN", () => {
  const before = report([
    result("h", "cli/pass-fail", "PASS"),
    result("h", "cli/skip-fail", "SKIP"),
    result("h", "cli/pass-warn", "PASS"),
    result("h", "cli/info-warn", "INFO"),
    result("h", "cli/fail-timeout", "FAIL"),
    result("h", "cli/pass-skip", "PASS"),
    result("h", "cli/warn-pass", "WARN"),
    result("h", "cli/fail-warn", "FAIL"),
  ]);
  const after = report([
    result("h", "cli/pass-fail", "FAIL"),
    result("h", "cli/skip-fail", "ERROR"),
    result("h", "cli/pass-warn", "WARN"),
    result("h", "cli/info-warn", "WARN"),
    result("h", "cli/fail-timeout", "TIMEOUT"),
    result("h", "cli/pass-skip", "SKIP"),
    result("h", "cli/warn-pass", "PASS"),
    result("h", "cli/fail-warn", "WARN"),
    result("h", "cli/new-fail", "FAIL"),
  ]);
  const diff = diffReports(before, after);
  assert.deepEqual(diff.regressions.map((c) => c.test), [
    "cli/info-warn",
    "cli/pass-fail",
    "cli/pass-warn",
    "cli/skip-fail",
  ]);
  assert.equal(isRegression("PASS", "TIMEOUT"), true);
  assert.equal(isRegression("ERROR", "FAIL"), false);
  assert.equal(isRegression("PASS", "INFO"), false);
});

Deno.test("hosts that came or went are one line each, however many results they have", () => {
  const many = (host: string) =>
    Array.from({ length: 40 }, (_, i) => result(host, `cli/t${i}`, i % 4 ? "PASS" : "FAIL"));
  const before = report([result("a", "cli/x", "PASS"), ...many("gone")]);
  const after = report([result("a", "cli/x", "PASS"), ...many("new")]);
  const diff = diffReports(before, after);
  assert.deepEqual([diff.added.length, diff.removed.length, diff.regressions.length], [0, 0, 0]);
  const text = renderDiffMarkdown(diff);
  assert.match(text, /^- Host added: new \(40 results, 30 passed\)$/m);
  assert.match(text, /^- Host removed: gone \(40 results, 30 passed\)$/m);
  assert.doesNotMatch(text, /cli\/t\d/);
  const html = renderDiffHtml(diff);
  assert.match(html, /<li>Host added: new \(40 results, 30 passed\)<\/li>/);
  assert.doesNotMatch(html, /cli\/t\d/);
});

Deno.test("the HTML diff escapes and redacts what hosts wrote", () => {
  const before = report([result("codex", "cli/a", "PASS")]);
  const after = report([
    result("codex", "cli/a", "FAIL", { message: "<img src=x onerror=alert(1)> Bearer abcdef123456" }),
  ]);
  const html = renderDiffHtml(diffReports(before, after));
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt; Bearer \[REDACTED\]/);
  assert.doesNotMatch(html, /<img|abcdef123456/);
  assert.match(html, /<strong>1 regression<\/strong>/);
});

Deno.test("the diff written into a JSON board has its messages redacted", () => {
  const before = report([result("codex", "cli/a", "PASS")]);
  const after = report([
    result("codex", "cli/a", "FAIL", { message: "Bearer abcdef123456 and hunter2-password" }),
  ]);
  const clean = redactDiff(diffReports(before, after), ["hunter2-password"]);
  assert.equal(clean.regressions[0]?.message, "Bearer [REDACTED] and [REDACTED]");
  assert.equal(clean.newFailures[0]?.message, "Bearer [REDACTED] and [REDACTED]");
});
