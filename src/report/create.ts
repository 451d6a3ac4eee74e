/**
 * Turns `--reporter` names into reporters, and fans a run out to all of them.
 *
 * @module
 */
import type { TestResult } from "../outcome.ts";
import { GithubReporter } from "./github.ts";
import { HtmlReporter } from "./html.ts";
import { JsonReporter } from "./json.ts";
import { JunitReporter } from "./junit.ts";
import { MarkdownReporter } from "./markdown.ts";
import { PrettyReporter } from "./pretty.ts";
import { ReportError } from "./report_error.ts";
import {
  type Reporter,
  REPORTER_NAMES,
  type ReporterName,
  type ReportPlan,
  type TextSink,
} from "./reporter.ts";
import type { RunReport } from "./schema.ts";

/** Options of {@linkcode createReporters}. */
export interface CreateReportersOptions {
  /** `--out DIR`; `null` when not given. */
  outDir: string | null;
  /** Standard output. */
  stdout: TextSink;
  /** Where `pretty` goes when another reporter prints its file to standard output. */
  stderr: TextSink;
  /** Whether standard output is a terminal (live progress line). */
  isTTY: boolean;
  /** ANSI colour; pass `isTTY && !NO_COLOR` (see {@linkcode wantsColor}). */
  color: boolean;
  /** Terminal width. */
  columns?: number;
  /** Exact secret values to redact, e.g. `secretsFromEnv(readableEnv())`. */
  secrets: readonly string[];
  /** The command that reruns one result: `pretty` prints it under each result that needs attention, `html` in its row. */
  rerun?: (result: TestResult) => string | null;
  /** The value of `GITHUB_STEP_SUMMARY`, where `github` appends the board; unset, it appends nothing. */
  stepSummary?: string | undefined;
}

/**
 * Whether to colour output: a terminal, and `NO_COLOR` unset or empty (https://no-color.org).
 *
 * @example
 * ```ts
 * import { wantsColor } from "./create.ts";
 * const color = wantsColor(Deno.stdout.isTerminal(), Deno.env.get("NO_COLOR"));
 * ```
 */
export function wantsColor(isTTY: boolean, noColor: string | undefined): boolean {
  return isTTY && (noColor === undefined || noColor === "");
}

/**
 * Makes the reporters named on the command line (duplicates count once), combined into one.
 *
 * Without `outDir`, file formats print to standard output; only one may, and `pretty` then moves to
 * standard error so the two do not mix. `github` always prints its workflow commands to standard output, so
 * without `outDir` it counts as one that prints.
 *
 * @throws {ReportError} An unknown name, or two formats that would both print to standard output.
 * @example
 * ```ts
 * import { createReporters } from "./create.ts";
 * import { streamSink } from "./reporter.ts";
 * const reporter = createReporters(["pretty", "json"], {
 *   outDir: "out", stdout: streamSink(Deno.stdout), stderr: streamSink(Deno.stderr),
 *   isTTY: Deno.stdout.isTerminal(), color: false, secrets: [],
 * });
 * ```
 */
export function createReporters(names: readonly string[], options: CreateReportersOptions): Reporter[] {
  const unique = [...new Set(names)];
  for (const name of unique) {
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      throw new ReportError(
        `Unknown reporter "${name}": use one of ${REPORTER_NAMES.join(", ")}`,
        name,
      );
    }
  }
  const chosen = unique as ReporterName[];
  const printing = options.outDir === null ? chosen.filter((name) => name !== "pretty") : [];
  if (printing.length > 1) {
    throw new ReportError(
      `Reporters "${printing[0]}" and "${printing[1]}" would both print to standard output: ` +
        "add --out DIR to write them as files",
      printing[1],
    );
  }
  const secrets = options.secrets;
  const file = { outDir: options.outDir, out: options.stdout, secrets };
  return chosen.map((name): Reporter => {
    switch (name) {
      case "pretty": {
        const toStderr = printing.length > 0;
        const prettyOptions = {
          out: toStderr ? options.stderr : options.stdout,
          isTTY: options.isTTY,
          color: options.color,
          secrets,
          outDir: options.outDir,
          ...(options.rerun ? { rerun: options.rerun } : {}),
        };
        return new PrettyReporter(
          options.columns === undefined ? prettyOptions : { ...prettyOptions, columns: options.columns },
        );
      }
      case "json":
        return new JsonReporter(file);
      case "junit":
        return new JunitReporter(file);
      case "markdown":
        return new MarkdownReporter(file);
      case "html":
        return new HtmlReporter({ ...file, ...(options.rerun ? { rerun: options.rerun } : {}) });
      case "github":
        return new GithubReporter({ out: options.stdout, stepSummary: options.stepSummary, secrets });
    }
  });
}

/**
 * One reporter that forwards every call to several. `finish` runs them all, even when one fails, then throws
 * the first failure.
 */
export class ReporterGroup {
  readonly #reporters: readonly Reporter[];

  /**
   * Groups reporters.
   * @param reporters From {@linkcode createReporters}.
   */
  constructor(reporters: readonly Reporter[]) {
    this.#reporters = reporters;
  }

  /** Forwards to every reporter. */
  start(plan: ReportPlan): void {
    for (const reporter of this.#reporters) reporter.start(plan);
  }

  /** Forwards to every reporter. */
  testStarted(host: string, test: string): void {
    for (const reporter of this.#reporters) reporter.testStarted(host, test);
  }

  /** Forwards to every reporter. */
  result(result: TestResult): void {
    for (const reporter of this.#reporters) reporter.result(result);
  }

  /** Finishes every reporter; throws the first failure after all are done. */
  async finish(report: RunReport): Promise<void> {
    const outcomes = await Promise.allSettled(this.#reporters.map((reporter) => reporter.finish(report)));
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  }
}
