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
// For a run of whole lines decoded at once: it keeps every U+FEFF, so each line can drop its own leading one,
// exactly as decoding the lines one by one does.
const strictKeepBom = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const BOM = 0xfeff;

function decode(bytes: Uint8Array): { text: string; invalidUtf8: boolean } {
  try {
    return { text: strict.decode(bytes), invalidUtf8: false };
  } catch {
    return { text: lenient.decode(bytes), invalidUtf8: true };
  }
}

/** `bytes` decoded in one call, or `null` when they are not valid UTF-8 (then lines are decoded one by one). */
function decodeRun(bytes: Uint8Array): string | null {
  try {
    return strictKeepBom.decode(bytes);
  } catch {
    return null;
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
  for await (const batch of readLineBatches(stream, options)) for (const line of batch) yield line;
}

/**
 * Reads `stream` as lines, handed over a chunk's worth at a time: the lines that end in one chunk of the
 * stream (never more than that chunk and one line held over from before it). The cheaper form for a hot
 * reader: one `await` per chunk instead of one per line. Same lines, same cancelling as {@linkcode readLines}.
 *
 * @example
 * ```ts
 * import { readLineBatches } from "./line_reader.ts";
 * const stream = ReadableStream.from([new TextEncoder().encode("a\nb\nc")]);
 * for await (const lines of readLineBatches(stream)) console.log(lines.map((line) => line.text)); // ["a", "b"], ["c"]
 * ```
 */
export async function* readLineBatches(
  stream: ReadableStream<Uint8Array>,
  options: ReadLinesOptions = {},
): AsyncGenerator<Line[], void, undefined> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener("abort", cancel, { once: true });
  let parts: Uint8Array[] = [];
  let pending = 0;
  // While dropping an over-long line: its preview and its size so far.
  let dropping: { preview: Uint8Array; bytes: number } | null = null;
  // The preview is the line's first bytes even when the limit is below its size and they come in pieces.
  const drop = (segment: Uint8Array) => {
    const state = dropping!;
    if (state.preview.length < PREVIEW_BYTES && segment.length > 0) {
      const more = segment.subarray(0, PREVIEW_BYTES - state.preview.length);
      state.preview = concat([state.preview, more], state.preview.length + more.length);
    }
    state.bytes += segment.length;
  };
  const take = (segment: Uint8Array): Line => {
    if (dropping) {
      drop(segment);
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
      drop(rest);
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
  // One read is always in flight, so the pipe drains (and the writer goes on) while lines are being handled.
  const read = () => {
    const next = reader.read();
    next.catch(() => {}); // awaited below; this only keeps an error from counting as unhandled meanwhile
    return next;
  };
  try {
    for (let next = read();;) {
      const { value, done } = await next;
      if (done) break;
      next = read();
      options.onBytes?.(value.length);
      let start = 0;
      let newline = value.indexOf(10);
      if (newline < 0) {
        hold(value);
        continue;
      }
      const lines: Line[] = [];
      if (pending > 0 || dropping) {
        // The end of a line begun in earlier chunks.
        lines.push(take(value.subarray(0, newline)));
        start = newline + 1;
      }
      const last = value.lastIndexOf(10);
      if (last >= start) {
        // Whole lines within this chunk: decoded in one call, then cut where the newlines are.
        const text = decodeRun(value.subarray(start, last));
        if (text === null) {
          for (newline = value.indexOf(10, start); newline >= 0; newline = value.indexOf(10, start)) {
            lines.push(take(value.subarray(start, newline)));
            start = newline + 1;
          }
        } else {
          for (let at = 0; start <= last;) {
            newline = value.indexOf(10, start);
            const bytes = newline - start;
            const end = newline === last ? text.length : text.indexOf("\n", at);
            let line: Line;
            if (bytes > max) line = take(value.subarray(start, newline));
            else {
              const cut = text.charCodeAt(at) === BOM ? at + 1 : at;
              line = { text: text.slice(cut, end), bytes, tooLong: false, invalidUtf8: false };
            }
            at = end + 1;
            start = newline + 1;
            lines.push(line);
          }
        }
      }
      hold(value.subarray(start));
      yield lines;
    }
    if (dropping || pending > 0) yield [take(new Uint8Array(0))];
  } finally {
    options.signal?.removeEventListener("abort", cancel);
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
