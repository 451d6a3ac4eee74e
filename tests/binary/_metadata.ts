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

/** The JSON value (object or array) that starts at `start`, cut at its matching bracket. */
function jsonAt(binary: Uint8Array, start: number, what: string): unknown {
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
    else if (byte === 0x7b || byte === 0x5b) depth++;
    else if ((byte === 0x7d || byte === 0x5d) && --depth === 0) {
      return JSON.parse(new TextDecoder().decode(binary.subarray(start, i + 1)));
    }
  }
  throw new Error(`The deno compile ${what} never closes`);
}

/** The metadata object: the JSON text starting at `{"argv":`. */
export function readMetadata(binary: Uint8Array): CompileMetadata {
  const start = indexOfBytes(binary, new TextEncoder().encode('{"argv":'));
  if (start === -1) throw new Error('No deno compile metadata ({"argv":…) found in the binary');
  return jsonAt(binary, start, "metadata") as CompileMetadata;
}

/** One entry of the embedded file system's directory tree. */
export type VfsEntry =
  | { Dir: { n: string; e: VfsEntry[] } }
  | { File: { n: string; o: [number, number] } }
  | { Symlink: { n: string } };

/** The embedded file system's root listing (its root is the common folder of everything embedded). */
export function readVfsRoot(binary: Uint8Array): VfsEntry[] {
  const text = new TextDecoder("latin1").decode(binary);
  const start = text.search(/\[\{"(Dir|File|Symlink)":\{"n":"/);
  if (start === -1) throw new Error("No embedded file system listing found in the binary");
  return jsonAt(binary, start, "file system listing") as VfsEntry[];
}

/** The entry at `path` (slash-separated, relative to the root), or `undefined`. */
export function vfsEntry(root: VfsEntry[], path: string): VfsEntry | undefined {
  const [name, ...rest] = path.split("/");
  for (const entry of root) {
    const body = "Dir" in entry ? entry.Dir : "File" in entry ? entry.File : entry.Symlink;
    if (body.n !== name) continue;
    if (rest.length === 0) return entry;
    return "Dir" in entry ? vfsEntry(entry.Dir.e, rest.join("/")) : undefined;
  }
  return undefined;
}
