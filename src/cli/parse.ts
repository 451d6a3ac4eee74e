/**
 * `conformance parse --host H [FILE|-]`: normalises a recorded agent-CLI stream, one JSON event per line.
 *
 * @module
 */
import { EXIT, NotBuiltError } from "../errors.ts";
import { type CommandSpec, parseCommandLine } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";

const SPEC: CommandSpec = {
  name: "parse",
  flags: { host: { type: "string" } },
  positionals: { min: 0, max: 1, what: "at most one FILE (or - for standard input)" },
};

/** The `parse` subcommand. */
export function parseCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.parse}\n`);
    return Promise.resolve(EXIT.ok);
  }
  throw new NotBuiltError("conformance parse", "issue 4");
}
