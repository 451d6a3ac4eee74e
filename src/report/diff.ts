/**
 * What changed between two reports: new failures, fixes, other status changes, and tests or hosts that came
 * or went. Backs `conformance board … --diff OLD.json`.
 *
 * @module
 */
import { isFailing, type Status, type TestResult } from "../outcome.ts";
import { escapeMarkdown } from "./markdown.ts";
import { redact } from "./redact.ts";
import type { RunReport } from "./schema.ts";

/** One (host, test) whose status changed. */
export interface StatusChange {
  /** Host id. */
  host: string;
  /** Test id. */
  test: string;
  /** Status in the old report. */
  from: Status;
  /** Status in the new report. */
  to: Status;
  /** The new result's message. */
  message: string;
}

/** The differences between an old and a new report. */
export interface ReportDiff {
  /** Suite revision of the old report. */
  fromSuite: string;
  /** Suite revision of the new report. */
  toSuite: string;
  /** Now FAIL, TIMEOUT or ERROR; before anything else. */
  newFailures: StatusChange[];
  /** Now PASS; before FAIL, TIMEOUT or ERROR. */
  fixed: StatusChange[];
  /** Every other status change (e.g. PASS → WARN, SKIP → INFO, SKIP → PASS, FAIL → TIMEOUT). */
  changed: StatusChange[];
  /** Results only in the new report. */
  added: TestResult[];
  /** Results only in the old report. */
  removed: TestResult[];
  /** Hosts only in the new report. */
  addedHosts: string[];
  /** Hosts only in the old report. */
  removedHosts: string[];
}

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
  const diff: ReportDiff = {
    fromSuite: before.run.suite,
    toSuite: after.run.suite,
    newFailures: [],
    fixed: [],
    changed: [],
    added: [],
    removed: [],
    addedHosts: after.hosts.filter((h) => !before.hosts.some((o) => o.id === h.id)).map((h) => h.id),
    removedHosts: before.hosts.filter((h) => !after.hosts.some((n) => n.id === h.id)).map((h) => h.id),
  };
  for (const [id, result] of now) {
    const previous = old.get(id);
    if (!previous) {
      diff.added.push(result);
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
    if (isFailing(result.status) && !isFailing(previous.status)) diff.newFailures.push(change);
    else if (result.status === "PASS" && isFailing(previous.status)) diff.fixed.push(change);
    else diff.changed.push(change);
  }
  for (const [id, result] of old) if (!now.has(id)) diff.removed.push(result);
  const order = (a: { host: string; test: string }, b: { host: string; test: string }) =>
    a.host.localeCompare(b.host) || (a.test < b.test ? -1 : a.test > b.test ? 1 : 0);
  for (const list of [diff.newFailures, diff.fixed, diff.changed, diff.added, diff.removed]) list.sort(order);
  return diff;
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
  const results = (title: string, list: TestResult[]) => {
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
  if (diff.addedHosts.length > 0) lines.push(`Hosts added: ${diff.addedHosts.map(cell).join(", ")}.`, "");
  if (diff.removedHosts.length > 0) {
    lines.push(`Hosts removed: ${diff.removedHosts.map(cell).join(", ")}.`, "");
  }
  return lines.join("\n");
}
