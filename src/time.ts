/**
 * The harness's vocabulary for time: {@linkcode delay} (a pause that ends early when the run stops),
 * {@linkcode pollUntil} (ask again until an answer, a deadline or an abort), {@linkcode raceDelay} (the first
 * of some promises, or "late") and {@linkcode scaled} (a deadline times `--timeout-multiplier`). None of them
 * leaves a timer or a listener behind once it has settled, so a library caller's program is never kept alive
 * by a finished wait.
 *
 * Waits that race a piece of work against the run's abort signal (rather than against a clock) are in
 * src/runner/abort.ts (`untilAborted`, `settleWithin`).
 *
 * This module uses no Deno API: the in-iframe suite (suite/apps/) is bundled for the browser and uses it too.
 *
 * @module
 */

/**
 * Resolves after `ms` milliseconds, or at once when `signal` aborts (or already has). It never rejects: a
 * caller that must tell an abort from the end of the pause checks `signal.aborted` afterwards. The timer and
 * the abort listener are removed however it ends.
 *
 * @example
 * ```ts
 * import { delay } from "./time.ts";
 * const controller = new AbortController();
 * const pause = delay(60_000, controller.signal);
 * controller.abort();
 * await pause; // at once, not after a minute
 * ```
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** Options of {@linkcode pollUntil}. Times are in milliseconds. */
export interface PollOptions {
  /** How long to keep asking, counted from the call. The check runs at least once, even with 0. */
  readonly timeoutMs: number;
  /** The pause between two checks (shortened so that the last one does not overshoot the deadline). */
  readonly intervalMs: number;
  /** Aborting it ends the polling at once, as a timeout does. */
  readonly signal?: AbortSignal | undefined;
}

/** What a check answers when it has nothing yet: {@linkcode pollUntil} asks again. */
export type NotYet = undefined | null | false;

/**
 * Calls `check` until it answers something other than `undefined`, `null` or `false`, and resolves to that
 * answer; resolves to `undefined` when the deadline passes or `signal` aborts first (the caller words its own
 * timeout). `check` runs once at the start, then after every pause; a check that throws rejects the poll.
 *
 * @example
 * ```ts
 * import { pollUntil } from "./time.ts";
 * const started = Date.now();
 * const later = await pollUntil(() => Date.now() - started >= 30 && "ready", { timeoutMs: 1_000, intervalMs: 10 });
 * console.log(later); // "ready"
 * ```
 */
export async function pollUntil<T>(
  check: () => T | NotYet | Promise<T | NotYet>,
  options: PollOptions,
): Promise<T | undefined> {
  const deadline = performance.now() + options.timeoutMs;
  for (let last = false;;) {
    const answer = await check();
    if (answer !== undefined && answer !== null && answer !== false) return answer;
    const left = deadline - performance.now();
    // The pause that reaches the deadline is the last: a timer that fires a little early (they do, by a
    // fraction of a millisecond) must not buy one more check.
    if (last || left <= 0 || options.signal?.aborted) return undefined;
    last = left <= options.intervalMs;
    await delay(Math.min(options.intervalMs, left), options.signal);
  }
}

/**
 * The first of `racers` to settle, or `"late"` after `ms`. The timer is cleared once the race is decided: left
 * running, it would keep a library caller's program alive for up to `ms` after the race.
 *
 * @example
 * ```ts
 * import { raceDelay } from "./time.ts";
 * const never = new Promise<string>(() => {});
 * console.log(await raceDelay([never], 10)); // "late"
 * ```
 */
export async function raceDelay<T>(racers: readonly Promise<T>[], ms: number): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), ms));
  try {
    return await Promise.race([...racers, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A deadline of `ms` under `--timeout-multiplier` `multiplier`: `ms * multiplier` (`Infinity` stays
 * `Infinity`). Throws a `RangeError` for a multiplier that is not a positive finite number; the CLI refuses
 * such a value (cli/run_options.ts) before it gets here.
 *
 * @example
 * ```ts
 * import { scaled } from "./time.ts";
 * console.log(scaled(5_000, 1.5)); // 7500
 * ```
 */
export function scaled(ms: number, multiplier: number): number {
  if (!Number.isFinite(multiplier) || multiplier <= 0) {
    throw new RangeError(`timeout multiplier must be a positive number, got ${multiplier}`);
  }
  return ms * multiplier;
}
