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
  const normalizer = normalizerFor(host.dialect)({ argv: options.argv ?? [] });
  const events: NormalizedEvent[] = [];
  const push = (drafts: DraftEvent[]) => {
    for (const draft of drafts) {
      events.push({ ...draft, host: host.name, seq: events.length } as NormalizedEvent);
    }
  };
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === "" && newline === -1) break;
    push(normalizer.line(line));
  }
  const stderr = options.stderr ?? "";
  push(normalizer.end({
    exitCode: options.exitCode === undefined ? 0 : options.exitCode,
    signal: options.signal ?? null,
    stderrTail: stderr.split("\n").slice(-20).join("\n"),
  }));
  return events;
}

/** One JSON object per line, as `conformance parse` prints them. */
export function eventsToJsonLines(events: readonly NormalizedEvent[]): string {
  return events.map((event) => JSON.stringify(event)).join("\n") + (events.length > 0 ? "\n" : "");
}
