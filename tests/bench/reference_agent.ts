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
}

/** Runs the table once and times it. */
export async function benchAgentTable(): Promise<TableFigure> {
  const started = performance.now();
  const { runs, done } = runTable(VARIANTS);
  await done;
  const ms = Math.round(performance.now() - started);
  let tests = 0;
  const mismatched: string[] = [];
  const reference = await runs.get(REFERENCE_AGENT_HOST.id)!;
  tests += reference.results.size;
  if (Object.keys(nonPassing(reference)).length > 0) mismatched.push(REFERENCE_AGENT_HOST.id);
  for (const variant of VARIANTS) {
    const run = await runs.get(variant.entry.id)!;
    tests += run.results.size;
    if (JSON.stringify(nonPassing(run)) !== JSON.stringify(sorted(variant.fails))) {
      mismatched.push(variant.entry.id);
    }
  }
  return { ms, hosts: VARIANTS.length + 1, tests, mismatched };
}

if (import.meta.main) {
  const figure = await benchAgentTable();
  console.log(JSON.stringify({ ...figure, agentVariants: AGENT_VARIANTS.length }));
}
