/**
 * The JSON report, schema `conformance-report/1`: the one file every other report (JUnit, the markdown board,
 * HTML, merged boards, diffs) can be rebuilt from. {@linkcode parseReport} reads one back and says in one line
 * what is wrong with a bad file.
 *
 * @module
 */
import { z } from "zod";
import { type InterruptedTest, STATUSES, summarize, type Summary, type TestResult } from "../outcome.ts";
import { type ReportDiff, reportDiffSchema } from "./diff_schema.ts";
import { ReportError } from "./report_error.ts";
import type { VerdictCounts } from "./verdict.ts";

/** The schema id written into every report. */
export const REPORT_SCHEMA = "conformance-report/1";

/** Where a host runs; the same values as the registry's `HostKind`. */
export type ReportHostKind = "cli" | "web" | "desktop";

/** The `run` block: which harness and suite produced the report, when, where, and which shard. */
export interface RunInfo {
  /** Harness version. */
  harness: string;
  /** Suite revision; reports merge only when it is the same. */
  suite: string;
  /** ISO 8601 start time. */
  startedAt: string;
  /** Wall time of the run, in milliseconds. */
  durationMs: number;
  /** Operating system (`Deno.build.os`). */
  os: string;
  /** Deno version. */
  deno: string;
  /** `I/N`; `1/1` for an unsharded run; a merge of some shards lists them, e.g. `1/4,3/4`. */
  shard: string;
  /** Set while a run is in progress or when it was interrupted: the results are a prefix of the plan. */
  incomplete?: boolean;
  /**
   * The planned tests an interrupt (Ctrl-C, SIGTERM) left without a result, those running then and those not
   * yet begun: never judged, never matched against an expectation. Absent when every planned test has a
   * result, and in reports written before it existed.
   */
  interrupted?: InterruptedTest[];
  /** The command line that produced the report, redacted. */
  command?: string;
  /**
   * The flags that shaped the run (`--config`, `--live`, …), as words: `--rerun-failed` starts from them.
   * Absent from reports written before it existed.
   */
  rerunFlags?: string[];
}

/** One host of the run. */
export interface ReportHost {
  /** Registry id, e.g. `claude-code`. */
  id: string;
  /** Where the host runs. */
  kind: ReportHostKind;
  /** The host's own version, or `null` when it cannot tell. */
  version: string | null;
  /** Test-only hosts (the fakes, broken reference variants) are left off the markdown board. */
  testOnly?: boolean;
}

/** A whole `conformance-report/1` document. */
export interface RunReport {
  /** Always `conformance-report/1`. */
  schema: typeof REPORT_SCHEMA;
  /** The run: harness, suite revision, timing, shard. */
  run: RunInfo;
  /** Every host of the run, in run order. */
  hosts: ReportHost[];
  /** Every (host, test) result, in run order. */
  results: TestResult[];
  /**
   * Counts per status, from `summarize(results)`; as written, also the counts of the results' verdicts and the
   * run's verdict (src/report/verdict.ts), which the writer computes.
   */
  summary: Summary & Partial<VerdictCounts>;
  /**
   * Only in a board written by `conformance board … --diff OLD.json --out FILE.json`: what changed since
   * OLD.json. A run never writes it, and merging reports drops it.
   */
  diff?: ReportDiff;
}

const statusSchema = z.enum(STATUSES);
const count = z.number().int().nonnegative();

/**
 * The zod schema of {@linkcode RunReport}. Unknown keys are dropped. Internal: read a report with
 * {@linkcode parseReport}.
 *
 * @ignore
 */
