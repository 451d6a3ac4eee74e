/**
 * A bounded line reader: splits a byte stream on `\n` only (U+2028/U+2029 are legal inside JSON strings),
 * never buffering more than the line limit. A longer line is reported once, with its size and a short
 * preview, and its bytes are dropped; invalid UTF-8 is replaced with U+FFFD and flagged.
 *
 * @module
 */

/** The default longest line the executor accepts: 8 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

const PREVIEW_BYTES = 200;

/** One line of a stream, without its `\n` (a trailing `\r` is kept: it is part of the host's bytes). */
export interface Line {
  /** The decoded line, or a short preview when `tooLong`. */
  readonly text: string;
  /** The line's size in bytes, excluding the newline. */
  readonly bytes: number;
  /** The line exceeded the limit; `text` is only its first bytes. */
  readonly tooLong: boolean;
  /** The line was not valid UTF-8; `text` has U+FFFD in place of the bad bytes. */
  readonly invalidUtf8: boolean;
}

/** Options of {@linkcode readLines}. */
export interface ReadLinesOptions {
  /** Longest line kept, in bytes. */
  readonly maxLineBytes?: number;
  /** Called for every chunk read (e.g. to track the time of the last byte). */
  readonly onBytes?: (count: number) => void;
  /** Aborting it cancels the stream: a pending read ends as EOF. */
  readonly signal?: AbortSignal;
}

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

function decode(bytes: Uint8Array): { text: string; invalidUtf8: boolean } {
  try {
    return { text: strict.decode(bytes), invalidUtf8: false };
  } catch {
    return { text: lenient.decode(bytes), invalidUtf8: true };
  }
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/**
 * Reads `stream` as lines. A final line without a newline is yielded at EOF. Cancelling the iteration
 * (e.g. `break`) cancels the stream.
 *
 * @example
 * ```ts
 * import { readLines } from "./line_reader.ts";
 * const stream = ReadableStream.from([new TextEncoder().encode("a\nb")]);
 * for await (const line of readLines(stream)) console.log(line.text); // "a", then "b"
 * ```
 */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  options: ReadLinesOptions = {},
): AsyncGenerator<Line, void, undefined> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener("abort", cancel, { once: true });
  let parts: Uint8Array[] = [];
  let pending = 0;
  // While dropping an over-long line: its preview and its size so far.
  let dropping: { preview: Uint8Array; bytes: number } | null = null;
  const take = (segment: Uint8Array): Line => {
    if (dropping) {
      dropping.bytes += segment.length;
      const { preview, bytes } = dropping;
      dropping = null;
      return { text: lenient.decode(preview), bytes, tooLong: true, invalidUtf8: false };
    }
    const bytes = concat([...parts, segment], pending + segment.length);
    parts = [];
    pending = 0;
    if (bytes.length > max) {
      return {
        text: lenient.decode(bytes.subarray(0, PREVIEW_BYTES)),
        bytes: bytes.length,
        tooLong: true,
        invalidUtf8: false,
      };
    }
    return { ...decode(bytes), bytes: bytes.length, tooLong: false };
  };
  const hold = (rest: Uint8Array) => {
    if (rest.length === 0) return;
    if (dropping) {
      dropping.bytes += rest.length;
      return;
    }
    parts.push(rest);
    pending += rest.length;
    if (pending > max) {
      const whole = concat(parts, pending);
      dropping = { preview: whole.slice(0, PREVIEW_BYTES), bytes: pending };
      parts = [];
      pending = 0;
    }
  };
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      options.onBytes?.(value.length);
      let start = 0;
      for (let newline = value.indexOf(10); newline >= 0; newline = value.indexOf(10, start)) {
        const line = take(value.subarray(start, newline));
        start = newline + 1;
        yield line;
      }
      hold(value.subarray(start));
    }
    if (dropping || pending > 0) yield take(new Uint8Array(0));
  } finally {
    options.signal?.removeEventListener("abort", cancel);
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
