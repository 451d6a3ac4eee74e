/**
 * The outcome model: what a single conformance test can end as, and how a result compares with what was
 * expected of the host.
 *
 * - `PASS`: the obligation holds.
 * - `FAIL`: a MUST is broken (or a prerequisite the host claimed to have is missing: "not testable: …").
 * - `WARN`: a SHOULD is broken.
 * - `INFO`: a MAY not taken, or an observation that breaks no obligation: shown and counted, never
 *   unexpected. The test ran, so it is not a SKIP.
 * - `SKIP`: the test could not apply (capability unsupported, binary absent, live tier off); always
 *   with a reason.
 * - `TIMEOUT`: the host did not finish within the test's time limit.
 * - `ERROR`: the harness itself failed; never blamed on the host.
 *
 * @module
 */

/** Every status a result can have, in board order. */
export const STATUSES = ["PASS", "FAIL", "WARN", "INFO", "SKIP", "TIMEOUT", "ERROR"] as const;

/** One of {@linkcode STATUSES}. */
export type Status = typeof STATUSES[number];

/** Whether `value` is a {@linkcode Status}. */
export function isStatus(value: unknown): value is Status {
  return typeof value === "string" && (STATUSES as readonly string[]).includes(value);
}

/** What a test reports about itself; the engine adds host, test id, expectation and timing. */
export interface Outcome {
  /** The verdict. */
  status: Status;
  /** Why: required for everything but PASS. */
  message?: string;
  /** What was observed, for the report; JSON-serialisable. */
  details?: Record<string, unknown>;
}

/** One (host, test) result as it appears in every report. */
export interface TestResult {
  /** The host id. */
  host: string;
  /** The test id (`cli/<tier>/<name>`, `apps/<area>/<name>`). */
  test: string;
  /** The test's human name (the catalogue's, or a CLI test's description); absent in older reports. */
  title?: string;
  /** What the host did. */
  status: Status;
  /** What the expectations said this host would do; `PASS` when nothing is listed. */
  expected: Status;
  /**
   * Every status the expectation accepts, when it lists more than one (a known flaky host:
   * `status: [PASS, TIMEOUT]`); `expected` is the first of them. Absent for a single status.
   */
  expectedAny?: Status[];
  /** Why: empty for a plain PASS. */
  message: string;
  /** How long the test took. */
  durationMs: number;
  /** What was observed (artifacts, attempts, notes); JSON-serialisable. */
  details: Record<string, unknown>;
  /** Set when the result matched its expectation only on a retry (`--retries`): the test is flaky. */
  flaky?: true;
  /** How many times the test ran, when it ran more than once (`--retries`); absent for a single run. */
  attempts?: number;
}

/**
 * A planned test the run has no result for because it was interrupted (Ctrl-C, SIGTERM): it is never judged,
 * so it is neither a host's FAIL, ERROR or TIMEOUT nor matched against an expectation. The report lists it in
 * `run.interrupted`, and every format marks it.
 */
export interface InterruptedTest {
  /** The host id. */
  host: string;
  /** The test id. */
  test: string;
  /** The test's human name, when it has one other than its id. */
  title?: string;
  /** `true`: it was running when the run stopped (its result is dropped); `false`: it never began. */
  started: boolean;
}

/** A passing outcome. */
export function pass(details?: Record<string, unknown>): Outcome {
  return details ? { status: "PASS", details } : { status: "PASS" };
}

/** A broken MUST. */
export function fail(message: string, details?: Record<string, unknown>): Outcome {
  return details ? { status: "FAIL", message, details } : { status: "FAIL", message };
}

/** A broken SHOULD. */
export function warn(message: string, details?: Record<string, unknown>): Outcome {
  return details ? { status: "WARN", message, details } : { status: "WARN", message };
}

/** A MAY not taken, or an observation that breaks no obligation: shown and counted, never unexpected. */
export function info(message: string, details?: Record<string, unknown>): Outcome {
  return details ? { status: "INFO", message, details } : { status: "INFO", message };
}

