/**
 * Waits that end with the run: a browser host's launches, renders and teardowns race the run's abort signal,
 * so that Ctrl-C or SIGTERM is honoured at once in every phase instead of after a page's own timeout.
 *
 * @module
 */

/**
 * Settles as `work` does, or rejects with `reason()` as soon as `signal` aborts (at once when it already
 * has). `work` is left to finish on its own; its later rejection is handled, never unhandled.
 *
 * @example
 * ```ts
 * import { untilAborted } from "./abort.ts";
 * const controller = new AbortController();
 * const slow = new Promise<string>((resolve) => setTimeout(() => resolve("late"), 1_000));
 * const waiting = untilAborted(slow, controller.signal, () => new Error("aborted"));
 * controller.abort();
 * await waiting.catch((error) => console.log(error.message)); // "aborted"
 * await slow;
 * ```
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  reason: () => Error,
): Promise<T> {
  work.catch(() => {});
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Waits for `work`, but no longer than `graceMs` once `signal` has aborted (counted from the abort, or from
 * now when it already has), and no longer than `capMs` in any case when given. Resolves to whether `work`
 * finished; its rejection counts as finished and is swallowed. Leaves no timer or listener behind.
 *
 * @example
 * ```ts
 * import { settleWithin } from "./abort.ts";
 * const finished = await settleWithin(Promise.resolve(), new AbortController().signal, 200);
 * console.log(finished); // true
 * ```
 */
export async function settleWithin(
  work: Promise<unknown>,
  signal: AbortSignal | undefined,
  graceMs: number,
  capMs?: number,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cap: ReturnType<typeof setTimeout> | undefined;
  const { promise: expired, resolve: expire } = Promise.withResolvers<false>();
  const onAbort = () => {
    clearTimeout(timer);
    timer = setTimeout(() => expire(false), graceMs);
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  if (capMs !== undefined) cap = setTimeout(() => expire(false), capMs);
  try {
    return await Promise.race([work.then(() => true, () => true), expired]);
  } finally {
    clearTimeout(timer);
    clearTimeout(cap);
    signal?.removeEventListener("abort", onAbort);
  }
}
