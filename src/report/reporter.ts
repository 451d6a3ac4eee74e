/**
 * The reporter interface: every report format follows a run through the same calls, so the engine drives
 * them all alike. A format is one module whose default export is a {@linkcode ReporterModule}, listed by one
 * line in `REPORTERS` (./reporters.ts).
 *
 * @module
 */
import { join } from "node:path";
import type { TestResult } from "../outcome.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import type { ReportHost, RunInfo, RunReport } from "./schema.ts";

/** What a run is about to do, told to reporters before the first test. */
export interface ReportPlan {
  /** The run block as known at the start (no duration yet). */
  run: Omit<RunInfo, "durationMs" | "incomplete">;
  /** The hosts about to run. */
  hosts: ReportHost[];
  /** How many (host, test) pairs will run. */
  total: number;
}

/**
 * Follows one run. Calls come in order: `start`, then `testStarted`/`result` per test, then `finish`. Only
 * `finish` is required: a format written from the final report needs no other.
 */
export interface Reporter {
  /** The `--reporter` name. */
  readonly name: string;
  /** The run is about to start. */
  start?(plan: ReportPlan): void;
  /** A test began (for live progress). */
  testStarted?(host: string, test: string): void;
  /** A test ended; `result.expected` is already filled in. */
  result?(result: TestResult): void;
  /** The run ended (or was interrupted: then `report.run.incomplete` is true); writes the final output. */
  finish(report: RunReport): Promise<void>;
}

/** Somewhere text goes: standard output, standard error, or a test's buffer. */
export interface TextSink {
  /** Writes `text` as-is (no newline added). */
  write(text: string): void;
}

/** A {@linkcode TextSink} writing synchronously to a Deno stream such as `Deno.stdout`. */
export function streamSink(stream: { writeSync(bytes: Uint8Array): number }): TextSink {
  const encoder = new TextEncoder();
  return {
    write(text) {
      const bytes = encoder.encode(text);
      let offset = 0;
      while (offset < bytes.length) offset += stream.writeSync(bytes.subarray(offset));
    },
  };
}

/** What every reporter of a run is made with. */
export interface ReporterContext {
  /** `--out DIR`; `null` when not given. */
  outDir: string | null;
  /** Standard output. */
  stdout: TextSink;
  /** Standard error: where `pretty` goes when another reporter prints to standard output. */
  stderr: TextSink;
  /** Whether standard output is a terminal (live progress line). */
  isTTY: boolean;
  /** ANSI colour; pass `isTTY && !NO_COLOR` (see `wantsColor` in ./create.ts). */
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
 * A report format, as its module's default export: the file it writes, how it uses standard output, and how
 * to make one for a run. Its name and help line are its row in `REPORTERS` (./reporters.ts).
 */
export interface ReporterModule {
  /** The file it writes under `--out` (and names in a "wrote PATH" line); absent when it writes none there. */
  readonly file?: string;
  /**
   * Whether, without `--out`, it prints to standard output: then it is the only one that may (two would mix),
   * and `pretty` moves to standard error.
   */
  readonly printsToStdout: boolean;
  /** Set when it cannot run without `--out` (its output is a file only). */
  readonly needsOut?: true;
  /**
   * Makes the reporter for one run.
   * @param context Where output goes; `stdoutTaken` says whether a chosen reporter prints to standard output.
   */
  create(context: ReporterContext & { readonly stdoutTaken: boolean }): Reporter;
}

/**
 * Writes a finished document: atomically to `file` in `outDir`, or, without an output folder, to `out`.
 *
 * @example
 * ```ts
 * import { streamSink, writeOrPrint } from "./reporter.ts";
 * await writeOrPrint({ outDir: null, file: "x.txt", out: streamSink(Deno.stdout) }, "hello\n");
 * ```
 */
export async function writeOrPrint(
  where: { readonly outDir: string | null; readonly file: string; readonly out: TextSink },
  text: string,
): Promise<void> {
  if (where.outDir === null) where.out.write(text);
  else await writeFileAtomic(join(where.outDir, where.file), text);
}