/** A test that could not apply, with the reason. */
export function skip(reason: string, details?: Record<string, unknown>): Outcome {
  return details ? { status: "SKIP", message: reason, details } : { status: "SKIP", message: reason };
}

/** Statuses that count as a failure of the host when nothing else was expected. */
const FAILING: ReadonlySet<Status> = new Set(["FAIL", "TIMEOUT", "ERROR"]);

/** Whether a status counts as a failure when the expectation is PASS. */
export function isFailing(status: Status): boolean {
  return FAILING.has(status);
}

/**
 * How a result compares with its expectation.
 *
 * - `expected`: as expected (including SKIP and WARN when PASS was expected: neither fails a run). An INFO
 *   is always expected, whatever is listed: it breaks no obligation, so it can be neither a surprise nor the
 *   proof that a listed failure is gone (an expectations file cannot list INFO; it needs no entry).
 * - `unexpected`: a failure nobody listed, or a different failure than the one listed.
 * - `stale`: the expectation lists a failure but the test now passes; the expectation must go.
 *
 * An expectation listing several statuses (`expectedAny`) accepts any of them; a PASS is stale only when PASS
 * is not among them, and a status outside the list is judged as against PASS when PASS is listed.
 *
 * @example
 * ```ts
 * import { compare } from "./outcome.ts";
 * compare({ status: "PASS", expected: "FAIL" }); // "stale"
 * compare({ status: "INFO", expected: "PASS" }); // "expected"
 * compare({ status: "PASS", expected: "TIMEOUT", expectedAny: ["TIMEOUT", "PASS"] }); // "expected"
 * ```
 */
export function compare(
  result: Pick<TestResult, "status" | "expected" | "expectedAny">,
): "expected" | "unexpected" | "stale" {
  const { status } = result;
  const listed = result.expectedAny ?? [result.expected];
  if (listed.includes(status) || status === "INFO") return "expected";
  if (listed.includes("PASS")) return isFailing(status) ? "unexpected" : "expected";
  if (status === "PASS") return "stale";
  // A listed failure whose test could not run this time says nothing either way.
  if (status === "SKIP") return "expected";
  return "unexpected";
}

/**
 * What was expected of a result, for people: its status, or the listed statuses joined by "or".
 *
 * @example
 * ```ts
 * import { expectedLabel } from "./outcome.ts";
 * expectedLabel({ expected: "FAIL", expectedAny: ["FAIL", "TIMEOUT"] }); // "FAIL or TIMEOUT"
 * ```
 */
export function expectedLabel(result: Pick<TestResult, "expected" | "expectedAny">): string {
  return result.expectedAny?.join(" or ") ?? result.expected;
}

/** Counts per status, the `summary` block of the JSON report. */
export interface Summary {
  /** `PASS` results. */
  passed: number;
  /** `FAIL` results. */
  failed: number;
  /** `WARN` results. */
  warned: number;
  /** Absent from reports written before `INFO` existed; read such a report's count as 0. */
  info: number;
  /** `SKIP` results. */
  skipped: number;
  /** `TIMEOUT` results. */
  timedOut: number;
  /** `ERROR` results. */
  errored: number;
  /**
   * Results that matched their expectation only on a retry (`--retries`); each is also counted under its
   * status. Absent from reports written before retries existed; read such a report's count as 0.
   */
  flaky: number;
}

const SUMMARY_KEY: Record<Status, keyof Summary> = {
  PASS: "passed",
  FAIL: "failed",
  WARN: "warned",
  INFO: "info",
  SKIP: "skipped",
  TIMEOUT: "timedOut",
  ERROR: "errored",
};

/** Tallies results by status, and the flaky ones apart. */
export function summarize(results: Iterable<Pick<TestResult, "status" | "flaky">>): Summary {
  const summary: Summary = {
    passed: 0,
    failed: 0,
    warned: 0,
    info: 0,
    skipped: 0,
    timedOut: 0,
    errored: 0,
    flaky: 0,
  };
  for (const result of results) {
    summary[SUMMARY_KEY[result.status]]++;
    if (result.flaky === true) summary.flaky++;
  }
  return summary;
}
