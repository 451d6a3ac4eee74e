/**
 * The run engine: plans (host, test) pairs from the suites, filters them by suite, tier, pattern and shard,
 * runs each host's selection through its suite driver, and turns every outcome into a {@linkcode TestResult}
 * with its expectation. Host-agnostic: it sees only registry entries and suite drivers.
 *
 * @module
 */
import type { HostEntry } from "./host.ts";
import type { Outcome, TestResult } from "./outcome.ts";
import { inShard, type Shard } from "./shard.ts";
import { type RunSettings, type SuiteDriver, type SuiteId, type TestCase, tierOf } from "./suite.ts";
import { type ExpectationSet, expectedStatus } from "./expectations.ts";

/** What one host runs: its suite and the selected tests, in order. */
export interface PlanItem {
  readonly entry: HostEntry;
  readonly suite: SuiteDriver;
  readonly tests: readonly TestCase[];
}

/** How to narrow the full catalogue. */
export interface PlanFilter {
  readonly suite: SuiteId | "all";
  /** Only tests of this tier (or MCP Apps area): the second segment of the test id. */
  readonly tier?: string;
  readonly grep?: RegExp;
  readonly shard: Shard;
}

/** Lists every test each host has, before filtering. */
export function catalogue(
  entries: readonly HostEntry[],
  suites: readonly SuiteDriver[],
  settings: Pick<RunSettings, "live" | "mockModel" | "goldenPaths">,
): PlanItem[] {
  const items: PlanItem[] = [];
  for (const entry of entries) {
    for (const suite of suites) {
      if (suite.accepts(entry)) items.push({ entry, suite, tests: suite.list(entry, settings) });
    }
  }
  return items;
}

/** Applies suite, tier, pattern and shard filters; hosts left with no test drop out. */
export function filterPlan(items: readonly PlanItem[], filter: PlanFilter): PlanItem[] {
  const kept: PlanItem[] = [];
  for (const item of items) {
    if (filter.suite !== "all" && item.suite.id !== filter.suite) continue;
    const tests = item.tests.filter((test) =>
      (filter.tier === undefined || tierOf(test.id) === filter.tier) &&
      (filter.grep === undefined || filter.grep.test(test.id)) &&
      inShard(filter.shard, item.entry.id, test.id)
    );
    if (tests.length > 0) kept.push({ ...item, tests });
  }
  return kept;
}

/** Every tier name present in a catalogue, for validating `--tier`. */
export function tiersOf(items: readonly PlanItem[]): string[] {
  return [...new Set(items.flatMap((item) => item.tests.map((test) => tierOf(test.id))))].sort();
}

/** The test's title for its result, when it has one other than its id. */
function titleOf(item: PlanItem, test: string): { title?: string } {
  const title = item.tests.find((t) => t.id === test)?.title;
  return title !== undefined && title !== test ? { title } : {};
}

/** What the engine tells reporters while it runs. */
export interface RunObserver {
  testStarted(host: string, test: string): void;
  result(result: TestResult): void;
}

/** Options of {@linkcode executePlan}. */
export interface ExecuteOptions {
  readonly plan: readonly PlanItem[];
  readonly settings: RunSettings;
  readonly expectations: ReadonlyMap<string, ExpectationSet>;
  readonly observer: RunObserver;
  /** Hosts run at once; each driver bounds its own concurrency inside. */
  readonly concurrency?: number;
  /** Applied to every message and detail before it leaves the engine. */
  readonly redact?: (text: string) => string;
}

/**
 * Runs the plan and returns every result in plan order. A test its driver never reported becomes ERROR
 * (the harness failed, not the host) unless the run was interrupted, in which case it is left out and the
 * caller marks the report incomplete.
 */
export async function executePlan(options: ExecuteOptions): Promise<TestResult[]> {
  const { plan, settings, expectations, observer } = options;
  const redact = options.redact ?? ((text: string) => text);
  const byItem = plan.map(() => new Map<string, TestResult>());

  const record = (index: number, test: string, outcome: Outcome, durationMs: number) => {
    const item = plan[index]!;
    const results = byItem[index]!;
    if (results.has(test) || !item.tests.some((t) => t.id === test)) return;
    const expectation = expectedStatus(expectations, item.entry.id, test);
    const details: Record<string, unknown> = redactDetails(outcome.details ?? {}, redact);
    if (expectation.reason !== undefined) details.expectationReason = expectation.reason;
    const result: TestResult = {
      host: item.entry.id,
      test,
      ...titleOf(item, test),
      status: outcome.status,
      expected: expectation.status,
      message: redact(outcome.message ?? ""),
      durationMs: Math.max(0, Math.round(durationMs)),
      details,
    };
    results.set(test, result);
    observer.result(result);
  };

  const runItem = async (index: number) => {
    const item = plan[index]!;
    const started = performance.now();
    let failure: unknown;
    try {
      await item.suite.run(item.entry, item.tests, settings, {
        started: (_host, test) => observer.testStarted(item.entry.id, test),
        finished: (_host, test, outcome, durationMs) => record(index, test, outcome, durationMs),
      });
    } catch (error) {
      failure = error;
    }
    if (settings.signal.aborted) return;
    const why = failure === undefined
      ? "the suite driver returned without reporting this test"
      : `the suite driver failed: ${failure instanceof Error ? failure.message : String(failure)}`;
    for (const test of item.tests) {
      record(index, test.id, { status: "ERROR", message: why }, performance.now() - started);
    }
  };

  const concurrency = Math.max(1, options.concurrency ?? 3);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, plan.length) }, async () => {
    while (next < plan.length && !settings.signal.aborted) await runItem(next++);
  });
  await Promise.all(workers);

  return plan.flatMap((item, index) =>
    item.tests.flatMap((test) => {
      const result = byItem[index]!.get(test.id);
      return result ? [result] : [];
    })
  );
}

function redactDetails(
  details: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(details, (_key, value) => typeof value === "string" ? redact(value) : value),
  );
}
