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
  /** A terminal that can redraw a line (not `TERM=dumb`): the live progress line. */
  readonly isTTY: boolean;
  /** Whether colour is allowed: see {@linkcode colorAllowed}. */
  readonly color: boolean;
}

const encoder = new TextEncoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
}

/** The environment variables the terminal decisions read. */
type TerminalEnv = { get(name: string): string | undefined };

/**
 * Whether to colour output, as `node:util` decides for its own streams: `FORCE_COLOR` set to anything but
 * `0` or `false` turns colour on even into a pipe (CI logs that render ANSI), `FORCE_COLOR=0` turns it off;
 * otherwise a terminal gets colour unless `NO_COLOR` is set (https://no-color.org) or `TERM=dumb`.
 *
 * @example
 * ```ts
 * import { colorAllowed } from "./io.ts";
 * colorAllowed(false, new Map([["FORCE_COLOR", "1"]])); // true
 * colorAllowed(true, new Map([["TERM", "dumb"]])); // false
 * ```
 */
export function colorAllowed(isTerminal: boolean, env: TerminalEnv): boolean {
  const force = env.get("FORCE_COLOR");
  if (force !== undefined && force !== "") return force !== "0" && force.toLowerCase() !== "false";
  if ((env.get("NO_COLOR") ?? "") !== "") return false;
  return isTerminal && env.get("TERM") !== "dumb";
}

/** The process's real standard streams. */
export function processIo(env: TerminalEnv = Deno.env): CliIo {
  const isTerminal = Deno.stdout.isTerminal();
  return {
    out: (text) => writeAll(Deno.stdout, text),
    err: (text) => writeAll(Deno.stderr, text),
    // A dumb terminal cannot erase a line: it gets one line per result, as a pipe does.
    isTTY: isTerminal && env.get("TERM") !== "dumb",
    color: colorAllowed(isTerminal, env),
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
