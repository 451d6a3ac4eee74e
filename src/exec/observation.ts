/**
 * What the executor saw of one host run, the record every CLI tier asserts on, and helpers that turn a
 * mismatch into a message quoting expected and actual event kinds and the first index where they diverge.
 *
 * @module
 */
import type { EventKind, NormalizedEvent } from "../normalize/events.ts";

/** Why the executor stopped a run early. */
export type StopReason = "wall" | "idle" | "abort";

/** A contract violation the executor saw in the byte stream itself (not in the events). */
export interface Violation {
  /** What went wrong. */
  readonly kind: "line_too_long" | "invalid_utf8" | "group_survived" | "group_escaped" | "spawn_failed";
  /** Where it was seen: a stream, or the process group. */
  readonly stream: "stdout" | "stderr" | "process";
  /** 1-based line number within its stream, when it is about a line. */
  readonly line?: number;
  /** One line saying what was seen. */
  readonly message: string;
}

/** One run of a host, as observed. */
export interface Observation {
  /** The host id. */
  readonly host: string;
  /**
   * The normalised events, in order, as far as they fit (src/exec/kept_events.ts): of a stream under 10 000
   * events and 1 MiB of stdout, every event exactly as normalised; of a longer one the first events (past
   * 1 MiB without their `raw` line, but for the first `unparsed` one) and the terminal.
   */
  readonly events: readonly NormalizedEvent[];
  /** `events.map((e) => e.kind)`. */
  readonly kinds: readonly EventKind[];
  /** The assistant text, split into lines (what an orchestrator would print). */
  readonly text: readonly string[];
  /** Host stderr lines, plus one `[result] <message>` marker line when the terminal status is an error. */
  readonly stderr: readonly string[];
  /** Host stderr lines only. */
  readonly hostStderr: readonly string[];
  /** How many stdout lines were read. */
  readonly stdoutLines: number;
  /** How many stdout bytes were read. */
  readonly stdoutBytes: number;
  /** The process exit code, or `null` when a signal ended it or it never started. */
  readonly exitCode: number | null;
  /** The signal that ended the process, or `null` when it exited. */
  readonly signal: Deno.Signal | null;
  /**
   * `true` when the host's own terminal event ended the stream (event-terminal hosts), `false` when the
   * stream reached EOF without one, `null` when the run was stopped (timeout or abort).
   */
  readonly resultSeen: boolean | null;
  /** Set when the executor stopped the run. */
  readonly stopped: StopReason | null;
  /** Whether the executor had to signal the process group. */
  readonly killed: boolean;
  /** Every contract violation the executor saw, in order (capped). */
  readonly violations: readonly Violation[];
  /** The child's process group id (== its pid), or `null` when it never started. */
  readonly pgid: number | null;
  /** Whether the process group was verified gone when the run ended. */
  readonly groupGone: boolean;
  /** From spawn to the group verified gone. */
  readonly durationMs: number;
  /** Why the spawn failed, or `null`. */
  readonly spawnError: string | null;
  /**
   * What the executor read but did not keep, to bound its memory (src/exec/kept_events.ts and
   * `MAX_KEPT_STDERR_LINES` in `stream_collector.ts`): events past the caps (never the terminal), kept events whose
   * `raw` line was not kept (their `raw` is `null`), stderr lines past the cap, violations past the cap.
   */
  readonly dropped: {
    readonly events: number;
    readonly rawLines: number;
    readonly stderrLines: number;
    readonly violations: number;
  };
}

/** The index where two kind lists first differ, or -1 when they are equal. */
export function firstDivergence(expected: readonly string[], actual: readonly string[]): number {
  const length = Math.max(expected.length, actual.length);
  for (let index = 0; index < length; index++) {
    if (expected[index] !== actual[index]) return index;
  }
  return -1;
}

/**
 * A failure message for a kinds mismatch, or `null` when the lists match.
 *
 * @example
 * ```ts
 * import { kindsMismatch } from "./observation.ts";
 * kindsMismatch(["init", "terminal"], ["init"]);
 * // 'expected kinds [init, terminal], got [init]: first divergence at index 1 (expected "terminal", got nothing)'
 * ```
 */
export function kindsMismatch(expected: readonly string[], actual: readonly string[]): string | null {
  const index = firstDivergence(expected, actual);
  if (index < 0) return null;
  const at = (list: readonly string[]) => list[index] === undefined ? "nothing" : `"${list[index]}"`;
  return `expected kinds [${expected.join(", ")}], got [${
    actual.join(", ")
  }]: first divergence at index ${index} ` +
    `(expected ${at(expected)}, got ${at(actual)})`;
}

/** The observation as plain JSON for report details: everything but the raw events. */
export function summarizeObservation(observation: Observation): Record<string, unknown> {
  const { events: _events, ...rest } = observation;
  return { ...rest, violations: [...observation.violations] };
}
