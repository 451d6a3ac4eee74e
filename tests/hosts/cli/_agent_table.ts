/**
 * Running the CLI variant table (tests/hosts/cli/reference_agent_variants_test.ts, and `deno task bench`'s
 * `reference-agent` row): the reference agent and every broken variant of it and of the fake, each through
 * every CLI tier with the mock-model tiers on, a few hosts at a time.
 *
 * @module
 */
import assert from "node:assert/strict";
import { REFERENCE_AGENT_HOST, REFERENCE_AGENT_VARIANT_HOSTS } from "../../../hosts/cli/reference_agent.ts";
import { AGENT_VARIANTS, type AgentVariant } from "../../../hosts/cli/reference_agent_variants.ts";
import { FAKE_VARIANT_HOSTS, FAKE_VARIANTS } from "../../../hosts/cli/fake_variants.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { cliDriver } from "../../../suite/cli/driver.ts";
import { headlessSettings } from "../../_settings.ts";

/** The multiplier of every test but the faults: the limits a real CLI gets (a loaded machine needs them). */
export const MULTIPLIER = 1;
/**
 * The multiplier of the fault tests: the limit a real CLI gets. The reference agent ends a fault within a second
 * on a quiet machine, but its mock model shares this process with five other hosts' runs (one reads a 100 MB
 * flood): at load 50 its three disconnected requests outlasted half the limit (fresh-clone CI of 2026-12-06).
 * The variants that retry forever are watched to the limit, a few hosts at once.
 */
export const FAULT_MULTIPLIER = 1;
const FAULT = /^cli\/mock-model\/fault-/;
/** How many hosts run their tests at once: their runs mostly wait, but all at once swamp a two-core machine. */
export const HOSTS_AT_ONCE = 6;

/** A variant of the table with its registry entry. */
export type TableVariant = AgentVariant & { readonly entry: CliHostEntry };

/** Every variant: the reference agent's, then the fake's. */
export const VARIANTS: readonly TableVariant[] = [
  ...AGENT_VARIANTS.map((variant) => ({
    ...variant,
    entry: REFERENCE_AGENT_VARIANT_HOSTS.find((host) => host.id === `reference-agent:${variant.name}`)!,
  })),
  ...FAKE_VARIANTS.map((variant) => ({
    ...variant,
    entry: FAKE_VARIANT_HOSTS.find((host) => host.id === `fake:${variant.name}`)!,
  })),
];

/** One host's results, and how long it took. */
export interface HostRun {
  readonly results: Map<string, Outcome>;
  readonly ms: number;
}

/** Runs every CLI test of `entry`, the faults under their own multiplier. */
export async function runAll(entry: CliHostEntry): Promise<HostRun> {
  const started = performance.now();
  const results = new Map<string, Outcome>();
  const sink = {
    started: () => {},
    finished: (_host: string, test: string, outcome: Outcome) => void results.set(test, outcome),
  };
  const settings = headlessSettings({ mockModel: true, timeoutMultiplier: MULTIPLIER });
  const faultSettings = headlessSettings({ mockModel: true, timeoutMultiplier: FAULT_MULTIPLIER });
  const tests = cliDriver.list(entry, settings);
  await Promise.all([
    cliDriver.run(entry, tests.filter((test) => !FAULT.test(test.id)), settings, sink),
    cliDriver.run(entry, tests.filter((test) => FAULT.test(test.id)), faultSettings, sink),
  ]);
  assert.equal(results.size, tests.length, `${entry.id}: every listed test reports`);
  return { results, ms: Math.round(performance.now() - started) };
}

/**
 * Starts the runs of the reference agent and `variants`, {@linkcode HOSTS_AT_ONCE} hosts at a time; each
 * host's promise settles when its run ends, `done` when all have.
 */
export function runTable(variants: readonly TableVariant[]): {
  runs: Map<string, Promise<HostRun>>;
  done: Promise<void>;
} {
  const queue = [REFERENCE_AGENT_HOST, ...variants.map((variant) => variant.entry)];
  const pending = new Map(queue.map((entry) => [entry.id, Promise.withResolvers<HostRun>()]));
  const pool = Array.from({ length: HOSTS_AT_ONCE }, async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      const settled = pending.get(entry.id)!;
      await runAll(entry).then(settled.resolve, settled.reject);
    }
  });
  const runs = new Map([...pending].map(([id, settled]) => [id, settled.promise]));
  // A rejected run is reported by whoever awaits it; the pool itself only says when all have settled.
  for (const run of runs.values()) run.catch(() => {});
  return { runs, done: Promise.all(pool).then(() => {}) };
}

/** The non-PASS results of a run as test id → status, sorted by id. */
export function nonPassing(run: HostRun): Record<string, string> {
  return sorted(
    Object.fromEntries(
      [...run.results].filter(([, o]) => o.status !== "PASS").map(([id, o]) => [id, o.status]),
    ),
  );
}

/** `record` with its keys in order. */
export function sorted(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}
