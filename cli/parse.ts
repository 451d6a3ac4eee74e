/**
 * `conformance parse --host H [FILE|DIR|-]`: normalises a recorded agent-CLI stream, one JSON event per line.
 * DIR is a recorded run's folder (a fixture, or a failing test's saved stream under `--out`/streams/): its
 * stdout.jsonl is read with its argv, stderr and exit code, and with the dialect its meta.json names (then
 * `--host` may be left out). With `--judge` it prints instead the stream contract's judgement of the replay
 * beside the verdict the run gave (cli/rejudge.ts), and exits 1 when the contract is broken.
 *
 * @module
 */
import { join } from "node:path";
import { isPermissionRefusal } from "../src/permissions.ts";
import { EXIT, UsageError } from "../src/errors.ts";
import { EMPTY_CONFIG, loadConfig } from "../src/config.ts";
import type { NormalizedEvent } from "../src/normalize/events.ts";
import { streamParser } from "../src/normalize/parse.ts";
import { DEFAULT_MAX_LINE_BYTES, forEachLine } from "../src/exec/line_reader.ts";
import { InputTooLargeError, readTextBounded } from "../src/read_bounded.ts";
import { NORMALIZERS } from "../src/normalize/mod.ts";
import { oneLine } from "../src/file_errors.ts";
import { didYouMean } from "../src/suggest.ts";
import { booleanFlag, type CommandSpec, parseCommandLine, stringFlag } from "./args.ts";
import { judgementLines, judgeSavedRun, shapeOfSavedRun } from "./rejudge.ts";
import type { StreamShape } from "../src/exec/host_runner.ts";
import { stripControls } from "../src/report/sanitize.ts";
import { HELP } from "./help.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import type { CliIo } from "./io.ts";

/** The grammar of `conformance parse`. */
export const PARSE_SPEC: CommandSpec = {
  name: "parse",
  flags: {
    host: { type: "string" },
    config: { type: "string" },
    "exit-code": { type: "string" },
    judge: { type: "boolean" },
  },
  positionals: { min: 0, max: 1, what: "at most one FILE (or - for standard input)" },
};

