/** Reading what `deno compile` wrote into a binary: its metadata JSON (permissions, log level, argv). */

/** The part of `deno compile`'s metadata the tests look at. */
export interface CompileMetadata {
  readonly argv: string[];
  readonly log_level: string | null;
  readonly permissions: {
    readonly allow_all?: boolean;
    readonly allow_net: string[] | null;
    readonly allow_run: string[] | null;
    readonly allow_write: string[] | null;
    readonly allow_read: string[] | null;
    readonly allow_env: string[] | null;
    readonly allow_sys: string[] | null;
    readonly allow_import: string[] | null;
    /** `false` when compiled with `--no-prompt`. */
    readonly prompt?: boolean;
  };
}

/** Where `needle` starts in `haystack`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  if (first === undefined) return from;
  for (let i = haystack.indexOf(first, from); i !== -1; i = haystack.indexOf(first, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    let match = true;
    for (let j = 1; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}

/** The metadata object: the JSON text starting at `{"argv":`, cut at its matching brace. */
export function readMetadata(binary: Uint8Array): CompileMetadata {
  const start = indexOfBytes(binary, new TextEncoder().encode('{"argv":'));
  if (start === -1) throw new Error('No deno compile metadata ({"argv":…) found in the binary');
  let depth = 0;
  let inString = false;
  for (let i = start; i < binary.length; i++) {
    const byte = binary[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if (byte === 0x22) inString = true;
    else if (byte === 0x7b) depth++;
    else if (byte === 0x7d && --depth === 0) {
      return JSON.parse(new TextDecoder().decode(binary.subarray(start, i + 1))) as CompileMetadata;
    }
  }
  throw new Error("The deno compile metadata never closes");
}
