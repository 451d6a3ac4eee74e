/**
 * Where the command writes, so tests can call subcommands directly and read what they printed.
 *
 * @module
 */

/** Output streams and the facts the command needs about its terminal. */
export interface CliIo {
  /** Writes to standard output as-is (no newline added). */
  out(text: string): void;
  /** Writes to standard error as-is (no newline added). */
  err(text: string): void;
  readonly isTTY: boolean;
  /** Whether colour is allowed (a TTY and no NO_COLOR). */
  readonly color: boolean;
}

const encoder = new TextEncoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
}

/** The process's real standard streams. */
export function processIo(): CliIo {
  const isTTY = Deno.stdout.isTerminal();
  return {
    out: (text) => writeAll(Deno.stdout, text),
    err: (text) => writeAll(Deno.stderr, text),
    isTTY,
    color: isTTY && !Deno.env.get("NO_COLOR"),
  };
}

/** An in-memory {@linkcode CliIo} for tests. */
export function memoryIo(options: { isTTY?: boolean; color?: boolean } = {}): CliIo & {
  readonly stdout: string;
  readonly stderr: string;
} {
  let stdout = "";
  let stderr = "";
  return {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    isTTY: options.isTTY ?? false,
    color: options.color ?? false,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}
