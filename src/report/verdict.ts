/**
 * How each result stands against its expectation, said in words, for every report: the JSON report writes it
 * per result (`verdict`, `matched`, `why`, `expectationReason`), and sums it in `summary` (`unexpected`,
 * `stale`, `verdict`), so a reader of the file need not re-implement {@linkcode compare}'s rules; the HTML
 * report and the board use the same words.
 *
 * - `as-expected`: PASS, or a status that never fails a run (SKIP, WARN or INFO where nothing failing is
 *   listed);
 * - `known`: a non-PASS status the host's expectations list (a known finding, with its reason);
 * - `unexpected`: a failure nobody listed, or another one than listed; the run exits 1;
 * - `stale`: a PASS where the expectations list a failure; the entry must go, and the run exits 1.
 *
 * @module
 */
import { compare, expectedLabel, type TestResult } from "../outcome.ts";

/** One of the four standings; see the module doc. */
export type Verdict = "as-expected" | "known" | "unexpected" | "stale";

/** A result's standing, as the JSON report writes it. */
export interface Judgement {
  /** The standing. */
  readonly verdict: Verdict;
  /** Whether the result matched its expectation: `as-expected` and `known` did, and fail nothing. */
  readonly matched: boolean;
  /** One sentence: why the result stands so. */
  readonly why: string;
}

/** What a standing is judged from: the status and what was expected. */
export type Judged = Pick<TestResult, "status" | "expected" | "expectedAny">;

/**
 * The standing of `result`.
 *
 * @example
 * ```ts
 * import { judge } from "./verdict.ts";
 * judge({ status: "SKIP", expected: "PASS" }).why;
 * // "SKIP where PASS is expected: the test could not apply here, which fails nothing"
 * judge({ status: "FAIL", expected: "FAIL" }).verdict; // "known"
 * ```
 */
export function judge(result: Judged): Judgement {
  const compared = compare(result);
  const listed = result.expectedAny ?? [result.expected];
  const label = expectedLabel(result);
  const nothingListed = result.expectedAny === undefined && result.expected === "PASS";
  const where = nothingListed ? "where PASS is expected (nothing is listed)" : `where ${label} is listed`;
  if (compared === "stale") {
    return {
      verdict: "stale",
      matched: false,
      why:
        `PASS where the expectations list ${label}: the entry is stale; remove it or run --update-expectations`,
    };
  }
  if (compared === "unexpected") {
    return { verdict: "unexpected", matched: false, why: `${result.status} ${where}` };
  }
  const { status } = result;
  if (status !== "PASS" && status !== "INFO" && listed.includes(status) && !nothingListed) {
    return { verdict: "known", matched: true, why: `${status} is listed in the host's expectations` };
  }
  const why = status === "PASS"
    ? nothingListed ? "PASS, as expected of every test nothing is listed for" : `PASS is among ${label}`
    : status === "INFO"
    ? "INFO is never unexpected: it breaks no obligation"
    : status === "SKIP"
    ? listed.includes("PASS")
      ? `SKIP ${where}: the test could not apply here, which fails nothing`
      : `SKIP ${where}: a listed failure whose test could not run says nothing either way`
    : `WARN ${where}: a SHOULD broken fails nothing`;
  return { verdict: "as-expected", matched: true, why };
}

/** The expectation's reason, as the engine records it in `details.expectationReason`, or `undefined`. */
export function expectationReason(result: Pick<TestResult, "details">): string | undefined {
  const reason = result.details.expectationReason;
  return typeof reason === "string" && reason.trim() !== "" ? reason : undefined;
}

/**
 * The run's overall standing: `fail` when a result did not match, else `incomplete` when the run was
 * interrupted (some tests were never judged), else `pass`.
 */
export type RunVerdict = "pass" | "fail" | "incomplete";

/** Counts of the standings, and the run's verdict, as `summary` carries them. */
export interface VerdictCounts {
  /** Results that did not match their expectation (failures nobody listed, or other ones). */
  readonly unexpected: number;
  /** PASS results where a failure is listed. */
  readonly stale: number;
  /** Results that matched a listed non-PASS status. */
  readonly known: number;
  /** The run's standing. */
  readonly verdict: RunVerdict;
}

/**
 * The standings of a run's results: how many are unexpected, stale and known, and the run's verdict.
 */
export function verdictCounts(results: readonly Judged[], incomplete = false): VerdictCounts {
  let unexpected = 0;
  let stale = 0;
  let known = 0;
  for (const result of results) {
    const { verdict } = judge(result);
    if (verdict === "unexpected") unexpected++;
    else if (verdict === "stale") stale++;
    else if (verdict === "known") known++;
  }
  const verdict = unexpected + stale > 0 ? "fail" : incomplete ? "incomplete" : "pass";
  return { unexpected, stale, known, verdict };
}
