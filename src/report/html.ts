/**
 * The `html` reporter: `report.html`, one self-contained file (inline style and script, no external resource,
 * a Content-Security-Policy that forbids loading any and runs only the page's own script, by its hash;
 * src/report/html_page.ts). Every value from the report is HTML-escaped; the script embeds no report data.
 *
 * The page is for triage, first screen first: a verdict banner (the run fails on N unexpected results, or all
 * is as expected, or it was interrupted), then the unexpected results and stale expectations, then the known
 * findings, each with its message and what was expected and why (the expectation's reason); then the run's
 * facts, the filters, the board (an unexpected cell outlined; TIMEOUT and ERROR marked apart from FAIL), the
 * capability board when the run checked capabilities, and every result, whose row holds the command that
 * reruns it (src/report/html_result.ts). The results list opens filtered to what needs attention when
 * anything does; `#r<n>` (a board cell, a triage item, a result's own `#` link, or the address) opens that
 * result, widening the filters if they hide it.
 *
 * @module
 */
import { join } from "node:path";
import { compare, STATUSES, type TestResult } from "../outcome.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { boardGrid, type BoardRow, shortVersion, STATUS_MARK } from "./board_grid.ts";
import { ACP_PREFIX, acpBoard } from "./acp_board.ts";
import { capabilityBoard, type CapabilityHalf } from "./capability_board.ts";
import { formatDuration } from "./duration.ts";
import { CSP, escapeHtml, SCRIPT, STYLE } from "./html_page.ts";
import {
  type ArtifactIndex,
  clauseOf,
  indexArtifacts,
  resultRow,
  specTag,
  triageItem,
} from "./html_result.ts";
import { redact, redactResult } from "./redact.ts";
import type { Reporter, ReporterModule, TextSink } from "./reporter.ts";
import { ReportError } from "./report_error.ts";
import type { RunReport } from "./schema.ts";
import { judge, verdictCounts } from "./verdict.ts";

export { escapeHtml } from "./html_page.ts";
export { type ArtifactEntry, type ArtifactIndex, indexArtifacts } from "./html_result.ts";

/** The file name the html reporter writes in the output folder. */
export const HTML_REPORT_FILE = "report.html";

/** Options of {@linkcode renderHtml}. */
export interface HtmlRenderOptions {
  /** What the report folder holds at each artifact path (see {@linkcode indexArtifacts}); links as given without. */
  artifacts?: ArtifactIndex;
  /** The command that reruns one result, shown in its row; none for a merged board. */
  rerun?: (result: TestResult) => string | null;
}

/**
 * The tests an interrupt left without a result (`run.interrupted`): a list under the run's meta lines, each
 * marked "interrupted", since they have no status and no board cell.
 */
function interruptedHtml(report: RunReport): string[] {
  const interrupted = report.run.interrupted ?? [];
  if (interrupted.length === 0) return [];
  const running = interrupted.filter((test) => test.started).length;
  return [
    `<details class="interrupted"><summary><span class="bad">interrupted</span>: ${interrupted.length} ` +
    `test(s) have no result (${running} running when the run stopped, ${interrupted.length - running} not ` +
    "begun); they are not judged</summary><ul>",
    ...interrupted.map((test) =>
      `<li><code>${escapeHtml(test.test)}</code> on ${escapeHtml(test.host)}: interrupted ${
        test.started ? "while it ran" : "before it began"
      }</li>`
    ),
    "</ul></details>",
  ];
}

/**
 * The banner that opens the page: the run's verdict in a word, and its counts.
 */
