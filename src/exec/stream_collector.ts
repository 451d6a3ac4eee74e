/**
 * What a host run's output leaves in its observation, within bounds: the kept events (src/exec/kept_events.ts),
 * stderr lines up to {@linkcode MAX_KEPT_STDERR_LINES} (then a count, and a tail for the normaliser's end),
 * violations up to {@linkcode MAX_KEPT_VIOLATIONS}, stdout's line and byte counts, and the violations a line
 * itself raises (over the line limit, invalid UTF-8).
 *
 * @module
 */
import type { NormalizedEvent } from "../normalize/events.ts";
import { KeptEvents } from "./kept_events.ts";
import type { Line } from "./line_reader.ts";
import type { Observation, Violation } from "./observation.ts";

/**
 * Most stderr lines and violations an observation keeps. A hostile host can print millions of lines; past
 * these caps (and those of events and raw lines, src/exec/kept_events.ts) the executor still reads,
 * normalises and passes every line to the callbacks (and still stops at the terminal event), but keeps only
 * a count, so the harness's memory stays bounded.
 */
export const MAX_KEPT_STDERR_LINES = 2_000;
/** See {@linkcode MAX_KEPT_STDERR_LINES}. */
export const MAX_KEPT_VIOLATIONS = 100;

/** The stderr lines the normaliser's end sees (`stderrTail`). */
const TAIL_LINES = 20;

/** Collects one run's output for its observation. */
export class StreamCollector {
  readonly kept = new KeptEvents();
  /** The host's stderr lines, with a `[result] …` line for each unsuccessful terminal. */
  readonly stderr: string[] = [];
  /** The host's own stderr lines. */
  readonly hostStderr: string[] = [];
  readonly violations: Violation[] = [];
  /** Stderr lines and violations not kept; the events' counts are `kept`'s. */
  readonly dropped = { stderrLines: 0, violations: 0 };
  stdoutLines = 0;
  stdoutBytes = 0;
  #stderrLines = 0;
  /** The latest stderr lines past the cap (between `TAIL_LINES` and twice that many). */
  #overflowTail: string[] = [];
  readonly #maxLineBytes: number;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Keeps `violation` unless {@linkcode MAX_KEPT_VIOLATIONS} are kept already (then counts it). */
  violate(violation: Violation): void {
    if (this.violations.length < MAX_KEPT_VIOLATIONS) this.violations.push(violation);
    else this.dropped.violations++;
  }

  /** Counts a stdout line (read or drained). */
  countStdout(line: Line): void {
    this.stdoutLines++;
    this.stdoutBytes += line.bytes + 1;
  }

  /**
   * The violations of the stdout line just counted; whether its text may be normalised (a line over the limit
   * was cut, and is not).
   */
  checkStdout(line: Line): boolean {
    const number = this.stdoutLines;
    if (line.tooLong) {
      this.violate({
        kind: "line_too_long",
        stream: "stdout",
        line: number,
        message: `stdout line ${number} is ${line.bytes} bytes, over the ${this.#maxLineBytes}-byte limit`,
      });
      return false;
    }
    if (line.invalidUtf8) {
      this.violate({
        kind: "invalid_utf8",
        stream: "stdout",
        line: number,
        message: `stdout line ${number} is not valid UTF-8 (bad bytes replaced with U+FFFD)`,
      });
    }
    return true;
  }

  /** Counts, checks and keeps (within the cap) a stderr line. */
  stderrLine(line: Line): void {
    const number = ++this.#stderrLines;
    if (line.tooLong || line.invalidUtf8) {
      this.violate({
        kind: line.tooLong ? "line_too_long" : "invalid_utf8",
        stream: "stderr",
        line: number,
        message: line.tooLong
          ? `stderr line ${number} is ${line.bytes} bytes, over the ${this.#maxLineBytes}-byte limit`
          : `stderr line ${number} is not valid UTF-8 (bad bytes replaced with U+FFFD)`,
      });
    }
    if (this.hostStderr.length < MAX_KEPT_STDERR_LINES) {
      this.hostStderr.push(line.text);
      this.stderr.push(line.text);
    } else {
      this.dropped.stderrLines++;
      this.#overflowTail.push(line.text);
      if (this.#overflowTail.length > 2 * TAIL_LINES) {
        this.#overflowTail = this.#overflowTail.slice(-TAIL_LINES);
      }
    }
  }

  /** Keeps an event; an unsuccessful terminal also leaves a `[result]` line in `stderr`. */
  keep(event: NormalizedEvent): void {
    this.kept.add(event);
    if (event.kind === "terminal" && event.status !== "success") {
      this.stderr.push(`[result] ${event.result || event.reason || event.status}`);
    }
  }

  /** The last stderr lines, newline-joined: the latest past the cap when lines were dropped. */
  stderrTail(): string {
    const lines = this.dropped.stderrLines > 0 ? this.#overflowTail : this.hostStderr;
    return lines.slice(-TAIL_LINES).join("\n");
  }

  /** The observation of the run, from this output and how the run ended. */
  observation(
    host: string,
    started: number,
    end: Pick<
      Observation,
      "exitCode" | "signal" | "resultSeen" | "stopped" | "killed" | "pgid" | "groupGone" | "spawnError"
    >,
  ): Observation {
    const events = this.kept.events;
    const text = events.flatMap((event) => event.kind === "text" ? [event.text] : []).join("\n");
    return {
      host,
      stderr: this.stderr,
      hostStderr: this.hostStderr,
      violations: this.violations,
      stdoutLines: this.stdoutLines,
      stdoutBytes: this.stdoutBytes,
      ...end,
      events,
      dropped: { events: this.kept.dropped, rawLines: this.kept.rawDropped, ...this.dropped },
      kinds: events.map((event) => event.kind),
      text: text === "" ? [] : text.split("\n"),
      durationMs: Math.round(performance.now() - started),
    };
  }
}
