/**
 * The `github` reporter, for GitHub Actions: one `::error` workflow command per result that fails the run
 * (an unexpected result or a stale expectation, as the exit code judges them), printed to standard output
 * where the runner turns each into an annotation, and the markdown board appended to the file named by
 * `GITHUB_STEP_SUMMARY` (the job's summary page) when that variable is set.
 *
 * Workflow commands are one line each. Everything a host controls is redacted and marked free of controls
 * (src/report/sanitize.ts) and then escaped as the runner unescapes it: `%`, `\r` and `\n` in the message,
 * and also `:` and `,` in the `title` property, so no host text can end the command early or start another.
 *
 * It is chosen by name, never turned on by `GITHUB_ACTIONS=true`: it prints to standard output, which
 * `--reporter json` without `--out` uses for the report (docs/ci.md).
 *
 * @module
 */
import { compare, expectedLabel, type TestResult } from "../outcome.ts";
import { renderBoardMarkdown } from "./markdown.ts";
import { redactResult } from "./redact.ts";
import { ReportError } from "./report_error.ts";
import type { Reporter, ReporterModule, TextSink } from "./reporter.ts";
import { stripControls } from "./sanitize.ts";
import type { RunReport } from "./schema.ts";

/** The most GitHub accepts in one step's summary (1 MiB); a bigger board is replaced by a note. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/**
 * Escapes a workflow command's message (the text after `::`): `%`, `\r` and `\n`.
 *
 * @example
 * ```ts
 * import { escapeCommandData } from "./github.ts";
 * escapeCommandData("50%\nnext"); // "50%25%0Anext"
 * ```
 */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/**
 * Escapes a workflow command's property value (`title=…`): as {@linkcode escapeCommandData}, and `:` and `,`.
 *
 * @example
 * ```ts
 * import { escapeCommandProperty } from "./github.ts";
 * escapeCommandProperty("fake · cli/a: FAIL, again"); // "fake · cli/a%3A FAIL%2C again"
 * ```
 */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/**
 * The `::error` workflow commands for a report, one line each (with a final newline), or `""` when every
 * result is as expected.
 *
 * @param report The run's report.
 * @param secrets Secret values to redact besides the built-in shapes.
 * @example
 * ```ts
 * import { renderAnnotations } from "./github.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * console.log(renderAnnotations(report));
 * ```
 */
export function renderAnnotations(report: RunReport, secrets: readonly string[] = []): string {
  const lines = report.results.flatMap((raw) => {
    const verdict = compare(raw);
    if (verdict === "expected") return [];
    const result = redactResult(raw, secrets);
    const title = `conformance ${result.host} · ${result.test}: ` +
      (verdict === "stale" ? "stale expectation" : result.status);
    return [
      `::error title=${escapeCommandProperty(clean(title))}::${escapeCommandData(clean(message(result)))}`,
    ];
  });
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function message(result: TestResult): string {
  const title = result.title ? `${result.title}\n` : "";
  if (compare(result) === "stale") {
    return `${title}Passes, but the expectations list it as ${expectedLabel(result)}: remove the entry or ` +
      "run with --update-expectations";
  }
  const expected = result.expected === "PASS" && !result.expectedAny
    ? ""
    : ` (expected ${expectedLabel(result)})`;
  return `${title}${result.status}${expected}: ${result.message || "(no message)"}`;
}

/** Host text with its controls marked; line feeds stay (they are escaped as `%0A`). */
function clean(text: string): string {
  return stripControls(text);
}

/** The markdown appended to the step summary: the board, or a note when it is over the size limit. */
export function renderStepSummary(report: RunReport, secrets: readonly string[] = []): string {
  const board = renderBoardMarkdown(report, { secrets });
  const text = board.endsWith("\n") ? board : `${board}\n`;
  const size = new TextEncoder().encode(text).length;
  if (size <= STEP_SUMMARY_LIMIT) return text;
  return `# Conformance board\n\nThe board (${size} bytes) is over GitHub's step summary limit ` +
    `(${STEP_SUMMARY_LIMIT} bytes): see the board.md written by --reporter markdown.\n`;
}

/** Options of {@linkcode GithubReporter}. */
export interface GithubReporterOptions {
  /** Standard output, where the runner reads workflow commands. */
  out: TextSink;
  /** The value of `GITHUB_STEP_SUMMARY`, if set: the file the board is appended to. */
  stepSummary?: string | undefined;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/** Prints annotations and appends the board to the step summary at the end of the run. */
export class GithubReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "github" as const;
  readonly #options: GithubReporterOptions;

  /**
   * Makes the reporter.
   * @param options Where to write.
   */
  constructor(options: GithubReporterOptions) {
    this.#options = options;
  }

  /**
   * Prints the annotations, then appends the board to the step summary.
   *
   * @throws {ReportError} The step summary file cannot be written.
   */
  async finish(report: RunReport): Promise<void> {
    const secrets = this.#options.secrets ?? [];
    this.#options.out.write(renderAnnotations(report, secrets));
    const path = this.#options.stepSummary;
    if (path === undefined || path === "") return;
    try {
      await Deno.writeTextFile(path, renderStepSummary(report, secrets), { append: true });
    } catch (error) {
      throw summaryError(path, error);
    }
  }
}

function summaryError(path: string, error: unknown): ReportError {
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return new ReportError(
      `Cannot append the board to GITHUB_STEP_SUMMARY "${path}": conformance may write only in the working ` +
        "folder and temp; point GITHUB_STEP_SUMMARY at a file there and append that file to the real " +
        "summary after the run, as action.yml does",
      path,
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ReportError(`Cannot append the board to GITHUB_STEP_SUMMARY "${path}" (${reason})`, path);
}

/** `--reporter github`: annotations on standard output, `--out` or not; the board to the step summary. */
export default {
  printsToStdout: true,
  create: (context) =>
    new GithubReporter({ out: context.stdout, stepSummary: context.stepSummary, secrets: context.secrets }),
} satisfies ReporterModule;
