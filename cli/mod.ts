/**
 * The `conformance` command as a plain async function: `runCli(args, io)` returns the exit code and throws
 * only domain errors, which `main.ts` maps to exit codes. Subcommands load lazily so `--version` stays instant.
 *
 * @module
 */
import { UsageError } from "../src/errors.ts";
import { didYouMean } from "../src/suggest.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../src/version.ts";
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
  // `deno task conformance -- --host fake` hands the task's `--` on: it separates the task's arguments, not ours.
  if (args[0] === "--") args = args.slice(1);
  const [first, ...rest] = args;
  if (first === "--version" || first === "-V") {
    io.out(`conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}, deno ${Deno.version.deno})\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    io.out(`${HELP[helpTopic(first === "help" ? rest[0] : undefined)]}\n`);
    return 0;
  }
  // main.ts runs the fake host and the reference agent itself; only their help reaches here.
  if ((first === "fake-host" || first === "reference-agent") && (rest[0] === "--help" || rest[0] === "-h")) {
    io.out(`${HELP[first]}\n`);
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

/** The help page for `conformance help TOPIC`: `main` without a topic; an unknown topic is a usage error. */
function helpTopic(topic: string | undefined): string {
  if (topic === undefined || topic.startsWith("-")) return "main";
  if (topic in HELP && topic !== "main") return topic;
  const topics = Object.keys(HELP).filter((name) => name !== "main");
  throw new UsageError(
    `No help for "${topic}"${didYouMean(topic, topics, `Topics: ${topics.join(", ")}`)}`,
  );
}
