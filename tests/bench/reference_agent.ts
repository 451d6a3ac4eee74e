/**
 * Benchmark of the CLI variant table (tests/hosts/cli/_agent_table.ts): the reference agent and every broken
 * variant through every CLI tier with the mock-model tiers on, as the gate runs it, no browser. Its wall time
 * is the figure; the target is 90 s on the two-core machine. The note counts the hosts, the tests, and
 * the variants whose results were not as listed (the gate would fail; the figure then measures a broken run).
 *
 * @module
 */
import { AGENT_VARIANTS } from "../../hosts/cli/reference_agent_variants.ts";
import { REFERENCE_AGENT_HOST } from "../../hosts/cli/reference_agent.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { nonPassing, runTable, sorted, VARIANTS } from "../hosts/cli/_agent_table.ts";

/** The target: the whole table within this. */
export const TABLE_TARGET_MS = 90_000;

/** One measured figure. */
export interface TableFigure {
  readonly ms: number;
  readonly hosts: number;
  readonly tests: number;
  /** Hosts whose results were not as the table lists (the reference: any non-PASS). */
  readonly mismatched: readonly string[];
  /** What the mismatched hosts did that was not listed: host, test id, status and message. */
  readonly why: readonly string[];
}

/** Runs the table once and times it. */
export async function benchAgentTable(): Promise<TableFigure> {
  const started = performance.now();
  const { runs, done } = runTable(VARIANTS);
  await done;
  const ms = Math.round(performance.now() - started);
  let tests = 0;
  const mismatched: string[] = [];
  const why: string[] = [];
  const hosts: { entry: CliHostEntry; fails: Readonly<Record<string, string>> }[] = [
    { entry: REFERENCE_AGENT_HOST, fails: {} },
    ...VARIANTS.map((variant) => ({ entry: variant.entry, fails: variant.fails })),
  ];
  for (const { entry, fails } of hosts) {
    const run = await runs.get(entry.id)!;
    tests += run.results.size;
    const got = nonPassing(run);
    const listed = sorted(fails);
    if (JSON.stringify(got) === JSON.stringify(listed)) continue;
    mismatched.push(entry.id);
    for (const [id, outcome] of run.results) {
      if ((got[id] ?? "PASS") !== (listed[id] ?? "PASS")) {
        why.push(`${entry.id} ${id}: ${outcome.status} ${(outcome.message ?? "").slice(0, 200)}`);
      }
    }
  }
  return { ms, hosts: VARIANTS.length + 1, tests, mismatched, why };
}

if (import.meta.main) {
  const figure = await benchAgentTable();
  console.log(JSON.stringify({ ...figure, agentVariants: AGENT_VARIANTS.length }, null, 2));
}
