/**
 * What an observation keeps of a host's events, bounded by bytes as well as by count: however long a stream
 * is, the executor still reads, normalises and hands every event to its callbacks, but keeps only what fits.
 *
 * - Events: at most {@linkcode MAX_KEPT_EVENTS}, and only while the stdout lines they came from total under
 *   {@linkcode MAX_KEPT_EVENT_BYTES} (an event is parsed from its line, so the line's size bounds what it
 *   holds). The terminal event is always kept.
 * - Raw lines: a kept event carries its `raw` stdout line only while the raw lines kept total under
 *   {@linkcode MAX_KEPT_RAW_BYTES}; past that its `raw` is `null`. The first `unparsed` event keeps its raw
 *   line in any case: it is the one line a failing check quotes (`suite/cli/behavior.ts`).
 *
 * So a stream of any length leaves at most about `MAX_KEPT_EVENT_BYTES + MAX_KEPT_RAW_BYTES` plus one line
 * (the longest) in the observation. A stream under the raw budget is kept exactly as normalised.
 *
 * @module
 */
import type { NormalizedEvent } from "../normalize/events.ts";

/** Most events an observation keeps (the terminal is kept beyond it). */
export const MAX_KEPT_EVENTS = 10_000;
/** Most bytes of stdout lines whose events are kept: past them events are counted, not kept (4 MiB). */
export const MAX_KEPT_EVENT_BYTES = 4 * 1024 * 1024;
/** Most bytes of raw stdout lines the kept events carry (1 MiB); past them `raw` is `null`. */
export const MAX_KEPT_RAW_BYTES = 1024 * 1024;

/** The events of one run as kept, with counts of what was not. */
export class KeptEvents {
  readonly events: NormalizedEvent[] = [];
  /** Events read but not kept. */
  dropped = 0;
  /** Kept events whose raw line was not kept. */
  rawDropped = 0;
  #lineBytes = 0;
  #rawBytes = 0;
  #quotedUnparsed = false;
  /** The stdout line whose events come next: its size, and whether it has been counted yet. */
  #line = { bytes: 0, counted: false, rawKept: false };

  /** Announces the stdout line (`bytes` long, without its newline) that the next events come from. */
  beginLine(bytes: number): void {
    this.#line = { bytes, counted: false, rawKept: false };
  }

  /** Keeps `event` if it fits (a terminal always does), without its raw line past the raw budget. */
  add(event: NormalizedEvent): void {
    const full = this.events.length >= MAX_KEPT_EVENTS || this.#lineBytes >= MAX_KEPT_EVENT_BYTES;
    if (full && event.kind !== "terminal") {
      this.dropped++;
      return;
    }
    if (event.raw === null) {
      this.events.push(event);
      return;
    }
    const line = this.#line;
    if (!line.counted) {
      this.#lineBytes += line.bytes;
      line.counted = true;
    }
    if (this.#keepsRaw(event)) this.events.push(event);
    else {
      this.rawDropped++;
      this.events.push({ ...event, raw: null });
    }
  }

  /** Whether `event`'s raw line is kept; events of one line share it, so it is counted once. */
  #keepsRaw(event: NormalizedEvent): boolean {
    const line = this.#line;
    const quote = event.kind === "unparsed" && !this.#quotedUnparsed;
    if (!line.rawKept) {
      if (this.#rawBytes >= MAX_KEPT_RAW_BYTES && !quote) return false;
      this.#rawBytes += line.bytes;
      line.rawKept = true;
    }
    if (event.kind === "unparsed") this.#quotedUnparsed = true;
    return true;
  }
}
