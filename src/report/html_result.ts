/**
 * One result in report.html: its row in the results list (a `<details>` that opens on the message, what was
 * expected and why, the expectation's reason, the command that reruns it, its artifacts, and the raw details
 * collapsed), and its item in the triage sections at the top of the page (the message and the reason at a
 * glance, linked to the row). Artifacts saved in the report folder are linked relative to the page.
 *
 * @module
 */
import { join } from "node:path";
import { STATUS_MARK } from "./board_grid.ts";
import type { TestResult } from "../outcome.ts";
import { cutAtWord } from "../quote.ts";
import { artifactsOf } from "./artifacts.ts";
import { formatDuration } from "./duration.ts";
import { shownDetails } from "./details.ts";
import { escapeHtml } from "./html_page.ts";
import { expectationReason, judge } from "./verdict.ts";

/** What the report folder holds at an artifact's path. */
export type ArtifactEntry =
  | { kind: "file" }
  /** A folder, with the names of the files directly in it, sorted. */
  | { kind: "folder"; files: string[] }
  | { kind: "missing" };

/** Artifact paths (as in `details.artifacts`) to what the report folder holds there. */
export type ArtifactIndex = ReadonlyMap<string, ArtifactEntry>;

/** What a row needs besides its result. */
export interface RowOptions {
  /** What the report folder holds at each artifact path; links as given without. */
  readonly artifacts?: ArtifactIndex | undefined;
  /** The command that reruns the result, when the report was written by the run itself. */
  readonly rerun?: ((result: TestResult) => string | null) | undefined;
}

const FAILING = new Set(["FAIL", "TIMEOUT", "ERROR"]);

/** The longest message a triage item shows; the row has all of it. */
const ITEM_MESSAGE_CHARS = 400;

/** The status as a coloured mark and word. */
function statusMark(result: TestResult): string {
  return `<span class="${result.status}">${STATUS_MARK[result.status]} ${result.status}</span>`;
}

/**
 * A result's item in a triage section: status, host, test and title linked to its row, its message, and what
 * was expected with the expectation's reason.
 */
export function triageItem(result: TestResult, index: number): string {
  const judgement = judge(result);
  const reason = expectationReason(result);
  const message = result.message.trim();
  return `<div class="item" data-verdict="${judgement.verdict}">` +
    `<a href="#r${index}">${statusMark(result)} ${escapeHtml(result.host)} <code>${
      escapeHtml(result.test)
    }</code></a>` +
    `${result.title ? ` ${escapeHtml(result.title)}` : ""} · ${formatDuration(result.durationMs)}` +
    (message === ""
      ? "<p>No message was recorded.</p>"
      : `<pre class="message${FAILING.has(result.status) ? " failing" : ""}">${
        escapeHtml(cutAtWord(message, ITEM_MESSAGE_CHARS))
      }</pre>`) +
    `<p class="why">${escapeHtml(judgement.why)}</p>` +
    (reason === undefined ? "" : `<p class="reason">Listed because: ${escapeHtml(reason)}</p>`) +
    "</div>";
}

/** The spec clause a result checks (`MUST`, `SHOULD NOT`, …), as the apps suite records it in its details. */
export function clauseOf(result: TestResult): string | undefined {
  const clause = result.details.clause;
  return typeof clause === "string" && clause !== "" ? clause : undefined;
}

/** The clause as a tag, or nothing for a test without one. */
export function specTag(result: TestResult): string {
  const clause = clauseOf(result);
  return clause === undefined ? "" : ` <span class="clause" title="spec clause">${escapeHtml(clause)}</span>`;
}

/**
 * A result's row in the results list. An unexpected result opens with its details showing (a TIMEOUT's
 * included); the others, a PASS first of all, stay collapsed until clicked or linked to.
 */
export function resultRow(result: TestResult, index: number, options: RowOptions): string[] {
  const judgement = judge(result);
  const verdict = judgement.verdict === "unexpected"
    ? "unexpected"
    : judgement.verdict === "stale"
    ? "stale"
    : "expected";
  const listed = result.expectedAny?.join(" or ") ?? result.expected;
  const flag =
    (verdict === "unexpected"
      ? ' <span class="bad">UNEXPECTED</span>'
      : verdict === "stale"
      ? ` <span class="stale">STALE expectation: listed as ${listed}</span>`
      : judgement.verdict === "known"
      ? ` <span class="tag">known failure: expected ${listed}</span>`
      : "") + retryTag(result);
  const reason = expectationReason(result);
  const rerun = options.rerun?.(result) ?? null;
  return [
    `<details id="r${index}" data-result data-host="${escapeHtml(result.host)}" ` +
    `data-test="${escapeHtml(result.test)}" data-status="${result.status}" data-verdict="${verdict}"` +
    `${verdict === "unexpected" ? " open" : ""}><summary>${statusMark(result)} ` +
    `${escapeHtml(result.host)} <code>${escapeHtml(result.test)}</code>${specTag(result)}${
      result.title ? ` ${escapeHtml(result.title)}` : ""
    } · ${formatDuration(result.durationMs)}${flag} ` +
    `<a class="self" href="#r${index}" title="Link to this result">#</a></summary>`,
    result.message
      ? `<pre class="message${FAILING.has(result.status) ? " failing" : ""}">${
        escapeHtml(result.message)
      }</pre>`
      : result.status !== "PASS"
      ? "<p>No message was recorded.</p>"
      : "",
    outcomeLine(result),
    `<p>Expected: ${listed} · ${escapeHtml(judgement.why)}</p>`,
    reason === undefined ? "" : `<p class="reason">Listed because: ${escapeHtml(reason)}</p>`,
    caveatLine(result),
    rerun === null ? "" : `<p>Rerun it:</p><pre class="rerun">${escapeHtml(rerun)}</pre>`,
    artifactLinks(result, options.artifacts),
    rawDetails(result),
    "</details>",
  ];
}

/** What became of a result that did not finish: a TIMEOUT's deadline, in the terminal's units. */
function outcomeLine(result: TestResult): string {
  return result.status === "TIMEOUT"
    ? `<p class="TIMEOUT">Timed out after ${
      formatDuration(result.durationMs)
    }: the test did not finish in its time.</p>`
    : "";
}

/** What the verdict does not cover, when the test says. */
function caveatLine(result: TestResult): string {
  const caveat = result.details.caveat;
  return typeof caveat === "string" && caveat !== "" ? `<p>Caveat: ${escapeHtml(caveat)}</p>` : "";
}

/**
 * The details as the run recorded them, collapsed: for whoever needs more than the message. Shown once each:
 * what the row says already (the clause, the caveat, the artifacts, the expectation's reason) is left out, and
 * so is `stderr` where it is the host's stderr again (src/report/details.ts).
 */
function rawDetails(result: TestResult): string {
  const shown = shownDetails(result.details, ["clause", "caveat", "artifacts", "expectationReason"]);
  if (Object.keys(shown).length === 0) return "";
  return `<details class="raw"><summary>Raw details</summary><pre>${
    escapeHtml(JSON.stringify(shown, null, 2))
  }</pre></details>`;
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

/** A result that ran more than once (`--retries`): flaky, or how many attempts a failure had. */
function retryTag(result: TestResult): string {
  if (result.attempts === undefined) return "";
  return result.flaky
    ? ` <span class="stale">FLAKY: as expected only on attempt ${result.attempts}</span>`
    : ` <span class="tag">${result.attempts} attempts</span>`;
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
