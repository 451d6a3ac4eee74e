/**
 * The `html` reporter: `report.html`, one self-contained file (inline style and script, no external resource,
 * a Content-Security-Policy that forbids loading any) with the board, filters by status and host, and the
 * details of every result. Every value from the report is HTML-escaped; the script embeds no report data.
 *
 * @module
 */
import { join } from "node:path";
import { compare, expectedLabel, STATUSES, type TestResult } from "../outcome.ts";
import { artifactsOf } from "./artifacts.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { boardGrid, STATUS_MARK } from "./board_grid.ts";
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

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

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
.PASS{color:#137333}.FAIL,.TIMEOUT{color:#c5221f}.ERROR{color:#a0138e}.WARN{color:#b06000}
.INFO{color:#1a5fb4}.SKIP{color:#777}
.tag{font-size:.75rem;border:1px solid #aaa;border-radius:3px;padding:0 .25rem;color:#555;font-weight:normal}
.bad{background:#c5221f;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.8rem}
.stale{background:#b06000;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.8rem}
details{border-bottom:1px solid #eee;padding:.2rem 0}
summary{cursor:pointer}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
ol.notes{color:#555}
`;

// Static: reads the page's data attributes, never report data, so nothing in a report can become code.
const SCRIPT = `
(() => {
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  const checked = (kind) => new Set(all('input[data-filter="' + kind + '"]:checked').map((i) => i.value));
  function apply() {
    const statuses = checked("status");
    const hosts = checked("host");
    const onlyAttention = document.getElementById("attention").checked;
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
  for (const input of all("input")) input.addEventListener("change", apply);
  apply();
})();
`;

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
export function renderHtml(report: RunReport, secrets: readonly string[] = []): string {
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
  out.push(
    '</fieldset><fieldset><legend>Show</legend><label><input type="checkbox" id="attention"> ' +
      "only unexpected results and stale expectations</label></fieldset>",
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
    out.push(`<tr data-row><th scope="row"><code>${escapeHtml(row.test)}</code></th>`);
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
    out.push(
      `<details id="r${index}" data-result data-host="${escapeHtml(result.host)}" ` +
        `data-status="${result.status}" data-verdict="${verdict}"><summary>` +
        `<span class="${result.status}">${STATUS_MARK[result.status]} ${result.status}</span> ` +
        `${escapeHtml(result.host)} <code>${escapeHtml(result.test)}</code>${
          result.title ? ` ${escapeHtml(result.title)}` : ""
        } ${result.durationMs} ms${flag}` +
        "</summary>",
      `<p>Expected: ${expectedLabel(result)}</p>`,
      artifactLinks(result),
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
 * Links to a result's artifacts. Their paths are relative to the report folder, where report.html is written,
 * so they resolve as relative URLs; each path segment is URL-encoded, and only relative paths are linked.
 */
function artifactLinks(result: TestResult): string {
  const paths = artifactsOf(result).filter((path) => !path.startsWith("/") && !/^[a-z][\w+.-]*:/i.test(path));
  if (paths.length === 0) return "";
  const links = paths.map((path) => {
    const href = path.split("/").map(encodeURIComponent).join("/");
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(path)}</a></li>`;
  });
  return `<p>Artifacts:</p><ul class="artifacts">${links.join("")}</ul>`;
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
    const text = renderHtml(report, this.#options.secrets);
    if (this.#options.outDir === null) this.#options.out.write(text);
    else await writeFileAtomic(join(this.#options.outDir, HTML_REPORT_FILE), text);
  }
}
