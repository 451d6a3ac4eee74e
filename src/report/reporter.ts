/**
 * The reporter interface: every report format follows a run through the same four calls, so the engine
 * drives them all alike and a new format is one more file.
 *
 * @module
 */
import type { TestResult } from "../outcome.ts";
import type { ReportHost, RunInfo, RunReport } from "./schema.ts";

/** The report formats, as named by `--reporter`. */
export const REPORTER_NAMES = ["pretty", "json", "junit", "markdown", "html", "github"] as const;

/** One of {@linkcode REPORTER_NAMES}. */
export type ReporterName = typeof REPORTER_NAMES[number];

/** What a run is about to do, told to reporters before the first test. */
export interface ReportPlan {
  /** The run block as known at the start (no duration yet). */
  run: Omit<RunInfo, "durationMs" | "incomplete">;
  /** The hosts about to run. */
  hosts: ReportHost[];
  /** How many (host, test) pairs will run. */
  total: number;
}

/** Follows one run. Calls come in order: `start`, then `testStarted`/`result` per test, then `finish`. */
export interface Reporter {
  /** The `--reporter` name. */
  readonly name: ReporterName;
  /** The run is about to start. */
  start(plan: ReportPlan): void;
  /** A test began (for live progress). */
  testStarted(host: string, test: string): void;
  /** A test ended; `result.expected` is already filled in. */
  result(result: TestResult): void;
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
