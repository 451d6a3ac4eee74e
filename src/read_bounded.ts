/**
 * Reading a user's file (config, expectations, reports, recordings) with a size limit. The file is read by
 * streaming and the reading stops at the limit: `stat` cannot be trusted for this, as `/dev/zero`, a FIFO or
 * a `/proc` file report size 0 and never end (or end late). Past the limit the read is a one-line
 * {@linkcode InputTooLargeError} (exit 2), never a buffer that grows until the machine runs out of memory.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/** The largest config, expectations file or recording side file the harness reads: 16 MiB. */
export const MAX_INPUT_FILE_BYTES = 16 * 1024 * 1024;

/** The largest report.json the harness reads (`board`, `--rerun-failed`): 64 MiB. */
export const MAX_REPORT_FILE_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 64 * 1024;

/** A file over its limit: exit 2 with one line that names it. */
export class InputTooLargeError extends UsageError {
  readonly path: string;
  readonly limitBytes: number;
  constructor(label: string, path: string, limitBytes: number, hint: string) {
    super(`${label} is larger than ${sizeText(limitBytes)}, the most the harness reads: ${hint}`);
    this.name = "InputTooLargeError";
    this.path = path;
    this.limitBytes = limitBytes;
  }
}

/** Options of {@linkcode readTextBounded}. */
export interface ReadBoundedOptions {
  /** How the message names the file, e.g. `Config file "/dev/zero"`. */
  readonly label: string;
  /** The way out the message ends with, e.g. `check the --config path`. */
  readonly hint: string;
  /** The most bytes read. Default {@linkcode MAX_INPUT_FILE_BYTES}. */
  readonly maxBytes?: number;
}

/**
 * The text of the file at `path` (UTF-8, a byte-order mark dropped, bad bytes as U+FFFD, as
 * `Deno.readTextFile` reads it), read in chunks and never more than `maxBytes`. Open and read errors
 * (`NotFound`, `NotCapable`, a folder) are thrown as they are, for the caller to explain.
 *
 * @throws {InputTooLargeError} The file holds more than `maxBytes` bytes.
 * @example
 * ```ts ignore
 * import { readTextBounded } from "./read_bounded.ts";
 * await readTextBounded("/dev/zero", { label: 'Config file "/dev/zero"', hint: "check the --config path" });
 * // throws InputTooLargeError: Config file "/dev/zero" is larger than 16 MiB, the most the harness reads: …
 * ```
 */
export async function readTextBounded(path: string, options: ReadBoundedOptions): Promise<string> {
  const max = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  using file = await Deno.open(path, { read: true });
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const buffer = new Uint8Array(Math.min(CHUNK_BYTES, max + 1 - total));
    const count = await file.read(buffer);
    if (count === null) break;
    total += count;
    if (total > max) throw new InputTooLargeError(options.label, path, max, options.hint);
    parts.push(count === buffer.length ? buffer : buffer.subarray(0, count));
  }
  const whole = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return new TextDecoder().decode(whole);
}

/** `16 MiB`, `512 KiB`, `100 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
