/**
 * Turns `--reporter` names into reporters, and fans a run out to all of them.
 *
 * @module
 */
import type { TestResult } from "../outcome.ts";
import { ReportError } from "./report_error.ts";
import type { Reporter, ReporterContext, ReporterModule, ReportPlan } from "./reporter.ts";
import { REPORTER_NAMES, type ReporterName, REPORTERS } from "./reporters.ts";
import type { RunReport } from "./schema.ts";

/** Options of {@linkcode createReporters}: what every reporter of the run is made with. */
export type CreateReportersOptions = ReporterContext;

/** Every reporter's module, by name, loaded once: whoever makes reporters has them all at hand. */
const MODULES: ReadonlyMap<string, ReporterModule> = new Map(
  await Promise.all(REPORTERS.map(async (row) => [row.name, (await row.load()).default] as const)),
);

/**
 * The module of the reporter `name`, from the list in `REPORTERS`.
 *
 * @example
 * ```ts
 * import { reporterModule } from "./create.ts";
 * reporterModule("junit").file; // "junit.xml"
 * ```
 */
export function reporterModule(name: ReporterName): ReporterModule {
  return MODULES.get(name)!;
}

/**
 * Why `name` cannot run without `--out`, as a usage message, or `null` when it can.
 *
 * @example
 * ```ts
 * import { needsOutMessage } from "./create.ts";
 * needsOutMessage("html"); // 'Reporter "html" writes report.html into a folder: add --out DIR (e.g. --out reports)'
 * ```
 */
export function needsOutMessage(name: ReporterName): string | null {
  const module = reporterModule(name);
  return module.needsOut
    ? `Reporter "${name}" writes ${module.file ?? "files"} into a folder: add --out DIR (e.g. --out reports)`
    : null;
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
 * Without `outDir`, the reporters whose module {@linkcode ReporterModule.printsToStdout} print to standard
 * output; only one may, and `pretty` then moves to standard error so the two do not mix.
 *
 * @throws {ReportError} An unknown name, two reporters that would both print to standard output, or one that
 *   needs an output folder without one.
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
  const printing = options.outDir === null
    ? chosen.filter((name) => reporterModule(name).printsToStdout)
    : [];
  if (printing.length > 1) {
    throw new ReportError(
      `Reporters "${printing[0]}" and "${printing[1]}" would both print to standard output: ` +
        "add --out DIR to write them as files",
      printing[1],
    );
  }
  const context = { ...options, stdoutTaken: printing.length > 0 };
  return chosen.map((name) => {
    const refused = options.outDir === null ? needsOutMessage(name) : null;
    if (refused !== null) throw new ReportError(refused, name);
    return reporterModule(name).create(context);
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
    for (const reporter of this.#reporters) reporter.start?.(plan);
  }

  /** Forwards to every reporter. */
  testStarted(host: string, test: string): void {
    for (const reporter of this.#reporters) reporter.testStarted?.(host, test);
  }

  /** Forwards to every reporter. */
  result(result: TestResult): void {
    for (const reporter of this.#reporters) reporter.result?.(result);
  }

  /** Finishes every reporter; throws the first failure after all are done. */
  async finish(report: RunReport): Promise<void> {
    const outcomes = await Promise.allSettled(this.#reporters.map((reporter) => reporter.finish(report)));
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  }
}