function verdictBanner(report: RunReport, results: readonly TestResult[]): string {
  const counts = verdictCounts(results, report.run.incomplete === true);
  const interrupted = report.run.interrupted?.length ?? 0;
  const s = report.summary;
  const headline = counts.verdict === "fail"
    ? [
      counts.unexpected ? `${counts.unexpected} unexpected result${counts.unexpected === 1 ? "" : "s"}` : "",
      counts.stale ? `${counts.stale} stale expectation${counts.stale === 1 ? "" : "s"}` : "",
    ].filter(Boolean).join(" and ") + ": the run fails" +
      (report.run.incomplete ? `, and it was interrupted (${interrupted} test(s) have no result)` : "")
    : counts.verdict === "incomplete"
    ? `Interrupted: ${interrupted} test(s) have no result; the rest are as expected`
    : "All as expected";
  const parts = [
    `${results.length} result${results.length === 1 ? "" : "s"}`,
    `${s.passed} passed`,
    ...(counts.known ? [`${counts.known} known finding${counts.known === 1 ? "" : "s"}`] : []),
    `${s.failed} failed`,
    `${s.warned} warned`,
    `${s.info} info`,
    `${s.skipped} skipped`,
    `${s.timedOut} timed out`,
    `${s.errored} errored`,
    ...(s.flaky ? [`${s.flaky} flaky`] : []),
  ];
  return `<div id="verdict" class="verdict ${counts.verdict}"><strong>${escapeHtml(headline)}</strong>` +
    `<span class="counts">${parts.join(", ")} · ${formatDuration(report.run.durationMs)}</span></div>`;
}

/**
 * The triage sections under the banner: what the run fails on first (unexpected results, then stale
 * expectations), then the known findings; each item links to its row.
 */
function triageSections(results: readonly TestResult[], indexOf: (result: TestResult) => number): string[] {
  const by = (verdict: string) => results.filter((result) => judge(result).verdict === verdict);
  const section = (id: string, title: string, items: readonly TestResult[], note: string) =>
    items.length === 0 ? [] : [
      `<section class="triage" id="${id}"><h2>${title} (${items.length})</h2>` +
      (note ? `<p class="meta">${note}</p>` : ""),
      ...items.map((result) => triageItem(result, indexOf(result))),
      "</section>",
    ];
  return [
    ...section("unexpected", "Unexpected", by("unexpected"), ""),
    ...section(
      "stale",
      "Stale expectations",
      by("stale"),
      "Listed as failing in the host's expectations, and passing now: remove the entry or run with " +
        "--update-expectations.",
    ),
    ...section(
      "known",
      "Known findings",
      by("known"),
      "Listed in the host's expectations with a reason: as expected, so the run does not fail on them.",
    ),
  ];
}

/**
 * Renders a report as one self-contained HTML page.
 *
 * @example
 * ```ts
 * import { renderHtml } from "./html.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * await Deno.writeTextFile("report.html", renderHtml(report));
 * ```
 */
