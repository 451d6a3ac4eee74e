/**
 * What changed between two reports: new failures, fixes, other status changes, and tests or hosts that came
 * or went. Backs `conformance board … --diff OLD.json`.
 *
 * @module
 */
import { isFailing, type Status, type TestResult } from "../outcome.ts";
import type { HostChange, ReportDiff, ResultRef, StatusChange } from "./diff_schema.ts";
import { escapeHtml } from "./html.ts";
import { escapeMarkdown } from "./markdown.ts";
import { redact } from "./redact.ts";
import type { RunReport } from "./schema.ts";

export type { HostChange, ReportDiff, ResultRef, StatusChange } from "./diff_schema.ts";

/**
 * Compares two reports, (host, test) by (host, test). Each list is sorted by host, then test.
 *
 * @example
 * ```ts
 * import { diffReports, renderDiffMarkdown } from "./diff.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const before: RunReport, after: RunReport;
 * console.log(renderDiffMarkdown(diffReports(before, after)));
 * ```
 */
export function diffReports(before: RunReport, after: RunReport): ReportDiff {
  const key = (result: TestResult) => `${result.host}\u0000${result.test}`;
  const old = new Map(before.results.map((result) => [key(result), result]));
  const now = new Map(after.results.map((result) => [key(result), result]));
  const oldHosts = new Set(before.hosts.map((host) => host.id));
  const newHosts = new Set(after.hosts.map((host) => host.id));
  const diff: ReportDiff = {
    fromSuite: before.run.suite,
    toSuite: after.run.suite,
    regressions: [],
    newFailures: [],
    fixed: [],
    changed: [],
    added: [],
    removed: [],
    addedHosts: hostChanges(after, oldHosts),
    removedHosts: hostChanges(before, newHosts),
  };
  for (const [id, result] of now) {
    const previous = old.get(id);
    if (!previous) {
      if (oldHosts.has(result.host)) diff.added.push(refOf(result));
      continue;
    }
    if (previous.status === result.status) continue;
    const change: StatusChange = {
      host: result.host,
      test: result.test,
      from: previous.status,
      to: result.status,
      message: result.message,
    };
    if (isRegression(change.from, change.to)) diff.regressions.push(change);
    if (isFailing(result.status) && !isFailing(previous.status)) diff.newFailures.push(change);
    else if (result.status === "PASS" && isFailing(previous.status)) diff.fixed.push(change);
    else diff.changed.push(change);
  }
  for (const [id, result] of old) {
    if (!now.has(id) && newHosts.has(result.host)) diff.removed.push(refOf(result));
  }
  const order = (a: { host: string; test: string }, b: { host: string; test: string }) =>
    a.host.localeCompare(b.host) || (a.test < b.test ? -1 : a.test > b.test ? 1 : 0);
  for (
    const list of [diff.regressions, diff.newFailures, diff.fixed, diff.changed, diff.added, diff.removed]
  ) {
    list.sort(order);
  }
  return diff;
}

/**
 * Whether going from `from` to `to` is a regression: the result now fails and did not, or now warns and
 * passed, informed or skipped before.
 *
 * @example
 * ```ts
 * import { isRegression } from "./diff.ts";
 * isRegression("PASS", "WARN"); // true
 * isRegression("FAIL", "TIMEOUT"); // false: it failed before too
 * isRegression("PASS", "SKIP"); // false: a skip says nothing
 * ```
 */
export function isRegression(from: Status, to: Status): boolean {
  if (isFailing(to)) return !isFailing(from);
  return to === "WARN" && (from === "PASS" || from === "INFO" || from === "SKIP");
}

function refOf(result: TestResult): ResultRef {
  return { host: result.host, test: result.test, status: result.status };
}

/** The hosts of `report` not in `others`, one entry each with its result counts. */
function hostChanges(report: RunReport, others: ReadonlySet<string>): HostChange[] {
  return report.hosts.filter((host) => !others.has(host.id)).map((host) => {
    const results = report.results.filter((result) => result.host === host.id);
    return {
      host: host.id,
      results: results.length,
      passed: results.filter((result) => result.status === "PASS").length,
    };
  }).sort((a, b) => a.host.localeCompare(b.host));
}

/**
 * The diff as it goes into the board's JSON output: every message redacted.
 *
 * @param diff From {@linkcode diffReports}.
 * @param secrets Secret values to redact besides the built-in shapes.
 */
export function redactDiff(diff: ReportDiff, secrets: readonly string[] = []): ReportDiff {
  const clean = (list: StatusChange[]) => list.map((c) => ({ ...c, message: redact(c.message, secrets) }));
  return {
    ...diff,
    regressions: clean(diff.regressions),
    newFailures: clean(diff.newFailures),
    fixed: clean(diff.fixed),
    changed: clean(diff.changed),
  };
}

/** Whether anything changed at all. */
export function isEmptyDiff(diff: ReportDiff): boolean {
  return diff.newFailures.length + diff.fixed.length + diff.changed.length + diff.added.length +
      diff.removed.length + diff.addedHosts.length + diff.removedHosts.length === 0;
}

/**
 * Renders a diff as a markdown section ("## Changes since …").
 *
 * @param diff From {@linkcode diffReports}.
 * @param secrets Secret values to redact besides the built-in shapes.
 */
