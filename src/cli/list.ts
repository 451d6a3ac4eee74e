/**
 * `conformance list [hosts|tests]`: what the registry (plus the config file) offers.
 *
 * @module
 */
import { EMPTY_CONFIG, loadConfig } from "../config.ts";
import { catalogue } from "../engine.ts";
import { EXIT } from "../errors.ts";
import { booleanFlag, type CommandSpec, listFlag, oneOf, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import type { CliIo } from "./io.ts";
import { SUITES } from "../../suite/mod.ts";

const SPEC: CommandSpec = {
  name: "list",
  flags: { json: { type: "boolean" }, host: { type: "string", multiple: true }, config: { type: "string" } },
  positionals: { min: 0, max: 1, what: "one of: hosts, tests" },
};

/** The `list` subcommand. */
export async function listCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.list}\n`);
    return EXIT.ok;
  }
  const what = oneOf("list topic", parsed.positionals[0] ?? "hosts", ["hosts", "tests"] as const);
  const configPath = stringFlag(parsed, "config");
  const config = configPath ? await loadConfig(configPath) : EMPTY_CONFIG;
  const known = knownHosts(config);
  const names = listFlag(parsed, "host");
  const json = booleanFlag(parsed, "json");

  if (what === "hosts") {
    const entries = names.length ? resolveHosts(names, known) : known;
    const rows = entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      testOnly: e.testOnly ?? false,
      summary: e.summary,
      capabilities: [...e.capabilities],
    }));
    if (json) {
      io.out(`${JSON.stringify(rows, null, 2)}\n`);
      return EXIT.ok;
    }
    const width = Math.max(4, ...rows.map((r) => r.id.length));
    io.out(`${"HOST".padEnd(width)}  KIND     SUMMARY\n`);
    for (const row of rows) {
      const tag = row.testOnly ? " [test-only]" : "";
      io.out(`${row.id.padEnd(width)}  ${row.kind.padEnd(7)}  ${row.summary}${tag}\n`);
      if (row.capabilities.length) {
        io.out(`${"".padEnd(width)}           capabilities: ${row.capabilities.join(", ")}\n`);
      }
    }
    return EXIT.ok;
  }

  const entries = names.length ? resolveHosts(names, known) : known;
  const items = catalogue(entries, SUITES, {
    live: false,
    mockModel: false,
    goldenPaths: config.goldenPaths,
  });
  const rows = items.flatMap((item) =>
    item.tests.map((t) => ({ host: item.entry.id, suite: item.suite.id, test: t.id, title: t.title ?? t.id }))
  );
  if (json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.ok;
  }
  for (const row of rows) io.out(`${row.host}\t${row.test}\n`);
  io.err(`${rows.length} tests across ${items.length} hosts\n`);
  return EXIT.ok;
}
