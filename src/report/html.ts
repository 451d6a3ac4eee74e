/**
 * The `html` reporter: `report.html`, one self-contained file (inline style and script, no external resource,
 * a Content-Security-Policy that forbids loading any and runs only the page's own script, by its hash) with the
 * board, filters by status and host, and the details of every result. Every value from the report is
 * HTML-escaped; the script embeds no report data.
 *
 * The page opens filtered to the results that need attention when there are any, with their details open (a
 * PASS stays collapsed); each test shows its title and spec clause; `#r<n>` (a board cell, a result's own `#`
 * link, or the address) opens that result, widening the filters if they hide it; artifacts saved in the
 * report folder (traces, screenshots, a CLI test's saved stream folder and its files) are linked relative to
 * the page. Under the board, when the run checked capabilities, the capability board: host × flag, "argv"
 * and "behaviour" side by side (src/report/capability_board.ts).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { compare, expectedLabel, STATUSES, type TestResult } from "../outcome.ts";
import { artifactsOf } from "./artifacts.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { boardGrid, type BoardRow, STATUS_MARK } from "./board_grid.ts";
import { capabilityBoard, type CapabilityHalf } from "./capability_board.ts";
import { redact, redactResult } from "./redact.ts";
import { stripControls } from "./sanitize.ts";
import type { Reporter, TextSink } from "./reporter.ts";
import type { RunReport } from "./schema.ts";

/** The file name the html reporter writes in the output folder. */
export const HTML_REPORT_FILE = "report.html";

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  const clean = stripControls(text);
  return HAS_HTML_SPECIAL.test(clean) ? clean.replace(HTML_SPECIAL, (char) => HTML_ENTITY[char]!) : clean;
}