export function renderDiffMarkdown(diff: ReportDiff, secrets: readonly string[] = []): string {
  const lines = [`## Changes since the previous report`, ""];
  if (diff.fromSuite !== diff.toSuite) {
    lines.push(
      `Suite revision changed from \`${diff.fromSuite}\` to \`${diff.toSuite}\`: added and removed tests ` +
        "may come from that.",
      "",
    );
  }
  if (isEmptyDiff(diff)) {
    lines.push("No changes.", "");
    return lines.join("\n");
  }
  const cell = (text: string) => escapeMarkdown(redact(text, secrets));
  lines.push(regressionLine(diff, cell), "");
  const changes = (title: string, list: StatusChange[]) => {
    if (list.length === 0) return;
    lines.push(
      `### ${title} (${list.length})`,
      "",
      "| Host | Test | Before | Now | Message |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const c of list) {
      lines.push(`| ${cell(c.host)} | ${cell(c.test)} | ${c.from} | ${c.to} | ${cell(c.message)} |`);
    }
    lines.push("");
  };
  const results = (title: string, list: ResultRef[]) => {
    if (list.length === 0) return;
    lines.push(`### ${title} (${list.length})`, "");
    for (const r of list) lines.push(`- ${cell(r.host)} · ${cell(r.test)}: ${r.status}`);
    lines.push("");
  };
  changes("New failures", diff.newFailures);
  changes("Fixed", diff.fixed);
  changes("Other status changes", diff.changed);
  results("Added tests", diff.added);
  results("Removed tests", diff.removed);
  for (const host of diff.addedHosts) lines.push(`- Host added: ${hostLine(host, cell)}`);
  for (const host of diff.removedHosts) lines.push(`- Host removed: ${hostLine(host, cell)}`);
  if (diff.addedHosts.length + diff.removedHosts.length > 0) lines.push("");
  return lines.join("\n");
}

/** One line for a host that came or went: its id and how its results went. */
function hostLine(host: HostChange, text: (value: string) => string): string {
  return `${text(host.host)} (${plural(host.results, "result")}, ${host.passed} passed)`;
}

/** The verdict line: how many results got worse, with the first few named. */
function regressionLine(diff: ReportDiff, text: (value: string) => string): string {
  const count = diff.regressions.length;
  if (count === 0) return "No regressions: no result got worse.";
  const named = diff.regressions.slice(0, 3).map((c) =>
    `${text(c.host)} · ${text(c.test)} ${c.from} → ${c.to}`
  );
  return `**${plural(count, "regression")}** (a result got worse): ${named.join("; ")}${
    count > named.length ? "; …" : ""
  }.`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Renders a diff as an HTML section for the board's HTML output: the same lists as
 * {@linkcode renderDiffMarkdown}, escaped and redacted, with no script or style of its own.
 *
 * @param diff From {@linkcode diffReports}.
 * @param secrets Secret values to redact besides the built-in shapes.
 */
export function renderDiffHtml(diff: ReportDiff, secrets: readonly string[] = []): string {
  const text = (value: string) => escapeHtml(redact(value, secrets));
  const out = ['<section id="diff"><h2>Changes since the previous report</h2>'];
  if (diff.fromSuite !== diff.toSuite) {
    out.push(
      `<p>Suite revision changed from <code>${text(diff.fromSuite)}</code> to <code>${
        text(diff.toSuite)
      }</code>: added and removed tests may come from that.</p>`,
    );
  }
  if (isEmptyDiff(diff)) {
    out.push("<p>No changes.</p></section>");
    return out.join("\n");
  }
  out.push(
    `<p id="regressions">${
      diff.regressions.length === 0
        ? "No regressions: no result got worse."
        : `<strong>${plural(diff.regressions.length, "regression")}</strong> (a result got worse).`
    }</p>`,
  );
  const changes = (title: string, list: StatusChange[]) => {
    if (list.length === 0) return;
    out.push(
      `<h3>${title} (${list.length})</h3>`,
      "<table><thead><tr><th>Host</th><th>Test</th><th>Before</th><th>Now</th><th>Message</th></tr></thead>" +
        "<tbody>",
    );
    for (const c of list) {
      out.push(
        `<tr><td>${text(c.host)}</td><td><code>${
          text(c.test)
        }</code></td><td class="${c.from}">${c.from}</td>` +
          `<td class="${c.to}">${c.to}</td><td>${text(c.message)}</td></tr>`,
      );
    }
    out.push("</tbody></table>");
  };
  const results = (title: string, list: ResultRef[]) => {
    if (list.length === 0) return;
    out.push(`<h3>${title} (${list.length})</h3><ul>`);
    for (const r of list) out.push(`<li>${text(r.host)} · <code>${text(r.test)}</code>: ${r.status}</li>`);
    out.push("</ul>");
  };
  changes("New failures", diff.newFailures);
  changes("Fixed", diff.fixed);
  changes("Other status changes", diff.changed);
  results("Added tests", diff.added);
  results("Removed tests", diff.removed);
  if (diff.addedHosts.length + diff.removedHosts.length > 0) {
    out.push("<ul>");
    for (const host of diff.addedHosts) out.push(`<li>Host added: ${hostLine(host, text)}</li>`);
    for (const host of diff.removedHosts) out.push(`<li>Host removed: ${hostLine(host, text)}</li>`);
    out.push("</ul>");
  }
  out.push("</section>");
  return out.join("\n");
}
