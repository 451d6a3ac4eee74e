/**
 * {@linkcode FrameSuiteBridge}: the Runner's {@linkcode SuiteBridge} over Playwright's `frame.evaluate`, and the
 * search that finds the View's frame at any depth (host page → sandbox proxy → View, across out-of-process
 * frames).
 *
 * @module
 */
import type { Frame, Page } from "playwright-core";
import type { CapabilityResult, StartFilter, SuitePoll, TestMeta } from "../protocol.ts";
import type { PollMark, SuiteBridge } from "./host.ts";
import { pollUntil } from "../time.ts";

/** How long {@linkcode findSuiteFrame} looks before giving up. */
export interface FindSuiteFrameOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Between scans. */
  readonly intervalMs?: number;
  /** Frames to pass over (e.g. a View that was just torn down). */
  readonly exclude?: ReadonlySet<Frame>;
  /** Stops looking when aborted. */
  readonly signal?: AbortSignal;
}

/** Whether the suite's channel is installed in `frame`; false for detached or navigating frames. */
async function hasChannel(frame: Frame): Promise<boolean> {
  if (frame.isDetached()) return false;
  try {
    return await frame.evaluate(() => typeof globalThis.__mcpConformance?.poll === "function");
  } catch {
    return false;
  }
}

/**
 * Finds the frame whose window carries `__mcpConformance`, at any depth. When several do (a remount in
 * progress), the deepest, most recently attached one wins.
 */
export async function findSuiteFrame(page: Page, options: FindSuiteFrameOptions): Promise<Frame> {
  const chosen = await pollUntil(async () => {
    const frames = page.frames().filter((frame) => !options.exclude?.has(frame));
    const found = await Promise.all(frames.map(hasChannel));
    return frames.filter((_, index) => found[index]).at(-1);
  }, { timeoutMs: options.timeoutMs, intervalMs: options.intervalMs ?? 50, signal: options.signal });
  if (chosen !== undefined) return chosen;
  if (options.signal?.aborted) throw new Error("Stopped looking for the suite frame: the run was aborted");
  throw new Error(
    `No frame with the conformance suite appeared within ${options.timeoutMs} ms ` +
      `(${page.frames().length} frames on ${page.url()}): the host did not render the app`,
  );
}

/** A {@linkcode SuiteBridge} into one frame. */
export class FrameSuiteBridge implements SuiteBridge {
  readonly #frame: Frame;

  /** Wraps a frame that carries the channel (see {@linkcode findSuiteFrame}). */
  constructor(frame: Frame) {
    this.#frame = frame;
  }

  /** The frame this bridge talks to (for clicks on the trigger). */
  get frame(): Frame {
    return this.#frame;
  }

  /** The suite's test list. */
  listTests(): Promise<TestMeta[]> {
    return this.#frame.evaluate(() => globalThis.__mcpConformance!.listTests());
  }

  /** Starts the suite; `null` runs everything. */
  async start(filter: StartFilter | null): Promise<void> {
    await this.#frame.evaluate((value) => globalThis.__mcpConformance!.start(value), filter);
  }

  /** One poll of the channel. */
  poll(): Promise<SuitePoll> {
    return this.#frame.evaluate(() => globalThis.__mcpConformance!.poll());
  }

  /** One poll once the suite's state differs from `seen`, or after `waitMs` (polled inside the View). */
  pollChange(seen: PollMark, waitMs: number): Promise<SuitePoll> {
    return this.#frame.evaluate(async ([mark, wait]) => {
      const channel = globalThis.__mcpConformance!;
      const end = performance.now() + wait;
      while (true) {
        const poll = channel.poll();
        if (poll.state !== "running" || performance.now() >= end) return poll;
        const request = poll.request === null ? "" : `${poll.requestSeq ?? ""}:${poll.request.kind}`;
        if (
          poll.results.length !== mark.results || poll.runningId !== mark.runningId ||
          request !== mark.request
        ) {
          return poll;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }, [seen, waitMs] as const);
  }

  /** Answers the pending request. */
  async resolve(result: CapabilityResult, seq?: number): Promise<void> {
    await this.#frame.evaluate(
      ([answer, sequence]) => globalThis.__mcpConformance!.resolve(answer, sequence ?? undefined),
      [result, seq ?? null] as const,
    );
  }

  /** Whether the frame is gone. */
  isDetached(): boolean {
    return this.#frame.isDetached();
  }
}
