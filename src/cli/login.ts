/**
 * `conformance login --host H`: a visible browser with a persistent profile, to sign in to a product once.
 *
 * @module
 */
import { EXIT, NotBuiltError, UsageError } from "../errors.ts";
import { EMPTY_CONFIG } from "../config.ts";
import { type CommandSpec, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import type { CliIo } from "./io.ts";

const SPEC: CommandSpec = {
  name: "login",
  flags: { host: { type: "string" }, "profile-dir": { type: "string" } },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** The `login` subcommand. */
export function loginCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.login}\n`);
    return Promise.resolve(EXIT.ok);
  }
  const name = stringFlag(parsed, "host");
  if (name === undefined) throw new UsageError(`"conformance login" needs --host H, e.g. --host chatgpt`);
  const [entry] = resolveHosts([name], knownHosts(EMPTY_CONFIG));
  if (entry!.kind !== "web") {
    throw new UsageError(`Host "${name}" is a ${entry!.kind} host: "login" is for web products only`);
  }
  throw new NotBuiltError("conformance login", "issue 6");
}
