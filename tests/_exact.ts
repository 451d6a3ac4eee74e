/**
 * The exact comparison the end-to-end gates judge by. `compare()` (src/outcome.ts) is the run's rule: a SKIP or
 * a WARN where PASS is expected fails nothing, so a gate judged by it let a PASS that became a SKIP or a WARN
 * through. A gate instead names every result it expects: the status the host's expectations list, else the one
 * its own table gives (a SKIP for a control the host lacks, an INFO, with the words its message must carry),
 * else PASS; any other status is a mismatch, and so is a table row for a test that did not run.
 *
 * @module
 */
import { type ExpectationSet, expectedStatus } from "../src/expectations.ts";
import type { Outcome, Status } from "../src/outcome.ts";

/** A status a gate expects that no expectations file lists, and the words its message must carry. */
export interface GateRow {
  /** The one status, or several (a result known to go either way). */
  readonly status: Status | readonly Status[];
  /** Words the result's message must contain: what the SKIP or INFO is about. */
  readonly because: string;
}

/** What an expectations file lists for a test: the statuses and why. */
export interface Listed {
  readonly statuses: readonly Status[];
  readonly reason?: string;
}

/** Options of {@linkcode exactMismatches}. */
export interface ExactGate {
  /** The results, by test id. */
  readonly outcomes: ReadonlyMap<string, Outcome>;
  /** What the host's expectations list for a test, or `undefined` (then PASS, unless the table says). */
  readonly listed: (test: string) => Listed | undefined;
  /** The gate's own rows: statuses no expectations file lists. */
  readonly table?: Readonly<Record<string, GateRow>>;
}

/**
 * Every result that is not exactly what the gate expects, one line each (empty when all match): a status
 * outside the expected ones, a non-PASS without a message, a table row whose words the message lacks, a table
 * row for a test that did not run.
 *
 * @example
 * ```ts
 * import { exactMismatches } from "./_exact.ts";
 * exactMismatches({
 *   outcomes: new Map([["a", { status: "SKIP", message: "no control" }]]),
 *   listed: () => undefined,
 * }); // ["a: SKIP (no control), expected PASS"]
 * ```
 */
export function exactMismatches(gate: ExactGate): string[] {
  const table = gate.table ?? {};
  const wrong: string[] = [];
  for (const [test, outcome] of gate.outcomes) {
    const message = (outcome.message ?? "").trim();
    const seen = `${test}: ${outcome.status}${message ? ` (${message})` : ""}`;
    const listed = gate.listed(test);
    const row = table[test];
    const rowStatuses = row === undefined ? [] : typeof row.status === "string" ? [row.status] : row.status;
    const expected = [...listed?.statuses ?? [], ...rowStatuses];
    if (expected.length === 0) expected.push("PASS");
    if (!expected.includes(outcome.status)) {
      wrong.push(`${seen}, expected ${expected.join(" or ")}${listed?.reason ? `: ${listed.reason}` : ""}`);
      continue;
    }
    if (outcome.status !== "PASS" && message === "") wrong.push(`${seen} without a reason`);
    if (
      row && outcome.status !== "PASS" && rowStatuses.includes(outcome.status) &&
      !message.includes(row.because)
    ) {
      wrong.push(`${seen}: the gate expects its message to say "${row.because}"`);
    }
  }
  for (const test of Object.keys(table)) {
    if (!gate.outcomes.has(test)) wrong.push(`${test}: in the gate's table but it did not run`);
  }
  return wrong;
}

/** The `listed` of {@linkcode ExactGate} for `host`: what its expectations file lists for a test, with why. */
export function listedIn(
  expectations: ReadonlyMap<string, ExpectationSet>,
  host: string,
): (test: string) => Listed | undefined {
  return (test) => {
    const expected = expectedStatus(expectations, host, test);
    return expected.reason === undefined
      ? undefined
      : { statuses: expected.statuses ?? [expected.status], reason: expected.reason };
  };
}
