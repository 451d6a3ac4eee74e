/**
 * The CLI side's default deadlines, in one place: what a host run may take when its caller names no limit.
 * The executor (src/exec/executor.ts) fills unset options from this table, and the CLI tiers' `observe`
 * (suite/cli/observe.ts) scales the same values by `--timeout-multiplier`, so a library call and a
 * conformance run agree on every default. Times are in milliseconds, before any multiplier.
 *
 * The abort cap on the kill grace (`ABORT_KILL_GRACE_MS`) is not a default but a ceiling, and stays beside the
 * kill it bounds in src/exec/process_group.ts. The apps side's deadlines are in src/runner/deadlines.ts.
 *
 * @module
 */

/** The executor's deadlines when a caller leaves them out. */
export const CLI_DEADLINES: {
  /** Longest a whole host run may take. */
  readonly wallTimeoutMs: number;
  /**
   * Longest silence (no byte on stdout or stderr): none. The startup timeout (silence before the first
   * byte) defaults to this idle timeout, so silence from the spawn on counts as idle.
   */
  readonly idleTimeoutMs: number;
  /** After the terminal event or EOF, how long the host may take to exit before its group is killed. */
  readonly postStreamGraceMs: number;
  /** Between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  /** How long to poll for the group to be gone after the last signal. */
  readonly verifyGoneMs: number;
} = {
  wallTimeoutMs: 30_000,
  idleTimeoutMs: Infinity,
  postStreamGraceMs: 5_000,
  killGraceMs: 1_000,
  verifyGoneMs: 5_000,
};
