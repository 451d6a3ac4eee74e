/**
 * The `conformance` command as a plain async function: `runCli(args, io)` returns the exit code and throws
 * only domain errors, which `main.ts` maps to exit codes. Subcommands load lazily so `--version` stays instant.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../version.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";

type Subcommand = (args: string[], io: CliIo) => Promise<number>;

const SUBCOMMANDS: Readonly<Record<string, () => Promise<Subcommand>>> = {
  run: async () => (await import("./run.ts")).runCommand,
  list: async () => (await import("./list.ts")).listCommand,
  board: async () => (await import("./board.ts")).boardCommand,
  parse: async () => (await import("./parse.ts")).parseCommand,
  serve: async () => (await import("./serve.ts")).serveCommand,
  login: async () => (await import("./login.ts")).loginCommand,
  doctor: async () => (await import("./doctor.ts")).doctorCommand,
};

/** Runs the command line `args` and returns the exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = args;
  if (first === "--version" || first === "-V") {
    io.out(`conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}, deno ${Deno.version.deno})\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? rest[0] : undefined;
    io.out(`${HELP[topic ?? "main"] ?? HELP.main}\n`);
    return 0;
  }
  if (first === undefined || first.startsWith("-")) return (await SUBCOMMANDS.run!())([...args], io);
  const load = SUBCOMMANDS[first];
  if (!load) {
    throw new UsageError(
      `Unknown command "${first}"${didYouMean(first, Object.keys(SUBCOMMANDS), 'Run "conformance --help"')}`,
    );
  }
  return (await load())(rest, io);
}
