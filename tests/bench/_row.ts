/**
 * One row of the `deno task bench` table (tests/bench/bench.ts), shared by the modules that measure a group of
 * rows, so none of them imports the bench itself.
 *
 * @module
 */

/** One line of the table. */
export interface BenchRow {
  readonly figure: string;
  /** The measured value with its unit, or `not measured`. */
  readonly value: string;
  readonly target: string;
  /** Whether the target is met; `null` when there is no target or no figure. */
  readonly met: boolean | null;
  readonly note: string;
}
