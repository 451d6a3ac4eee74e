/**
 * `conformance parse --host H [FILE|-]`: normalises a recorded agent-CLI stream, one JSON event per line.
 *
 * @module
 */
import { isPermissionRefusal } from "../permissions.ts";
import { EXIT, UsageError } from "../errors.ts";
import { EMPTY_CONFIG, loadConfig } from "../config.ts";
import type { NormalizedEvent } from "../normalize/events.ts";
import { streamParser } from "../normalize/parse.ts";
import { forEachLine } from "../exec/line_reader.ts";
import { type CommandSpec, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import type { CliIo } from "./io.ts";

const SPEC: CommandSpec = {
  name: "parse",
  flags: { host: { type: "string" }, config: { type: "string" }, "exit-code": { type: "string" } },
  positionals: { min: 0, max: 1, what: "at most one FILE (or - for standard input)" },
};

/** The `parse` subcommand. */
export async function parseCommand(
  args: string[],
  io: CliIo,
  stdin: ReadableStream<Uint8Array> = Deno.stdin.readable,
): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.parse}\n`);
    return EXIT.ok;
  }
  const name = stringFlag(parsed, "host");
  if (name === undefined) {
    throw new UsageError(
      `"conformance parse" needs --host H to pick the stream dialect, e.g. --host claude-code`,
    );
  }
  const configPath = stringFlag(parsed, "config");
  const [entry] = resolveHosts([name], knownHosts(configPath ? await loadConfig(configPath) : EMPTY_CONFIG));
  if (entry!.kind !== "cli") {
    throw new UsageError(`Host "${name}" is a ${entry!.kind} host: "parse" reads agent-CLI streams only`);
  }
  const exitCodeText = stringFlag(parsed, "exit-code");
  const exitCode = exitCodeText === undefined ? 0 : Number(exitCodeText);
  if (!Number.isInteger(exitCode)) {
    throw new UsageError(
      `Invalid --exit-code "${exitCodeText}": give the recorded exit code as a whole number`,
    );
  }
  const file = parsed.positionals[0] ?? "-";
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
  // 64 KiB of output. A line is kept whole, however long (the executor's line limit judges live hosts only).
  const parser = streamParser(entry!.runner, { exitCode });
  let pending = "";
  const print = (events: readonly NormalizedEvent[]) => {
    for (const event of events) pending += `${JSON.stringify(event)}\n`;
    if (pending.length >= 65_536) {
      io.out(pending);
      pending = "";
    }
  };
  try {
    await forEachLine(input, (line) => print(parser.line(line.text)), { maxLineBytes: Infinity });
  } catch (error) {
    // Only the file's own read errors (a folder, an I/O error) are the user's; a closed stdout is not.
    if (isPermissionRefusal(error) || file === "-" || error instanceof Deno.errors.BrokenPipe) throw error;
    throw new UsageError(`Stream file "${file}" cannot be read: ${(error as Error).message}`);
  }
  print(parser.end());
  io.out(pending);
  return EXIT.ok;
}
