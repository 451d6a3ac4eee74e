/**
 * `conformance serve [--listen 127.0.0.1:PORT]`: the conformance MCP server, for adding to a real host.
 *
 * @module
 */
import { EXIT, NotBuiltError } from "../errors.ts";
import { type CommandSpec, parseCommandLine } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";

const SPEC: CommandSpec = {
  name: "serve",
  flags: { listen: { type: "string" }, "allow-origin": { type: "string", multiple: true } },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** The `serve` subcommand. */
export function serveCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.serve}\n`);
    return Promise.resolve(EXIT.ok);
  }
  throw new NotBuiltError("conformance serve", "issue 5");
}
