/**
 * The engine of `conformance board REPORT.json… [--diff OLD.json] [--out FILE]`: read the reports, merge them,
 * render the board (and what changed since an older report), and write it or hand it back for printing.
 *
 * @module
 */
import { extname, join } from "node:path";
import { writeFileAtomic } from "./atomic_write.ts";
import { diffReports, redactDiff, renderDiffHtml, renderDiffMarkdown, type ReportDiff } from "./diff.ts";
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
   * Where to write. By extension: `.json` the merged report (with the changes as `diff` when `diff` is given),
   * `.html` the HTML report (with a section of the changes), `.xml` JUnit, `.md` the markdown board (followed
   * by the changes). An existing folder gets `board.md`. Any other extension, or one of the input files, is
   * refused. Without it, nothing is written.
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
  const target = options.out === undefined ? undefined : await outputTarget(options.out, [
    ...options.reports,
    ...(options.diff === undefined ? [] : [options.diff]),
  ]);
  const inputs = await Promise.all(options.reports.map(async (source) => ({
    source,
    report: await readReport(source),
  })));
  const report = mergeReports(inputs);
  const diff = options.diff === undefined ? undefined : diffReports(await readReport(options.diff), report);
  const secrets = options.secrets ?? [];
  let text: string;
  switch (target?.format ?? "md") {
    case "json":
      text = serializeReport(diff ? { ...report, diff: redactDiff(diff, secrets) } : report, secrets);
      break;
    case "html":
      text = renderHtml(report, secrets);
      if (diff) text = withSection(text, renderDiffHtml(diff, secrets));
      break;
    case "xml":
      text = renderJunit(report, secrets);
      break;
    case "md":
      text = renderBoardMarkdown(report, { secrets });
      if (diff) text += `\n${renderDiffMarkdown(diff, secrets)}`;
  }
  const built: BuiltBoard = { report, text };
  if (diff) built.diff = diff;
  if (target !== undefined) {
    await writeFileAtomic(target.path, text);
    built.written = target.path;
  }
  return built;
}

/** The formats `board --out` writes, by file extension. */
const OUT_FORMATS: Readonly<Record<string, "md" | "json" | "html" | "xml">> = {
  ".md": "md",
  ".markdown": "md",
  ".json": "json",
  ".html": "html",
  ".htm": "html",
  ".xml": "xml",
};

/**
 * Where and how `--out` is written, checked before anything is read: a known extension (or an existing
 * folder, which gets `board.md`), and never one of the input files, which the board would overwrite.
 *
 * @throws {ReportError} An unknown extension, or `--out` naming an input.
 */
async function outputTarget(
  out: string,
  inputs: readonly string[],
): Promise<{ path: string; format: "md" | "json" | "html" | "xml" }> {
  const path = await outputFile(out);
  const extension = extname(path).toLowerCase();
  const format = OUT_FORMATS[extension];
  if (format === undefined) {
    throw new ReportError(
      `--out "${out}" has ${extension ? `an unknown extension "${extension}"` : "no extension"}: end it in ` +
        ".md, .html, .json or .xml, or name an existing folder (the board goes to board.md in it)",
      out,
    );
  }
  const input = await sameFileAs(path, inputs);
  if (input !== undefined) {
    throw new ReportError(
      `--out "${out}" is the input "${input}": the board would overwrite it; write the board to another file`,
      out,
    );
  }
  return { path, format };
}

/** The first of `inputs` that is the same file as `path` (by device and inode, or by real path). */
async function sameFileAs(path: string, inputs: readonly string[]): Promise<string | undefined> {
  const target = await fileIdentity(path);
  if (target === undefined) return undefined;
  for (const input of inputs) {
    const other = await fileIdentity(input);
    if (other === undefined) continue;
    if (other.real === target.real) return input;
    if (target.ino !== null && target.dev === other.dev && target.ino === other.ino) return input;
  }
  return undefined;
}

async function fileIdentity(
  path: string,
): Promise<{ real: string; dev: number; ino: number | null } | undefined> {
  try {
    const info = await Deno.stat(path);
    return { real: await Deno.realPath(path), dev: info.dev, ino: info.ino };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** `html` with `section` placed before its filters (or before its script, or at the end). */
function withSection(html: string, section: string): string {
  const at = [html.indexOf("<fieldset>"), html.lastIndexOf("<script>")].find((index) => index >= 0);
  return at === undefined ? html + section : html.slice(0, at) + section + html.slice(at);
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
