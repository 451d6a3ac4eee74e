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

// Each line is decoded on its own: decoding a chunk at once and slicing it would be cheaper, but V8 makes a
// slice a view of its parent, so one line kept in an event would hold its whole chunk alive (measured: 1 000
// kept 99-byte lines held 62 MB); copying the slices out cost what the single decode saved.
const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

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
 * Cuts bytes into lines, chunk by chunk. Holds at most one unfinished line, and of an over-long one only its
 * preview and size.
 */
class LineSplitter {
  readonly #max: number;
  #parts: Uint8Array[] = [];
  #pending = 0;
  /** While dropping an over-long line: its preview and its size so far. */
  #dropping: { preview: Uint8Array; bytes: number } | null = null;

  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Hands `onLine` each line that ends in `chunk` (the first may have begun in earlier chunks); the rest is
   * held. Lines go out one by one, not as a list: a 64 KiB chunk of a tiny-line flood is 32 768 lines, and a
   * list of them lived long enough for V8 to promote it, growing the old space by megabytes per chunk.
   */
  push(chunk: Uint8Array, onLine: (line: Line) => void): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      onLine(this.#take(chunk.subarray(start, newline)));
      start = newline + 1;
    }
    this.#hold(chunk.subarray(start));
  }

  /** The last line, when the stream ended without a newline after it. */
  end(): Line[] {
    return this.#dropping || this.#pending > 0 ? [this.#take(new Uint8Array(0))] : [];
  }

  /** The preview is the line's first bytes even when the limit is below its size and they come in pieces. */
  #drop(segment: Uint8Array): void {
    const state = this.#dropping!;
    if (state.preview.length < PREVIEW_BYTES && segment.length > 0) {
      const more = segment.subarray(0, PREVIEW_BYTES - state.preview.length);
      state.preview = concat([state.preview, more], state.preview.length + more.length);
    }
    state.bytes += segment.length;
  }

  #take(segment: Uint8Array): Line {
    if (this.#dropping) {
      this.#drop(segment);
      const { preview, bytes } = this.#dropping;
      this.#dropping = null;
      return { text: lenient.decode(preview), bytes, tooLong: true, invalidUtf8: false };
    }
    let bytes = segment;
    if (this.#pending > 0) {
      this.#parts.push(segment);
      bytes = concat(this.#parts, this.#pending + segment.length);
      this.#parts = [];
      this.#pending = 0;
    }
    if (bytes.length > this.#max) {
      return {
        text: lenient.decode(bytes.subarray(0, PREVIEW_BYTES)),
        bytes: bytes.length,
        tooLong: true,
        invalidUtf8: false,
      };
    }
    try {
      return { text: strict.decode(bytes), bytes: bytes.length, tooLong: false, invalidUtf8: false };
    } catch {
      return { text: lenient.decode(bytes), bytes: bytes.length, tooLong: false, invalidUtf8: true };
    }
  }

  #hold(rest: Uint8Array): void {
    if (rest.length === 0) return;
    if (this.#dropping) {
      this.#drop(rest);
      return;
    }
    // A copy: the chunk's buffer is read into again once the caller asks for the next chunk (ChunkSource).
    this.#parts.push(rest.slice());
    this.#pending += rest.length;
    if (this.#pending > this.#max) {
      const whole = concat(this.#parts, this.#pending);
      this.#dropping = { preview: whole.slice(0, PREVIEW_BYTES), bytes: this.#pending };
      this.#parts = [];
      this.#pending = 0;
    }
  }
}

/** The size of the buffers a byte stream is read into. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The chunks of a stream, with one read always in flight so the pipe drains (and the writer goes on) while
 * the last chunk's lines are handled. Aborting the signal cancels the stream: a pending read ends as EOF.
 *
 * A byte stream (a child's stdout or stderr) is read into two buffers in turn, so reading allocates nothing
 * however much a host writes: with a fresh buffer per read, a host flooding 1 GiB left tens of MiB of dead
 * chunks waiting for V8 to collect them, and took the harness over its 200 MiB memory target (docs/performance.md). A chunk handed out is
 * valid until the next call of `next()`. Other streams are read with a default reader.
 */
class ChunkSource {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader;
  readonly #byob: boolean;
  readonly #options: ReadLinesOptions;
  readonly #cancel = () => void this.#reader.cancel().catch(() => {});
  #next: Promise<ReadableStreamReadResult<Uint8Array>>;
  /** The buffer of the chunk last handed out: free again at the next call of `next()`. */
  #lent: ArrayBuffer | null = null;

  constructor(stream: ReadableStream<Uint8Array>, options: ReadLinesOptions) {
    let reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader;
    try {
      reader = stream.getReader({ mode: "byob" });
    } catch {
      reader = stream.getReader(); // not a byte stream
    }
    this.#reader = reader;
    this.#byob = reader instanceof ReadableStreamBYOBReader;
    this.#options = options;
    if (options.signal?.aborted) this.#cancel();
    options.signal?.addEventListener("abort", this.#cancel, { once: true });
    this.#next = this.#read(null);
  }

  /** The next chunk, or `null` at EOF. */
  async next(): Promise<Uint8Array | null> {
    const { value, done } = await this.#next;
    if (done || value === undefined) return null;
    this.#next = this.#read(this.#lent);
    this.#lent = value.buffer as ArrayBuffer; // a read into an ArrayBuffer fills that buffer
    this.#options.onBytes?.(value.length);
    return value;
  }

  /** Cancels the stream and lets it go. */
  async close(): Promise<void> {
    this.#options.signal?.removeEventListener("abort", this.#cancel);
    await this.#reader.cancel().catch(() => {});
    this.#reader.releaseLock();
  }

  #read(spare: ArrayBuffer | null): Promise<ReadableStreamReadResult<Uint8Array>> {
    const next = this.#byob
      ? (this.#reader as ReadableStreamBYOBReader).read(new Uint8Array(spare ?? new ArrayBuffer(CHUNK_BYTES)))
      : (this.#reader as ReadableStreamDefaultReader<Uint8Array>).read();
    next.catch(() => {}); // awaited in next(); this only keeps an error from counting as unhandled meanwhile
    return next as Promise<ReadableStreamReadResult<Uint8Array>>;
  }
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
  const source = new ChunkSource(stream, options);
  const splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  try {
    for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
      const lines: Line[] = [];
      splitter.push(chunk, (line) => lines.push(line));
      for (const line of lines) yield line;
    }
    for (const line of splitter.end()) yield line;
  } finally {
    await source.close();
  }
}

/**
 * Reads `stream` to its end, handing `onLine` each line as it is cut: the form for a hot reader, with one
 * `await` per chunk instead of one per line and no list of lines. `onLine` runs synchronously, between reads;
 * the lines, their cancelling and the final line without a newline are those of {@linkcode readLines}.
 *
 * @example
 * ```ts
 * import { forEachLine } from "./line_reader.ts";
 * const stream = ReadableStream.from([new TextEncoder().encode("a\nb\nc")]);
 * await forEachLine(stream, (line) => console.log(line.text)); // "a", "b", "c"
 * ```
 */
export async function forEachLine(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: Line) => void,
  options: ReadLinesOptions = {},
): Promise<void> {
  const source = new ChunkSource(stream, options);
  const splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  try {
    for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
      splitter.push(chunk, onLine);
    }
    for (const line of splitter.end()) onLine(line);
  } finally {
    await source.close();
  }
}