export const runReportSchema: z.ZodType<RunReport> = z.object({
  schema: z.literal(REPORT_SCHEMA),
  run: z.object({
    harness: z.string(),
    suite: z.string().min(1),
    startedAt: z.iso.datetime({ offset: true }),
    durationMs: z.number().nonnegative(),
    os: z.string(),
    deno: z.string(),
    shard: z.string().regex(/^[1-9]\d*\/[1-9]\d*(,[1-9]\d*\/[1-9]\d*)*$/, 'expected "I/N", e.g. "1/1"'),
    incomplete: z.boolean().optional(),
    interrupted: z.array(z.object({
      host: z.string().min(1),
      test: z.string().min(1),
      title: z.string().optional(),
      started: z.boolean(),
    })).optional(),
    command: z.string().optional(),
    rerunFlags: z.array(z.string()).optional(),
  }),
  hosts: z.array(z.object({
    id: z.string().min(1),
    kind: z.enum(["cli", "web", "desktop"]),
    version: z.string().nullable(),
    testOnly: z.boolean().optional(),
  })),
  results: z.array(z.object({
    host: z.string().min(1),
    test: z.string().min(1),
    // Reports written before titles existed have none.
    title: z.string().optional(),
    status: statusSchema,
    expected: statusSchema,
    // Present only when the expectation lists several statuses; older reports have none.
    expectedAny: z.array(statusSchema).min(2).optional(),
    // Written by every run since they existed (src/report/verdict.ts); reading recomputes them.
    verdict: z.enum(["as-expected", "known", "unexpected", "stale"]).optional().describe(
      "How the result stands against its expectation: as-expected (PASS, or SKIP/WARN/INFO where nothing " +
        "failing is listed), known (a listed non-PASS status), unexpected (the run exits 1), stale (a PASS " +
        "where a failure is listed; the run exits 1)",
    ),
    matched: z.boolean().optional().describe(
      "Whether the result matched its expectation (as-expected or known)",
    ),
    why: z.string().optional().describe("One sentence: why the result stands as its verdict says"),
    expectationReason: z.string().optional().describe(
      "The reason the host's expectations give for the listed status",
    ),
    message: z.string(),
    durationMs: z.number().nonnegative(),
    details: z.record(z.string(), z.unknown()),
    // Reports written before --retries existed have neither.
    flaky: z.literal(true).optional(),
    attempts: z.number().int().min(2).optional(),
  })),
  summary: z.object({
    passed: count,
    failed: count,
    warned: count,
    // Reports written before INFO existed have no `info` count, and no INFO results to count.
    info: count.default(0),
    skipped: count,
    timedOut: count,
    errored: count,
    // Likewise: no `flaky` count before --retries, and no flaky results to count.
    flaky: count.default(0),
    // Written by every run since they existed; older reports have none (count the results' verdicts).
    unexpected: count.optional().describe("Results whose verdict is unexpected"),
    stale: count.optional().describe("Results whose verdict is stale (a listed failure now passes)"),
    known: count.optional().describe("Results that matched a listed non-PASS status (known findings)"),
    verdict: z.enum(["pass", "fail", "incomplete"]).optional().describe(
      "The run: fail when any result is unexpected or stale (exit 1), else incomplete when it was " +
        "interrupted, else pass",
    ),
  }),
  diff: reportDiffSchema.optional(),
  // zod types optional keys as `T | undefined`; with exactOptionalPropertyTypes the shapes are otherwise equal.
}) as unknown as z.ZodType<RunReport>;

/**
 * Reads a `conformance-report/1` document, checking its shape and that its summary and hosts agree with its
 * results.
 *
 * @param text The file's contents.
 * @param source Where the text came from (a file name), quoted in errors.
 * @throws {ReportError} One line naming `source` and what is wrong.
 * @example
 * ```ts
 * import { parseReport } from "./schema.ts";
 * const report = parseReport(await Deno.readTextFile("out/report.json"), "out/report.json");
 * console.log(report.summary.failed);
 * ```
 */
export function parseReport(text: string, source: string): RunReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReportError(
      `Report "${source}" is not valid JSON (${reason}): pass a report.json file`,
      source,
    );
  }
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (typeof value === "object" && value !== null && schema !== REPORT_SCHEMA) {
    throw new ReportError(
      `Report "${source}" has schema ${JSON.stringify(schema ?? null)}, expected "${REPORT_SCHEMA}": ` +
        `produce it with "conformance run --reporter json"`,
      source,
    );
  }
  const parsed = runReportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? formatPath(issue.path) : "";
    const what = issue?.message ?? "invalid";
    throw new ReportError(
      `Report "${source}" is invalid${where ? ` at ${where}` : ""}: ${what}; ` +
        `produce it with "conformance run --reporter json"`,
      source,
    );
  }
  const report = withoutJudgements(parsed.data);
  checkConsistency(report, source);
  return report;
}

/**
 * The report without what its writer derived from the results (each result's verdict, the summary's verdict
 * counts): the facts alone, as a run hands them to the writers, which derive them afresh.
 */
function withoutJudgements(report: RunReport): RunReport {
  const results = report.results.map((result) => {
    const { verdict: _v, matched: _m, why: _w, expectationReason: _r, ...facts } = result as
      & TestResult
      & Record<"verdict" | "matched" | "why" | "expectationReason", unknown>;
    return facts as TestResult;
  });
  const { unexpected: _u, stale: _s, known: _k, verdict: _v, ...summary } = report.summary;
  return { ...report, results, summary };
}

function checkConsistency(report: RunReport, source: string): void {
  const hostIds = new Set(report.hosts.map((host) => host.id));
  const stray = [...report.results, ...report.run.interrupted ?? []].find((result) =>
    !hostIds.has(result.host)
  );
  if (stray) {
    throw new ReportError(
      `Report "${source}" has a result for host "${stray.host}" that is not in its hosts list: ` +
        "the file was edited or truncated; run again",
      source,
    );
  }
  const actual = summarize(report.results);
  for (const key of Object.keys(actual) as (keyof Summary)[]) {
    if (actual[key] !== report.summary[key]) {
      throw new ReportError(
        `Report "${source}" summary says ${key}=${report.summary[key]} but its results give ${
          actual[key]
        }: ` +
          "the file was edited or truncated; run again",
        source,
      );
    }
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  }
  return out;
}
