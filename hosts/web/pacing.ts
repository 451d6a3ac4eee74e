/**
 * {@linkcode Pacer}: a minimum gap between the interactions a host driver makes with a real product (prompts,
 * clicks, conversation reads), so a run stays well inside the product's rate limits. Local hosts use a gap
 * of zero.
 *
 * @module
 */
import { delay } from "../../src/time.ts";

/** The gap real products get unless told otherwise: 1.5 s between interactions. */
export const DEFAULT_PACE_MS = 1_500;

/**
 * The gap from `$CONFORMANCE_PACE_MS` when it holds a whole number of milliseconds, else `fallback`.
 *
 * @example
 * ```ts
 * import { paceFromEnv } from "./pacing.ts";
 * paceFromEnv(1_500); // 1500 unless CONFORMANCE_PACE_MS says otherwise
 * ```
 */
export function paceFromEnv(fallback: number = DEFAULT_PACE_MS): number {
  let raw: string | undefined;
  try {
    raw = Deno.env.get("CONFORMANCE_PACE_MS");
  } catch {
    return fallback;
  }
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 60_000) {
    throw new RangeError(
      `Invalid CONFORMANCE_PACE_MS "${raw}": give whole milliseconds between 0 and 60000`,
    );
  }
  return value;
}

/** Spaces interactions at least `gapMs` apart. */
export class Pacer {
  readonly gapMs: number;
  #last = 0;
  #count = 0;

  /** A pacer with a gap of `gapMs` milliseconds (0: no pacing). */
  constructor(gapMs: number) {
    if (!(gapMs >= 0)) throw new RangeError(`Invalid pacing gap ${gapMs}: give 0 or more milliseconds`);
    this.gapMs = gapMs;
  }

  /** How many interactions went through so far. */
  get count(): number {
    return this.#count;
  }

  /** Waits until the gap since the previous interaction has passed (or `signal` aborts), then counts one. */
  async step(signal?: AbortSignal): Promise<void> {
    const wait = this.#last + this.gapMs - Date.now();
    if (wait > 0) await delay(wait, signal);
    this.#last = Date.now();
    this.#count++;
  }
}

/** `null` when `$CONFORMANCE_PACE_MS` is absent or valid, else its one-line error (for a host's preflight). */
export function paceProblem(): string | null {
  try {
    paceFromEnv();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