/** The `parse` subcommand. */
export async function parseCommand(
  args: string[],
  io: CliIo,
  stdin: ReadableStream<Uint8Array> = Deno.stdin.readable,
): Promise<number> {
  const parsed = parseCommandLine(PARSE_SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.parse}\n`);
    return EXIT.ok;
  }
  const positional = parsed.positionals[0] ?? "-";
  // A recorded run's folder (a fixture, or a failing test's saved stream) brings its argv, stderr and exit.
  const recorded = positional === "-" ? null : await readRecordedRun(positional);
  const name = stringFlag(parsed, "host") ?? (recorded?.meta.dialect ? recorded.meta.host : undefined);
  if (name === undefined) {
    throw new UsageError(
      `"conformance parse" needs --host H to pick the stream dialect, e.g. --host claude-code`,
    );
  }
  let host: { name: string; dialect: string };
  // The host's stream shape, for --judge: from the registry or --config when the host is known there.
  let shape: StreamShape | null = null;
  if (stringFlag(parsed, "host") === undefined && recorded?.meta.dialect) {
    host = { name, dialect: recorded.meta.dialect };
    const configPath = stringFlag(parsed, "config");
    const known = knownHosts(configPath ? await loadConfig(configPath) : EMPTY_CONFIG);
    const entry = known.find((candidate) => candidate.id === name);
    if (entry?.kind === "cli") shape = entry.runner.streamShape;
  } else {
    const configPath = stringFlag(parsed, "config");
    const [entry] = resolveHosts(
      [name],
      knownHosts(configPath ? await loadConfig(configPath) : EMPTY_CONFIG),
    );
    if (entry!.kind !== "cli") {
      throw new UsageError(`Host "${name}" is a ${entry!.kind} host: "parse" reads agent-CLI streams only`);
    }
    // A saved stream says which dialect the run was read as (a fake may speak another host's wire).
    host = { name: entry!.runner.name, dialect: recorded?.meta.dialect ?? entry!.runner.dialect };
    shape = entry!.runner.streamShape;
  }
  const exitCodeText = stringFlag(parsed, "exit-code");
  // A recording's null exit code (killed at the recorder's limit) stays null: an EOF dialect must not read it as 0.
  const recordedExit = recorded?.meta.exitCode === undefined ? 0 : recorded.meta.exitCode;
  const exitCode = exitCodeText === undefined ? recordedExit : Number(exitCodeText);
  if (exitCode !== null && !Number.isInteger(exitCode)) {
    throw new UsageError(
      `Invalid --exit-code "${exitCodeText}": give the recorded exit code as a whole number`,
    );
  }
  const file = recorded ? recorded.stdout : positional;
  let input: ReadableStream<Uint8Array>;
  if (file === "-") {
    input = stdin;
  } else {
    try {
      input = (await Deno.open(file)).readable;
    } catch (error) {
      if (isPermissionRefusal(error)) throw error;
      const why = error instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
      throw new UsageError(`Stream file "${file}" ${why}`);
    }
  }
  // Streamed: a recording of any size is read, normalised and printed in bounded memory, in pieces of about
  // 64 KiB of output. A line longer than the executor's limit ends the read (exit 2): it is never buffered.
  const parser = streamParser(host, {
    exitCode,
    ...(recorded
      ? { argv: recorded.argv, signal: recorded.meta.signal ?? null, stderr: recorded.stderr }
      : {}),
  });
  const judge = booleanFlag(parsed, "judge");
  const kept: NormalizedEvent[] = [];
  let pending = "";
  const print = (events: readonly NormalizedEvent[]) => {
    // Judged, the events are kept for the judgement instead (a saved stdout is at most 1 MiB).
    if (judge) {
      kept.push(...events);
      return;
    }
    for (const event of events) pending += `${JSON.stringify(event)}\n`;
    if (pending.length >= 65_536) {
      io.out(pending);
      pending = "";
    }
  };
  try {
    const limited = input.pipeThrough(lineLimit(file === "-" ? "Standard input" : `Stream file "${file}"`));
    await forEachLine(limited, (line) => print(parser.line(line.text)), { maxLineBytes: MAX_LINE_BYTES });
  } catch (error) {
    // Only the file's own read errors (a folder, an I/O error) are the user's; a closed stdout is not.
    if (isPermissionRefusal(error) || error instanceof UsageError) throw error;
    if (file === "-" || error instanceof Deno.errors.BrokenPipe) throw error;
    throw new UsageError(`Stream file "${file}" cannot be read: ${(error as Error).message}`);
  }
  print(parser.end());
  io.out(pending);
  if (!judge) return EXIT.ok;
  const facts = { ...recorded?.meta, exitCode };
  const judgement = judgeSavedRun(
    kept,
    facts,
    shapeOfSavedRun(recorded?.meta.test, shape ?? { init: "none", terminal: "eof" }),
  );
  const lines = judgementLines(judgement, facts, positional);
  if (shape === null) {
    lines.push(`host "${host.name}" is not known here, so its stream shape was not checked: give --config`);
  }
  io.out(lines.map((line) => `${stripControls(line, { singleLine: true })}\n`).join(""));
  return judgement.status === "PASS" ? EXIT.ok : EXIT.unexpected;
}

/** The longest line `parse` reads: the executor's limit (src/exec/line_reader.ts). */
const MAX_LINE_BYTES = DEFAULT_MAX_LINE_BYTES;

/**
 * Passes the bytes through and fails the stream (a one-line {@linkcode UsageError}) as soon as one line grows
 * past {@linkcode MAX_LINE_BYTES}: an endless line (`/dev/zero`) ends at once instead of being read forever.
 */
function lineLimit(label: string): TransformStream<Uint8Array, Uint8Array> {
  let lineNumber = 1;
  let lineBytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      let last = -1;
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) {
        lineNumber++;
        last = at;
      }
      if (last >= 0) lineBytes = 0;
      lineBytes += chunk.length - last - 1;
      if (lineBytes > MAX_LINE_BYTES) {
        throw new UsageError(
          `${label}: line ${lineNumber} is longer than ${
            MAX_LINE_BYTES / (1024 * 1024)
          } MiB, the longest line ` +
            "the harness reads (a host's stream line past it is a violation too)",
        );
      }
      controller.enqueue(chunk);
    },
  });
}

/** What a recorded run's folder holds besides its stdout (the layout of tests/fixtures/cli/<host>/<case>/). */
interface RecordedRun {
  readonly stdout: string;
  readonly argv: string[];
  readonly stderr: string;
  readonly meta: {
    readonly host?: string;
    readonly dialect?: string;
    readonly exitCode?: number | null;
    readonly signal?: string | null;
    readonly test?: string;
    readonly stopped?: string | null;
    readonly verdict?: { readonly status: string; readonly message: string };
  };
}

function isVerdict(value: unknown): value is { status: string; message: string } {
  const record = value as Record<string, unknown> | null;
  return typeof value === "object" && value !== null && typeof record!.status === "string" &&
    typeof record!.message === "string";
}

/** The recorded run in folder `path`, or `null` when `path` is not a folder. */
async function readRecordedRun(path: string): Promise<RecordedRun | null> {
  try {
    if (!(await Deno.stat(path)).isDirectory) return null;
  } catch (error) {
    if (isPermissionRefusal(error)) throw error;
    return null;
  }
  try {
    await Deno.stat(join(path, "stdout.jsonl"));
  } catch (error) {
    if (isPermissionRefusal(error)) throw error;
    throw new UsageError(
      `Stream file "${path}" cannot be read: it is a folder without stdout.jsonl (a recorded run's folder ` +
        "holds stdout.jsonl, argv.json, stderr.txt and meta.json, as tests/fixtures/cli/<host>/<case>/ does)",
    );
  }
  const read = async (file: string, fallback: string | null): Promise<string> => {
    try {
      return await readTextBounded(join(path, file), {
        label: `Recorded run "${path}": ${file}`,
        hint: "a recorded run's side files are small",
      });
    } catch (error) {
      if (isPermissionRefusal(error) || error instanceof InputTooLargeError) throw error;
      if (fallback !== null && error instanceof Deno.errors.NotFound) return fallback;
      throw new UsageError(
        `Recorded run "${path}" has no readable ${file}: a folder needs stdout.jsonl ` +
          "(and optionally argv.json, stderr.txt, meta.json), as tests/fixtures/cli/<host>/<case>/ has",
      );
    }
  };
  const json = (file: string, text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw new UsageError(`Recorded run "${path}": ${file} is not valid JSON`);
    }
  };
  const argv = json("argv.json", await read("argv.json", "[]"));
  const meta = json("meta.json", await read("meta.json", "{}"));
  if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === "string")) {
    throw new UsageError(`Recorded run "${path}": argv.json must be a list of strings`);
  }
  if (typeof meta !== "object" || meta === null) {
    throw new UsageError(`Recorded run "${path}": meta.json must be an object`);
  }
  const { host, dialect, exitCode, signal, test, stopped, verdict } = meta as Record<string, unknown>;
  if (typeof dialect === "string" && !Object.hasOwn(NORMALIZERS, dialect)) {
    const dialects = Object.keys(NORMALIZERS);
    throw new UsageError(
      `Recorded run "${path}": meta.json names unknown dialect "${oneLine(dialect)}"${
        didYouMean(dialect, dialects, `Dialects are ${dialects.join(", ")}`)
      }`,
    );
  }
  return {
    stdout: join(path, "stdout.jsonl"),
    argv,
    stderr: await read("stderr.txt", ""),
    meta: {
      ...(typeof host === "string" ? { host } : {}),
      ...(typeof dialect === "string" ? { dialect } : {}),
      ...(typeof exitCode === "number" || exitCode === null ? { exitCode } : {}),
      ...(typeof signal === "string" || signal === null ? { signal } : {}),
      ...(typeof test === "string" ? { test } : {}),
      ...(typeof stopped === "string" || stopped === null ? { stopped } : {}),
      ...(isVerdict(verdict) ? { verdict } : {}),
    },
  };
}
