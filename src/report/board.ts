/**
 * The engine of `conformance board REPORT.json… [--diff OLD.json] [--out FILE]`: read the reports, merge them,
 * render the board (and what changed since an older report), and write it or hand it back for printing.
 *
 * @module
 */
import { extname, join } from "node:path";
import { writeFileAtomic } from "./atomic_write.ts";
import { diffReports, renderDiffMarkdown, type ReportDiff } from "./diff.ts";
import { renderHtml } from "./html.ts";
import { serializeReport } from "./json.ts";
import { renderJunit } from "./junit.ts";
import { MARKDOWN_BOARD_FILE, renderBoardMarkdown } from "./markdown.ts";
import { mergeReports } from "./merge.ts";
import { ReportError } from "./report_error.ts";
import { parseReport, type RunReport } from "./schema.ts";
import { InputTooLargeError, MAX_REPORT_FILE_BYTES, readTextBounded } from "../read_bounded.ts";

/** Options of {@linkcode buildBoard}. */
export interface BuildBoardOptions {
  /** Paths of the `report.json` files to merge (shards, hosts). */
  reports: readonly string[];
  /** Path of an older report to compare against. */
  diff?: string;
  /**
   * Where to write. By extension: `.json` the merged report, `.html` the HTML report, `.xml` JUnit; anything
   * else the markdown board (followed by the changes when `diff` is given). An existing folder gets `board.md`.
   * Without it, nothing is written.
   */
  out?: string;
  /** Exact secret values to redact from what is written, e.g. `secretsFromEnv(readableEnv())`; default none. */
  secrets?: readonly string[];
}

/** What {@linkcode buildBoard} produced. */
export interface BuiltBoard {
  /** The merged report. */
  report: RunReport;
  /** The comparison with `diff`, when given. */
  diff?: ReportDiff;
  /** The text written to `out`, or to print when there is no `out`. */
  text: string;
  /** The path written, if any. */
  written?: string;
}

/**
 * Merges reports into one board.
 *
 * @throws {ReportError} A missing or invalid file, or reports that cannot be merged.
 * @example
 * ```ts
 * import { buildBoard } from "./board.ts";
 * const { text } = await buildBoard({ reports: ["shard1/report.json", "shard2/report.json"] });
 * console.log(text);
 * ```
 */
export async function buildBoard(options: BuildBoardOptions): Promise<BuiltBoard> {
  if (options.reports.length === 0) {
    throw new ReportError(
      'No report given: run "conformance board REPORT.json…" with at least one report.json',
    );
  }
  const inputs = await Promise.all(options.reports.map(async (source) => ({
    source,
    report: await readReport(source),
  })));
  const report = mergeReports(inputs);
  const diff = options.diff === undefined ? undefined : diffReports(await readReport(options.diff), report);
  const secrets = options.secrets ?? [];
  const out = options.out === undefined ? undefined : await outputFile(options.out);
  let text: string;
  switch (out === undefined ? ".md" : extname(out).toLowerCase()) {
    case ".json":
      text = serializeReport(report, secrets);
      break;
    case ".html":
    case ".htm":
      text = renderHtml(report, secrets);
      break;
    case ".xml":
      text = renderJunit(report, secrets);
      break;
    default:
      text = renderBoardMarkdown(report, { secrets });
      if (diff) text += `\n${renderDiffMarkdown(diff, secrets)}`;
  }
  const built: BuiltBoard = { report, text };
  if (diff) built.diff = diff;
  if (out !== undefined) {
    await writeFileAtomic(out, text);
    built.written = out;
  }
  return built;
}

/** `--out` as given, or `board.md` inside it when it names an existing folder (as `run --out DIR` does). */
async function outputFile(out: string): Promise<string> {
  try {
    if ((await Deno.stat(out)).isDirectory) return join(out, MARKDOWN_BOARD_FILE);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out;
}

/**
 * Reads and checks one report file.
 *
 * @throws {ReportError} The file is missing, unreadable or not a valid report.
 */
export async function readReport(path: string): Promise<RunReport> {
  let text: string;
  try {
    text = await readTextBounded(path, {
      label: `Report "${path}"`,
      hint: "pass a report.json a run wrote",
      maxBytes: MAX_REPORT_FILE_BYTES,
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof InputTooLargeError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new ReportError(
        `Report "${path}" not found: pass a report.json written by "conformance run --reporter json --out DIR"`,
        path,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReportError(
      `Report "${path}" cannot be read (${reason}): check the path and its permissions`,
      path,
    );
  }
  return parseReport(text, path);
}