export function renderHtml(
  report: RunReport,
  secrets: readonly string[] = [],
  options: HtmlRenderOptions = {},
): string {
  const results = report.results.map((result) => redactResult(result, secrets));
  const clean: RunReport = { ...report, results };
  const grid = boardGrid(clean, { includeTestOnly: true, secrets });
  const indexOf = new Map(results.map((result, index) => [result, index]));
  const run = report.run;
  const out: string[] = [];
  out.push(
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Conformance report ${escapeHtml(run.suite)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    "<h1>Conformance report</h1>",
    verdictBanner(report, results),
    ...triageSections(results, (result) => indexOf.get(result)!),
    `<div class="meta">Suite revision <code>${escapeHtml(run.suite)}</code> · harness ${
      escapeHtml(run.harness)
    }` +
      ` · started ${escapeHtml(run.startedAt)} · took ${formatDuration(run.durationMs)} · shard ` +
      `${escapeHtml(run.shard)} · ${escapeHtml(run.os)}, Deno ${escapeHtml(run.deno)}` +
      (run.command ? ` · <code>${escapeHtml(redact(run.command, secrets))}</code>` : "") +
      (run.incomplete ? ' · <span class="bad">incomplete run</span>' : "") + "</div>",
  );
  out.push(...interruptedHtml(report));
  out.push("<fieldset><legend>Status</legend>");
  for (const status of STATUSES) {
    out.push(
      `<label><input type="checkbox" data-filter="status" value="${status}" checked> ` +
        `<span class="${status}">${STATUS_MARK[status]}</span> ${status}</label>`,
    );
  }
  out.push("</fieldset><fieldset><legend>Host</legend>");
  for (const host of report.hosts) {
    out.push(
      `<label><input type="checkbox" data-filter="host" value="${escapeHtml(host.id)}" checked> ` +
        `${escapeHtml(host.id)}</label>`,
    );
  }
  // Opens on what needs attention when anything does; the whole run otherwise.
  const attention = results.filter((result) => compare(result) !== "expected").length;
  out.push(
    '</fieldset><fieldset><legend>Show</legend><label><input type="checkbox" id="attention"' +
      `${attention > 0 ? " checked" : ""}> only unexpected results and stale expectations (${attention})` +
      '</label> <button type="button" id="show-all">Show all</button></fieldset>' +
      `<div class="meta"><span id="shown">${results.length}</span> of ${results.length} results shown</div>`,
  );
  out.push(...boardHtml(grid, secrets, (result) => indexOf.get(result)));
  out.push(...capabilityHtml(clean, secrets, (result) => indexOf.get(result)));
  out.push(...acpHtml(clean, secrets, (result) => indexOf.get(result)));
  out.push("<h2>Results</h2>");
  for (const [index, result] of results.entries()) {
    out.push(...resultRow(result, index, { artifacts: options.artifacts, rerun: options.rerun }));
  }
  out.push(`<script>${SCRIPT}</script></body></html>`);
  return `${out.filter(Boolean).join("\n")}\n`;
}

/**
 * The board: a row per test, a column per host; each cell links to its result, says its status and message in
 * its title, and carries the number of its note (src/report/board_grid.ts): every cell but a plain ✓ has one.
 */
function boardHtml(
  grid: ReturnType<typeof boardGrid>,
  secrets: readonly string[],
  indexOf: (result: TestResult) => number | undefined,
): string[] {
  const out = ['<h2>Board</h2><table id="board"><thead><tr><th>Test</th>'];
  for (const host of grid.hosts) {
    const version = host.version
      ? ` <span class="tag" title="${escapeHtml(redact(host.version, secrets))}">${
        escapeHtml(shortVersion(redact(host.version, secrets)))
      }</span>`
      : "";
    const testOnly = host.testOnly ? ' <span class="tag">test-only</span>' : "";
    out.push(`<th data-col="${escapeHtml(host.id)}">${escapeHtml(host.id)}${version}${testOnly}</th>`);
  }
  out.push("</tr></thead><tbody>");
  for (const row of grid.rows) {
    out.push(`<tr data-row><th scope="row">${rowHeading(row)}</th>`);
    for (const [column, cell] of row.cells.entries()) {
      const col = escapeHtml(grid.hosts[column]!.id);
      if (!cell) {
        out.push(`<td data-col="${col}"></td>`);
        continue;
      }
      const status = cell.result.status;
      const note = cell.footnote === undefined ? "" : `<sup>${cell.footnote}</sup>`;
      out.push(
        `<td class="mark ${status}" data-col="${col}" data-status="${status}" ` +
          `data-verdict="${compare(cell.result)}" title="${
            escapeHtml(`${status}: ${cell.result.message}`)
          }">` +
          `<a href="#r${indexOf(cell.result)}">${cell.mark}${note}</a></td>`,
      );
    }
    out.push("</tr>");
  }
  out.push("</tbody></table>");
  out.push(
    '<p class="meta">✓ pass · ✗ fail (a MUST broken) · ◷ timeout · ⚠ harness error (not the host\'s) · ' +
      "! warning · i info · – skipped · outlined: unexpected, or a stale expectation (the run fails on it) · " +
      "every mark but ✓ has a note below</p>",
  );
  if (grid.footnotes.length > 0) {
    out.push('<ol class="notes">');
    for (const reason of grid.footnotes) out.push(`<li>${escapeHtml(reason)}</li>`);
    out.push("</ol>");
  }
  return out;
}

/**
 * The capability board (src/report/capability_board.ts): a row per host, an "argv" and a "behaviour" column
 * per flag and the tool round trip; each cell links to the result whose status it shows, its title lists all
 * the results it is made of, and an unexpected one is outlined. Static: the filters do not touch it.
 */
function capabilityHtml(
  report: RunReport,
  secrets: readonly string[],
  indexOf: (result: TestResult) => number | undefined,
): string[] {
  const board = capabilityBoard(report, { includeTestOnly: true, secrets });
  if (board.rows.length === 0) return [];
  const cell = (half: CapabilityHalf | undefined) => {
    if (half === undefined) return "<td></td>";
    const title = half.note ?? half.results.map((result) => `${result.test}: ${result.status}`).join("; ");
    const note = half.footnote === undefined ? "" : `<sup>${half.footnote}</sup>`;
    const unexpected = half.verdict === "unexpected" ? " unexpected" : "";
    return `<td class="mark ${half.shown.status}${unexpected}" title="${escapeHtml(title)}">` +
      `<a href="#r${indexOf(half.shown)}">${half.mark}${note}</a></td>`;
  };
  const out = [
    '<h2>Capabilities: argv and behaviour</h2><table id="capabilities"><thead><tr><th rowspan="2">Host</th>',
    ...board.flags.map((flag) => `<th colspan="2"><code>${escapeHtml(flag)}</code></th>`),
    '<th rowspan="2">tool round trip</th></tr><tr>',
    ...board.flags.map(() => "<th>argv</th><th>behaviour</th>"),
    "</tr></thead><tbody>",
    ...board.rows.map((row) =>
      `<tr><th scope="row">${escapeHtml(row.host.id)}</th>` +
      row.cells.map((flag) => cell(flag.argv) + cell(flag.behavior)).join("") + `${cell(row.roundTrip)}</tr>`
    ),
    "</tbody></table>",
    "<p class=\"meta\">argv: the flag's marker is in the host's invocation (<code>cli/capabilities/</code>) · " +
    "behaviour: the CLI does what the flag says against the scripted mock model " +
    "(<code>cli/capability-behavior/</code>: with the flag where the host claims it, without it always) · " +
    "✓ claimed and shown (behaviour: both directions pass) · ○ not claimed, and absent as it should be · " +
    "✗ fails · ! warning · ? not observed (a SKIP, or a direction that did not run; never a pass) · i info · " +
    "blank: not run</p>",
  ];
  if (!board.behaviorRan) {
    out.push(
      '<p class="meta">No <code>cli/capability-behavior/</code> result in this report: the behaviour columns ' +
        "are empty (the tier runs with <code>--mock-model</code>).</p>",
    );
  }
  if (board.untested.length > 0) {
    out.push(
      `<p class="meta">No behaviour test of ${
        board.untested.map((flag) => `<code>${escapeHtml(flag)}</code>`).join(", ")
      } in this report: those behaviour columns are empty.</p>`,
    );
  }
  if (board.behaviorRan && board.gaps.length > 0) {
    out.push(
      `<p><span class="bad">In argv but not working</span> ${
        board.gaps.map((gap) => `${escapeHtml(gap.host)} <code>${escapeHtml(gap.flag)}</code>`).join(", ")
      }</p>`,
    );
  }
  if (board.footnotes.length > 0) {
    out.push('<ol class="notes">', ...board.footnotes.map((note) => `<li>${escapeHtml(note)}</li>`), "</ol>");
  }
  return out;
}

/** A board row's heading: the test id, its clause and its title, from the first result that has them. */
function rowHeading(row: BoardRow): string {
  const results = row.cells.flatMap((cell) => cell ? [cell.result] : []);
  const withClause = results.find((result) => clauseOf(result) !== undefined);
  const title = results.find((result) => result.title)?.title;
  return `<code>${escapeHtml(row.test)}</code>${withClause ? specTag(withClause) : ""}` +
    (title ? `<div class="title">${escapeHtml(title)}</div>` : "");
}

/** Options of {@linkcode HtmlReporter}. */
export interface HtmlReporterOptions {
  /** Folder for `report.html`; without one the reporter refuses (a page is no terminal output). */
  outDir: string | null;
  /** Standard output: unused, the page is always a file. */
  out: TextSink;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
  /** The command that reruns one result, shown in its row. */
  rerun?: (result: TestResult) => string | null;
}

/** Writes `report.html` at the end of the run. */
export class HtmlReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "html" as const;
  readonly #options: HtmlReporterOptions;

  /**
   * Makes the reporter.
   * @param options Where to write.
   * @throws {ReportError} Without an output folder: a whole page printed into a terminal helps no one.
   */
  constructor(options: HtmlReporterOptions) {
    if (options.outDir === null) {
      throw new ReportError(
        'Reporter "html" writes report.html into a folder: add --out DIR (e.g. --out reports)',
        "html",
      );
    }
    this.#options = options;
  }

  /** Writes the file atomically. */
  async finish(report: RunReport): Promise<void> {
    const outDir = this.#options.outDir!;
    const artifacts = await indexArtifacts(report.results, outDir);
    await writeFileAtomic(
      join(outDir, HTML_REPORT_FILE),
      renderHtml(report, this.#options.secrets, {
        artifacts,
        ...(this.#options.rerun ? { rerun: this.#options.rerun } : {}),
      }),
    );
  }
}