const HAS_HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITY: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#222}
h1{font-size:1.4rem;margin:0 0 .3rem}
.meta{color:#555;margin-bottom:1rem}
fieldset{display:inline-block;border:1px solid #ccc;margin:0 .5rem .8rem 0;padding:.3rem .6rem}
label{margin-right:.6rem;white-space:nowrap}
table{border-collapse:collapse;margin-bottom:1rem}
th,td{border:1px solid #ddd;padding:.2rem .5rem}
th[scope=row]{text-align:left;font-weight:normal}
td.mark{text-align:center;font-weight:bold}
td.mark a{text-decoration:none;color:inherit}
td.off{opacity:.15}
th[scope=row] .title{color:#555;font-size:.85rem}
.clause{font-size:.75rem;border:1px solid #1a5fb4;border-radius:3px;padding:0 .25rem;color:#1a5fb4}
a.self{color:#999;text-decoration:none;margin-left:.3rem}
.PASS{color:#137333}.FAIL,.TIMEOUT{color:#c5221f}.ERROR{color:#a0138e}.WARN{color:#b06000}
.INFO{color:#1a5fb4}.SKIP{color:#777}
.tag{font-size:.75rem;border:1px solid #aaa;border-radius:3px;padding:0 .25rem;color:#555;font-weight:normal}
.bad{background:#c5221f;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.8rem}
.stale{background:#b06000;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.8rem}
details{border-bottom:1px solid #eee;padding:.2rem 0}
summary{cursor:pointer}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
ol.notes{color:#555}
#capabilities td.unexpected{outline:2px solid #c5221f}
`;

// Static: reads the page's data attributes, never report data, so nothing in a report can become code.
// The page opens with the "only unexpected" box as rendered; a `#r<n>` link (from the board, a result's own
// link, or the address bar) widens the filters to show that result if they hide it, and opens its details.
const SCRIPT = `
(() => {
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  const filters = (kind) => all('input[data-filter="' + kind + '"]');
  const checked = (kind) => new Set(filters(kind).filter((i) => i.checked).map((i) => i.value));
  const attention = document.getElementById("attention");
  function apply() {
    const statuses = checked("status");
    const hosts = checked("host");
    const onlyAttention = attention.checked;
    let shown = 0;
    for (const el of all("[data-result]")) {
      const visible = statuses.has(el.dataset.status) && hosts.has(el.dataset.host) &&
        (!onlyAttention || el.dataset.verdict !== "expected");
      el.hidden = !visible;
      if (visible) shown++;
    }
    for (const el of all("[data-col]")) el.hidden = !hosts.has(el.dataset.col);
    for (const row of all("tr[data-row]")) {
      let any = false;
      for (const cell of row.querySelectorAll("td[data-status]")) {
        const on = statuses.has(cell.dataset.status) && (!onlyAttention || cell.dataset.verdict !== "expected");
        cell.classList.toggle("off", !on);
        if (on && !cell.hidden) any = true;
      }
      row.hidden = !any;
    }
    document.getElementById("shown").textContent = String(shown);
  }
  function showAll() {
    for (const input of all("input[data-filter]")) input.checked = true;
    attention.checked = false;
    apply();
  }
  function reveal(id) {
    const target = document.getElementById(id);
    if (!target || !target.hasAttribute("data-result")) return;
    if (target.hidden) {
      for (const input of filters("status")) if (input.value === target.dataset.status) input.checked = true;
      for (const input of filters("host")) if (input.value === target.dataset.host) input.checked = true;
      if (target.dataset.verdict === "expected") attention.checked = false;
      apply();
    }
    target.open = true;
    target.scrollIntoView({ block: "start" });
  }
  function fromHash() {
    let id = "";
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    if (id) reveal(id);
  }
  for (const input of all("input")) input.addEventListener("change", apply);
  document.getElementById("show-all").addEventListener("click", showAll);
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (link) reveal(link.getAttribute("href").slice(1));
  });
  addEventListener("hashchange", fromHash);
  apply();
  fromHash();
})();
`;

/** A CSP source that allows exactly this inline text (a `<script>` or `<style>` element's content). */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

// The page's one script runs by its hash, so no other script (planted in a report value, say) could.
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${hashSource(SCRIPT)}; img-src data:`;

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
  const s = report.summary;
  const out: string[] = [];
  out.push(
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Conformance report ${escapeHtml(run.suite)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    "<h1>Conformance report</h1>",
    `<div class="meta">Suite revision <code>${escapeHtml(run.suite)}</code> · harness ${
      escapeHtml(run.harness)
    }` +
      ` · started ${escapeHtml(run.startedAt)} · ${escapeHtml(String(run.durationMs))} ms · shard ` +
      `${escapeHtml(run.shard)} · ${escapeHtml(run.os)}, Deno ${escapeHtml(run.deno)}` +
      (run.command ? ` · <code>${escapeHtml(redact(run.command, secrets))}</code>` : "") +
      (run.incomplete ? ' · <span class="bad">incomplete run</span>' : "") + "</div>",
    `<div class="meta">${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.info} info, ` +
      `${s.skipped} skipped, ` +
      `${s.timedOut} timed out, ${s.errored} errored${
        s.flaky ? `, ${s.flaky} flaky` : ""
      } · <span id="shown">${results.length}</span> of ` +
      `${results.length} results shown</div>`,
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
      '</label> <button type="button" id="show-all">Show all</button></fieldset>',
  );
  out.push('<h2>Board</h2><table id="board"><thead><tr><th>Test</th>');
  for (const host of grid.hosts) {
    const version = host.version
      ? ` <span class="tag">${escapeHtml(redact(host.version, secrets))}</span>`
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
          `<a href="#r${indexOf.get(cell.result)}">${cell.mark}${note}</a></td>`,
      );
    }
    out.push("</tr>");
  }
  out.push("</tbody></table>");
  if (grid.footnotes.length > 0) {
    out.push('<ol class="notes">');
    for (const reason of grid.footnotes) out.push(`<li>${escapeHtml(reason)}</li>`);
    out.push("</ol>");
  }
  out.push(...capabilityHtml(clean, secrets, (result) => indexOf.get(result)));
  out.push("<h2>Results</h2>");
  for (const [index, result] of results.entries()) {
    const verdict = compare(result);
    const flag = (verdict === "unexpected"
      ? ' <span class="bad">UNEXPECTED</span>'
      : verdict === "stale"
      ? ` <span class="stale">STALE expectation: listed as ${expectedLabel(result)}</span>`
      : result.expected !== "PASS"
      ? ` <span class="tag">known failure: expected ${expectedLabel(result)}</span>`
      : "") + retryTag(result);
    // An unexpected result opens with its details showing (a TIMEOUT's included); the others, a PASS first of
    // all, stay collapsed until clicked or linked to.
    out.push(
      `<details id="r${index}" data-result data-host="${escapeHtml(result.host)}" ` +
        `data-test="${escapeHtml(result.test)}" data-status="${result.status}" data-verdict="${verdict}"` +
        `${verdict === "unexpected" ? " open" : ""}><summary>` +
        `<span class="${result.status}">${STATUS_MARK[result.status]} ${result.status}</span> ` +
        `${escapeHtml(result.host)} <code>${escapeHtml(result.test)}</code>${specTag(result)}${
          result.title ? ` ${escapeHtml(result.title)}` : ""
        } ${result.durationMs} ms${flag} <a class="self" href="#r${index}" title="Link to this result">#</a>` +
        "</summary>",
      `<p>Expected: ${expectedLabel(result)}</p>`,
      outcomeLine(result),
      caveatLine(result),
      artifactLinks(result, options.artifacts),
      result.message ? `<pre>${escapeHtml(result.message)}</pre>` : "",
      Object.keys(result.details).length > 0
        ? `<pre>${escapeHtml(JSON.stringify(result.details, null, 2))}</pre>`
        : "",
      "</details>",
    );
  }
  out.push(`<script>${SCRIPT}</script></body></html>`);
  return `${out.filter(Boolean).join("\n")}\n`;
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
      row.cells.map((flag) => cell(flag.argv) + cell(flag.behaviour)).join("") + `${cell(row.roundTrip)}</tr>`
    ),
    "</tbody></table>",
    "<p class=\"meta\">argv: the flag's marker is in the host's invocation (<code>cli/capabilities/</code>) · " +
    "behaviour: the CLI does what the flag says against the scripted mock model " +
    "(<code>cli/capability-behavior/</code>: with the flag where the host claims it, without it always) · " +
    "✓ claimed and shown (behaviour: both directions pass) · ○ not claimed, and absent as it should be · " +
    "✗ fails · ! warning · ? not observed (a SKIP, or a direction that did not run; never a pass) · i info · " +
    "blank: not run</p>",
  ];
  if (!board.behaviourRan) {
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
  if (board.behaviourRan && board.gaps.length > 0) {
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

/** The spec clause a result checks (`MUST`, `SHOULD NOT`, …), as the apps suite records it in its details. */
function clauseOf(result: TestResult): string | undefined {
  const clause = result.details.clause;
  return typeof clause === "string" && clause !== "" ? clause : undefined;
}

/** The clause as a tag, or nothing for a test without one. */
function specTag(result: TestResult): string {
  const clause = clauseOf(result);
  return clause === undefined ? "" : ` <span class="clause" title="spec clause">${escapeHtml(clause)}</span>`;
}

/** A board row's heading: the test id, its clause and its title, from the first result that has them. */
function rowHeading(row: BoardRow): string {
  const results = row.cells.flatMap((cell) => cell ? [cell.result] : []);
  const withClause = results.find((result) => clauseOf(result) !== undefined);
  const title = results.find((result) => result.title)?.title;
  return `<code>${escapeHtml(row.test)}</code>${withClause ? specTag(withClause) : ""}` +
    (title ? `<div class="title">${escapeHtml(title)}</div>` : "");
}

/** What became of a result that did not finish or say why: a TIMEOUT's deadline, a failure without message. */
function outcomeLine(result: TestResult): string {
  if (result.status === "TIMEOUT") {
    return `<p class="TIMEOUT">Timed out after ${result.durationMs} ms: the test did not finish in its time.</p>`;
  }
  return result.status !== "PASS" && result.message === "" ? "<p>No message was recorded.</p>" : "";
}

/** What the verdict does not cover, when the test says. */
function caveatLine(result: TestResult): string {
  const caveat = result.details.caveat;
  return typeof caveat === "string" && caveat !== "" ? `<p>Caveat: ${escapeHtml(caveat)}</p>` : "";
}

/**
 * Links to a result's artifacts. Their paths are relative to the report folder, where report.html is written,
 * so they resolve as relative URLs; each path segment is URL-encoded, and only relative paths are linked. With
 * an index of the folder, a saved folder (a CLI test's stream) links its files too, and a path that is not
 * there is named without a link.
 */
function artifactLinks(result: TestResult, index: ArtifactIndex | undefined): string {
  const paths = artifactsOf(result).filter(isRelativePath);
  if (paths.length === 0) return "";
  const items = paths.map((path) => `<li>${artifactItem(path, index?.get(path))}</li>`);
  return `<p>Artifacts:</p><ul class="artifacts">${items.join("")}</ul>`;
}

function artifactItem(path: string, entry: ArtifactEntry | undefined): string {
  switch (entry?.kind) {
    case "missing":
      return `${escapeHtml(path)} (not in the report folder)`;
    case "folder": {
      const folder = path.endsWith("/") ? path : `${path}/`;
      const files = entry.files.map((name) => relativeLink(folder + name, name));
      return relativeLink(folder, folder) + (files.length > 0 ? `: ${files.join(", ")}` : "");
    }
    default:
      return relativeLink(path, path);
  }
}

function relativeLink(path: string, text: string): string {
  const href = path.split("/").map(encodeURIComponent).join("/");
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

function isRelativePath(path: string): boolean {
  return !path.startsWith("/") && !/^[a-z][\w+.-]*:/i.test(path);
}

/** What the report folder holds at an artifact's path. */
export type ArtifactEntry =
  | { kind: "file" }
  /** A folder, with the names of the files directly in it, sorted. */
  | { kind: "folder"; files: string[] }
  | { kind: "missing" };

/** Artifact paths (as in `details.artifacts`) to what the report folder holds there. */
export type ArtifactIndex = ReadonlyMap<string, ArtifactEntry>;

/** Options of {@linkcode renderHtml}. */
export interface HtmlRenderOptions {
  /** What the report folder holds at each artifact path (see {@linkcode indexArtifacts}); links as given without. */
  artifacts?: ArtifactIndex;
}

/** The most files of one artifact folder linked one by one. */
const FOLDER_FILES_LINKED = 50;

/**
 * Looks up every relative artifact path of `results` in `dir`, the folder report.html is written to. A path
 * that cannot be looked at (no read permission) is left out: it is linked as given.
 *
 * @example
 * ```ts ignore
 * import { indexArtifacts, renderHtml } from "./html.ts";
 * const html = renderHtml(report, [], { artifacts: await indexArtifacts(report.results, "out") });
 * ```
 */
export async function indexArtifacts(
  results: readonly TestResult[],
  dir: string,
): Promise<Map<string, ArtifactEntry>> {
  const index = new Map<string, ArtifactEntry>();
  const paths = new Set(results.flatMap((result) => artifactsOf(result).filter(isRelativePath)));
  for (const path of paths) {
    const entry = await lookUp(join(dir, path));
    if (entry) index.set(path, entry);
  }
  return index;
}

async function lookUp(path: string): Promise<ArtifactEntry | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isDirectory) return { kind: "file" };
    const files: string[] = [];
    for await (const entry of Deno.readDir(path)) if (entry.isFile) files.push(entry.name);
    return { kind: "folder", files: files.sort().slice(0, FOLDER_FILES_LINKED) };
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? { kind: "missing" } : undefined;
  }
}

/** A result that ran more than once (`--retries`): flaky, or how many attempts a failure had. */
function retryTag(result: RunReport["results"][number]): string {
  if (result.attempts === undefined) return "";
  return result.flaky
    ? ` <span class="stale">FLAKY: as expected only on attempt ${result.attempts}</span>`
    : ` <span class="tag">${result.attempts} attempts</span>`;
}

/** Options of {@linkcode HtmlReporter}. */
export interface HtmlReporterOptions {
  /** Folder for `report.html`; `null` prints the page to `out`. */
  outDir: string | null;
  /** Standard output, used without `outDir`. */
  out: TextSink;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/** Writes `report.html` at the end of the run. */
export class HtmlReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "html" as const;
  readonly #options: HtmlReporterOptions;

  /**
   * Makes the reporter.
   * @param options Where to write.
   */
  constructor(options: HtmlReporterOptions) {
    this.#options = options;
  }

  /** Nothing to do: the file is written at the end. */
  start(): void {}
  /** Nothing to do. */
  testStarted(): void {}
  /** Nothing to do: the final report has every result. */
  result(): void {}

  /** Writes the file atomically, or prints it without an output folder. */
  async finish(report: RunReport): Promise<void> {
    const { outDir } = this.#options;
    if (outDir === null) {
      this.#options.out.write(renderHtml(report, this.#options.secrets));
      return;
    }
    const artifacts = await indexArtifacts(report.results, outDir);
    await writeFileAtomic(
      join(outDir, HTML_REPORT_FILE),
      renderHtml(report, this.#options.secrets, { artifacts }),
    );
  }
}
