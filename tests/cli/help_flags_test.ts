/**
 * The help text (cli/help.ts) lives apart from the grammars it describes (each subcommand's `*_SPEC`), so this
 * holds them together: per subcommand, every flag the parser accepts is documented in its help, and every flag
 * the help documents is one the parser accepts. A flag is documented when it appears in the help's usage
 * lines (up to the first blank line) or starts one of its option lines; a flag merely mentioned in prose
 * (login's "later --live runs") documents nothing.
 */
import assert from "node:assert/strict";
import type { CommandSpec } from "../../cli/args.ts";
import { BOARD_SPEC } from "../../cli/board.ts";
import { DOCTOR_SPEC } from "../../cli/doctor.ts";
import { HELP } from "../../cli/help.ts";
import { LIST_SPEC } from "../../cli/list.ts";
import { LOGIN_SPEC } from "../../cli/login.ts";
import { PARSE_SPEC } from "../../cli/parse.ts";
import { RUN_SPEC } from "../../cli/run_options.ts";
import { SERVE_SPEC } from "../../cli/serve.ts";

/** Every subcommand parsed by a {@linkcode CommandSpec}, by its help topic. */
const SPECS: Readonly<Record<string, CommandSpec>> = {
  run: RUN_SPEC,
  list: LIST_SPEC,
  board: BOARD_SPEC,
  parse: PARSE_SPEC,
  serve: SERVE_SPEC,
  login: LOGIN_SPEC,
  doctor: DOCTOR_SPEC,
};

/** The programs main.ts runs itself, which take the flags of the agent CLIs they stand in for. */
const OWN_PARSERS = ["fake-host", "reference-agent"];

/** The flags a help text documents: in its usage lines, or at the start of an option line. */
export function documentedFlags(help: string): Set<string> {
  const lines = help.split("\n");
  const usageEnd = lines.findIndex((line) => line.trim() === "");
  const usage = lines.slice(0, usageEnd === -1 ? lines.length : usageEnd).join("\n");
  const options = lines.slice(usageEnd).filter((line) => /^ {2,}--[a-z]/.test(line)).map((line) =>
    line.trim().split(/\s/, 1)[0]!
  );
  const flags = [...usage.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!);
  for (const option of options) flags.push(option.replace(/^--/, "").replace(/[=\[].*$/, ""));
  return new Set(flags.filter((flag) => flag !== "help"));
}

Deno.test("every subcommand with a help page is a parsed subcommand here, or parses its own flags", () => {
  const topics = Object.keys(HELP).filter((topic) => topic !== "main" && !OWN_PARSERS.includes(topic));
  assert.deepEqual(topics.sort(), Object.keys(SPECS).sort());
});

for (const [topic, spec] of Object.entries(SPECS)) {
  Deno.test(`conformance ${topic}: every flag it parses is in its --help, and every flag there is parsed`, () => {
    const documented = documentedFlags(HELP[topic]!);
    const parsed = new Set(Object.keys(spec.flags));
    const undocumented = [...parsed].filter((flag) => !documented.has(flag));
    const unparsed = [...documented].filter((flag) => !parsed.has(flag));
    assert.deepEqual(undocumented, [], `parsed but not in "conformance ${topic} --help"`);
    assert.deepEqual(unparsed, [], `in "conformance ${topic} --help" but not parsed`);
  });
}

Deno.test("the check reads usage and option lines, not prose", () => {
  const help =
    "Usage: x [--alpha A]\n       [--beta]\n\nProse names --gamma.\n\n  --delta N   what delta does\n";
  assert.deepEqual([...documentedFlags(help)].sort(), ["alpha", "beta", "delta"]);
});
