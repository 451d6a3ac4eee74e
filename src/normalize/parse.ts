/**
 * Normalising a recorded stream offline: what `conformance parse --host H FILE` prints. The same normaliser
 * the executor uses runs over the file's lines (split on `\n` only: U+2028/U+2029 are legal inside JSON
 * strings), then its end-of-stream rule runs with the exit code and stderr, when known.
 *
 * The host is passed as `{ name, dialect }` (a registry runner fits) so this module imports no concrete host.
 *
 * @module
 */
import type { DraftEvent, NormalizedEvent } from "./events.ts";
import { normalizerFor } from "./mod.ts";

/** What is known about the recorded run besides its stdout. */
export interface ParseOptions {
  /** The host's argv (some dialects read the model from it). */
  argv?: readonly string[];
  /** The exit code, when recorded; `null` when the process was killed. Default 0. */
  exitCode?: number | null;
  signal?: string | null;
  /** The recorded stderr, for dialects whose EOF terminal quotes it. */
  stderr?: string;
}

/** A normaliser over a recorded stdout, fed line by line as it is read. */
export interface StreamParser {
  /** The events of one line (without its `\n`). */
  line(text: string): NormalizedEvent[];
  /** The events of the end of the stream (its end-of-stream rule, with the recorded exit). */
  end(): NormalizedEvent[];
}

/**
 * A parser that normalises a recorded stdout line by line, numbering events across the stream, so a file of
 * any size is parsed in bounded memory (`conformance parse` streams its input through it).
 *
 * @example
 * ```ts
 * import { streamParser } from "./parse.ts";
 * const parser = streamParser({ name: "gemini", dialect: "gemini" });
 * parser.line('{"type":"init","model":"m"}')[0]?.kind; // "init"
 * parser.end(); // the terminal the dialect's end rule gives, if any
 * ```
 */
export function streamParser(
  host: { readonly name: string; readonly dialect: string },
  options: ParseOptions = {},
): StreamParser {
  const normalizer = normalizerFor(host.dialect)({ argv: options.argv ?? [] });
  let seq = 0;
  const stamp = (drafts: DraftEvent[]) =>
    drafts.map((draft) => ({ ...draft, host: host.name, seq: seq++ }) as NormalizedEvent);
  return {
    line: (text) => stamp(normalizer.line(text)),
    end: () => {
      const stderr = options.stderr ?? "";
      return stamp(normalizer.end({
        exitCode: options.exitCode === undefined ? 0 : options.exitCode,
        signal: options.signal ?? null,
        stderrTail: stderr.split("\n").slice(-20).join("\n"),
      }));
    },
  };
}

/**
 * Normalises a whole recorded stdout.
 *
 * @example
 * ```ts
 * import { parseStream } from "./parse.ts";
 * const events = parseStream({ name: "gemini", dialect: "gemini" }, '{"type":"init","model":"m"}\n');
 * events[0]?.kind; // "init"
 * ```
 */
export function parseStream(
  host: { readonly name: string; readonly dialect: string },
  text: string,
  options: ParseOptions = {},
): NormalizedEvent[] {
  const parser = streamParser(host, options);
  const events: NormalizedEvent[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === "" && newline === -1) break;
    events.push(...parser.line(line));
  }
  events.push(...parser.end());
  return events;
}

/** One JSON object per line, as `conformance parse` prints them. */
export function eventsToJsonLines(events: readonly NormalizedEvent[]): string {
  return events.map((event) => JSON.stringify(event)).join("\n") + (events.length > 0 ? "\n" : "");
}
