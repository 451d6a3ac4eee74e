/**
 * A host run's deadlines turned into one stop reason: the wall-clock timeout, the idle timeout (silence on
 * stdout and stderr; before the first byte the startup timeout), the caller's abort signal, or an abort from a
 * callback. The first to fire is the reason; after the stream has ended only an abort still counts (it cuts
 * the post-terminal grace short).
 *
 * @module
 */
import type { StopReason } from "./observation.ts";

/** Options of {@linkcode StopClock}. Times are in milliseconds. */
export interface StopClockOptions {
  readonly wallTimeoutMs: number;
  /** `Infinity`: no idle timeout. */
  readonly idleTimeoutMs: number;
  /** Allowed silence before the first byte. Default: the idle timeout. */
  readonly startupTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** Times one run; disposing it clears its timers and its abort listener. */
export class StopClock implements Disposable {
  /** Why the run was stopped, or `null` while it was not. */
  reason: StopReason | null = null;
  /** Resolves with `"stop"` when a stop is requested. */
  readonly requested: Promise<"stop">;
  #streamDone = false;
  #resolve!: () => void;
  #lastByte = performance.now();
  #anyByte = false;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.stop("abort");
  readonly #wallTimer: ReturnType<typeof setTimeout>;
  readonly #idleTimer: ReturnType<typeof setInterval> | undefined;

  constructor(options: StopClockOptions) {
    this.requested = new Promise<"stop">((resolve) => this.#resolve = () => resolve("stop"));
    this.#signal = options.signal;
    if (options.signal?.aborted) this.stop("abort");
    options.signal?.addEventListener("abort", this.#onAbort, { once: true });
    this.#wallTimer = setTimeout(() => this.stop("wall"), options.wallTimeoutMs);
    const { idleTimeoutMs } = options;
    const startupMs = options.startupTimeoutMs ?? idleTimeoutMs;
    this.#idleTimer = Number.isFinite(idleTimeoutMs)
      ? setInterval(() => {
        const allowed = this.#anyByte ? idleTimeoutMs : startupMs;
        if (performance.now() - this.#lastByte > allowed) this.stop("idle");
      }, Math.max(10, Math.min(200, idleTimeoutMs / 5)))
      : undefined;
  }

  /** Requests a stop for `why`, unless one was requested already (or the stream is over and `why` is no abort). */
  stop(why: StopReason): void {
    if (this.reason !== null || (this.#streamDone && why !== "abort")) return;
    this.reason = why;
    this.#resolve();
  }

  /** Notes a byte on stdout or stderr: the idle clock starts again. */
  onBytes(): void {
    this.#lastByte = performance.now();
    this.#anyByte = true;
  }

  /** The stream is over (terminal event or EOF): from now on only an abort stops the run. */
  streamEnded(): void {
    this.#streamDone = true;
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#wallTimer);
    clearInterval(this.#idleTimer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
  }
}
