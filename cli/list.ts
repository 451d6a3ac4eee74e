/**
 * `conformance list [hosts|tests]`: what the registry (plus the config file) offers. `list tests` takes the
 * selection flags of `run` and lists exactly the (host, test) pairs that `run` with them would run.
 *
 * @module
 */
import { EMPTY_CONFIG, loadConfig } from "../src/config.ts";
import { EXIT } from "../src/errors.ts";
import { booleanFlag, type CommandSpec, listFlag, oneOf, parseCommandLine, stringFlag } from "./args.ts";
import { UsageError } from "../src/errors.ts";
import type { PlanItem } from "../src/engine.ts";
import {
  checkRerunHosts,
  narrowToTargets,
  readRerunTargets,
  reportFlagsNotGiven,
  rerunSummary,
} from "./rerun.ts";
import { HELP } from "./help.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import type { CliIo } from "./io.ts";
import { parseSelection, SELECTION_FLAGS, selectTests, withSuiteServers } from "./plan.ts";
import { DEFAULT_HOSTS } from "../hosts/registry.ts";

/** The grammar of `conformance list`. */
export const LIST_SPEC: CommandSpec = {
  name: "list",
  flags: {
    ...SELECTION_FLAGS,
    json: { type: "boolean" },
    all: { type: "boolean" },
    "rerun-failed": { type: "string" },
  },
  positionals: { min: 0, max: 1, what: "one of: hosts, tests" },
};

/** `1 test`, `2 tests`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The `list` subcommand. */
export async function listCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(LIST_SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.list}\n`);
    return EXIT.ok;
  }
  const what = oneOf("list topic", parsed.positionals[0] ?? "hosts", ["hosts", "tests"] as const);
  const rerunFrom = stringFlag(parsed, "rerun-failed");
  if (rerunFrom !== undefined) {
    if (what !== "tests") {
      throw new UsageError('--rerun-failed lists tests: "conformance list tests --rerun-failed R"');
    }
    return await listRerun(rerunFrom, args, io, booleanFlag(parsed, "json"));
  }
  const selection = parseSelection(parsed);
  const config = selection.config ? await loadConfig(selection.config) : EMPTY_CONFIG;
  const known = knownHosts(config);
  const names = listFlag(parsed, "host");
  const json = booleanFlag(parsed, "json");

  if (what === "hosts") {
    // The broken reference variants exist to test the harness; a named host or --all shows them.
    const shown = (entry: typeof known[number]) =>
      booleanFlag(parsed, "all") || !entry.testOnly || DEFAULT_HOSTS.includes(entry.id);
    const entries = names.length ? resolveHosts(names, known) : known.filter(shown);
    const hidden = names.length ? 0 : known.length - entries.length;
    if (hidden > 0) io.err(`${count(hidden, "test-only host")} not shown: add --all to list them\n`);
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

  // As `run` plans them: the default hosts without --host, the same filters.
  const entries = await withSuiteServers(resolveHosts(names, known), config, selection);
  const { plan: items } = selectTests(entries, selection, config.goldenPaths);
  printTests(items, io, json);
  return EXIT.ok;
}

/** Prints (host, test) rows, tab-separated or as JSON, and the count on stderr. */
function printTests(items: readonly PlanItem[], io: CliIo, json: boolean, note = ""): void {
  const rows = items.flatMap((item) =>
    item.tests.map((t) => ({ host: item.entry.id, suite: item.suite.id, test: t.id, title: t.title ?? t.id }))
  );
  if (json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  for (const row of rows) io.out(`${row.host}\t${row.test}\n`);
  io.err(`${count(rows.length, "test")} across ${count(items.length, "host")}${note}\n`);
}

/**
 * `list tests --rerun-failed REPORT`: the dry run of `run --rerun-failed REPORT` with the same flags: the
 * report's unexpected results, stale expectations and interrupted tests, under the flags that shaped its run
 * (a flag given again wins), as the rerun would run them.
 */
async function listRerun(path: string, args: readonly string[], io: CliIo, json: boolean): Promise<number> {
  const targets = await readRerunTargets(path);
  const parsed = parseCommandLine(LIST_SPEC, [
    ...reportFlagsNotGiven(LIST_SPEC, targets.flags ?? [], args),
    ...args,
  ]);
  if (listFlag(parsed, "host").length > 0) {
    throw new UsageError(
      "--rerun-failed takes its hosts from the report: drop --host (narrow with --grep, --tier or --suite)",
    );
  }
  const selection = parseSelection(parsed);
  const config = selection.config ? await loadConfig(selection.config) : EMPTY_CONFIG;
  const known = knownHosts(config);
  checkRerunHosts(targets, known.map((entry) => entry.id));
  const entries = await withSuiteServers(resolveHosts([...targets.tests.keys()], known), config, selection);
  const { plan } = selectTests(entries, selection, config.goldenPaths);
  const { plan: kept, missing } = narrowToTargets(plan, targets);
  printTests(kept, io, json, ` (${rerunSummary(targets).replace(/^rerunning/, "the rerun of")})`);
  if (missing.length > 0) {
    io.err(
      `${count(missing.length, "test")} of the report not in this selection (--suite, --tier, --grep)\n`,
    );
  }
  return EXIT.ok;
}
