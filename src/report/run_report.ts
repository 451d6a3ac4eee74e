/**
 * A run's report assembled from what the run began with and what it ended with: the `run` block written at the
 * start, the hosts and the results, marked incomplete when a signal came or a planned test has no result.
 *
 * @module
 */
import { type InterruptedTest, summarize, type TestResult } from "../outcome.ts";
import { REPORT_SCHEMA, type ReportHost, type RunInfo, type RunReport } from "./schema.ts";

/** The `run` block as known when the run starts: everything but its duration and how it ended. */
export type RunStart = Omit<RunInfo, "durationMs" | "incomplete" | "interrupted">;

/** How a run ended, beside its results. */
export interface RunEnd {
  /** The hosts, with their versions. */
  readonly hosts: ReportHost[];
  /** Every result, in run order. */
  readonly results: TestResult[];
  /** How many tests were planned. */
  readonly total: number;
  /** The planned tests an interrupt left without a result. */
  readonly interrupted: InterruptedTest[];
  /** A SIGINT or SIGTERM ended the run. */
  readonly signalled: boolean;
}

/**
 * The whole report of a run that began at `startedAt` with the `run` block `start` and ended now as `end`
 * says.
 *
 * @example
 * ```ts
 * import { runReport } from "./run_report.ts";
 * const start = { harness: "0", suite: "0", startedAt: new Date(0).toISOString(), os: "linux", deno: "2", shard: "1/1" };
 * const report = runReport(start, new Date(0), { hosts: [], results: [], total: 1, interrupted: [], signalled: false });
 * report.run.incomplete; // true: a planned test has no result
 * ```
 */
export function runReport(start: RunStart, startedAt: Date, end: RunEnd): RunReport {
  const { hosts, results, total, interrupted, signalled } = end;
  return {
    schema: REPORT_SCHEMA,
    run: {
      ...start,
      durationMs: Math.round(Date.now() - startedAt.getTime()),
      ...(signalled || results.length < total ? { incomplete: true } : {}),
      ...(interrupted.length > 0 ? { interrupted } : {}),
    },
    hosts,
    results,
    summary: summarize(results),
  };
}