/** `--reporter html`: `report.html` under `--out`; a page printed into a terminal helps no one. */
export default {
  file: HTML_REPORT_FILE,
  printsToStdout: false,
  needsOut: true,
  create: (context) =>
    new HtmlReporter({
      outDir: context.outDir,
      out: context.stdout,
      secrets: context.secrets,
      ...(context.rerun ? { rerun: context.rerun } : {}),
    }),
} satisfies ReporterModule;

/**
 * The ACP board (src/report/acp_board.ts): a row per agent with what its `initialize` claimed and a mark per
 * `cli/acp/*` case, each linking to its result. Nothing without an ACP result.
 */
function acpHtml(
  report: RunReport,
  secrets: readonly string[],
  indexOf: (result: TestResult) => number | undefined,
): string[] {
  const board = acpBoard(report, { includeTestOnly: true, secrets });
  if (board.rows.length === 0) return [];
  const codes = (items: readonly string[]) =>
    items.length === 0 ? "–" : items.map((item) => `<code>${escapeHtml(item)}</code>`).join(" ");
  return [
    '<h2>ACP (Agent Client Protocol)</h2><table id="acp"><thead><tr><th>Agent</th><th>Protocol</th>' +
    "<th>Agent info</th><th>Claims</th><th>Auth</th>",
    ...board.cases.map((name) => `<th><code>${escapeHtml(name)}</code></th>`),
    "<th>Passed</th></tr></thead><tbody>",
    ...board.rows.map((row) => {
      const claims = row.claims;
      const facts = claims === null
        ? '<td colspan="4" class="meta">not observed (no passing initialize)</td>'
        : `<td>${claims.protocolVersion ?? "?"}</td><td>${escapeHtml(claims.agent)}</td>` +
          `<td>${codes(claims.capabilities)}</td><td>${codes(claims.authMethods)}</td>`;
      const marks = row.cells.map((cell) => {
        if (cell === undefined) return "<td></td>";
        const unexpected = cell.verdict === "unexpected" || cell.verdict === "stale" ? " unexpected" : "";
        const title = `${cell.result.test}: ${cell.result.status}${
          cell.result.message ? ` ${cell.result.message}` : ""
        }`;
        return `<td class="mark ${cell.result.status}${unexpected}" title="${escapeHtml(title)}">` +
          `<a href="#r${indexOf(cell.result)}">${cell.mark}</a></td>`;
      }).join("");
      return `<tr><th scope="row">${escapeHtml(row.host.id)}</th>${facts}${marks}` +
        `<td>${row.passed}/${row.ran}</td></tr>`;
    }),
    "</tbody></table>",
    `<p class="meta">Protocol: the version the agent answered to ours; agent info, claims and auth: its ` +
    `<code>initialize</code> answer (<code>${ACP_PREFIX}initialize</code>) · each mark links to its result</p>`,
  ];
}
