/**
 * The shape of a diff between two reports, as `conformance board --diff OLD.json` computes it and as the
 * board's JSON output carries it (`diff` in `conformance-report/1`), with its zod schema. Kept apart from
 * src/report/diff.ts so the report schema can load it without the renderers.
 *
 * @module
 */
import { z } from "zod";
import { type Status, STATUSES } from "../outcome.ts";

/** One (host, test) whose status changed. */
export interface StatusChange {
  /** Host id. */
  host: string;
  /** Test id. */
  test: string;
  /** Status in the old report. */
  from: Status;
  /** Status in the new report. */
  to: Status;
  /** The new result's message. */
  message: string;
}

/** One (host, test) only in one of the two reports. */
export interface ResultRef {
  /** Host id. */
  host: string;
  /** Test id. */
  test: string;
  /** Its status in the report that has it. */
  status: Status;
}

/** A host only in one of the two reports, as one line: its results are not listed one by one. */
export interface HostChange {
  /** Host id. */
  host: string;
  /** How many results it has in the report that has it. */
  results: number;
  /** How many of them passed. */
  passed: number;
}

/** The differences between an old and a new report. */
export interface ReportDiff {
  /** Suite revision of the old report. */
  fromSuite: string;
  /** Suite revision of the new report. */
  toSuite: string;
  /**
   * What got worse (what `board --fail-on-regression` fails on): every new failure, and a WARN that was a
   * PASS, INFO or SKIP before. A result that now skips, or a test or host that went away, is no regression.
   */
  regressions: StatusChange[];
  /** Now FAIL, TIMEOUT or ERROR; before anything else. */
  newFailures: StatusChange[];
  /** Now PASS; before FAIL, TIMEOUT or ERROR. */
  fixed: StatusChange[];
  /** Every other status change (e.g. PASS → WARN, SKIP → INFO, SKIP → PASS, FAIL → TIMEOUT). */
  changed: StatusChange[];
  /** Results only in the new report, of hosts the old report has too. */
  added: ResultRef[];
  /** Results only in the old report, of hosts the new report has too. */
  removed: ResultRef[];
  /** Hosts only in the new report. */
  addedHosts: HostChange[];
  /** Hosts only in the old report. */
  removedHosts: HostChange[];
}

const status = z.enum(STATUSES);
const change = z.object({
  host: z.string(),
  test: z.string(),
  from: status,
  to: status,
  message: z.string(),
});
const ref = z.object({ host: z.string(), test: z.string(), status });
const hostChange = z.object({
  host: z.string(),
  results: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
});

/** The zod schema of {@linkcode ReportDiff}. */
export const reportDiffSchema: z.ZodType<ReportDiff> = z.object({
  fromSuite: z.string(),
  toSuite: z.string(),
  regressions: z.array(change),
  newFailures: z.array(change),
  fixed: z.array(change),
  changed: z.array(change),
  added: z.array(ref),
  removed: z.array(ref),
  addedHosts: z.array(hostChange),
  removedHosts: z.array(hostChange),
});
