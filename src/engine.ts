/**
 * The run engine: plans (host, test) pairs from the suites, filters them by suite, tier, pattern and shard,
 * runs each host's selection through its suite driver, and turns every outcome into a {@linkcode TestResult}
 * with its expectation. Host-agnostic: it sees only registry entries and suite drivers.
 *
 * @module
 */
import type { HostEntry } from "./host.ts";
import { compare, type InterruptedTest, type Outcome, type TestResult } from "./outcome.ts";
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
  /** Only tests of these tiers (or MCP Apps areas): the second segment of the test id. Empty or absent: all. */
  readonly tiers?: readonly string[];
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
      (!filter.tiers?.length || filter.tiers.includes(tierOf(test.id))) &&
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
  /**
   * `--retries N`: an unexpected result is run again, up to N more times, in a pass of its own that asks the
   * driver for just those tests (for MCP Apps, a fresh render of them; for a CLI, fresh host runs: the pass
   * has settings of its own, `attempt`). One that then matches is marked flaky.
   */
  readonly retries?: number;
}

/** What {@linkcode executePlan} returns. */
export interface PlanRun {
  /** Every result, in plan order. */
  readonly results: TestResult[];
  /** The tests the run's abort left without a result, in plan order; empty when the run was not aborted. */
  readonly interrupted: InterruptedTest[];
}

/**
 * Runs the plan and returns every result in plan order. A test its driver never reported becomes ERROR
 * (the harness failed, not the host) unless the run was interrupted. Once the run's signal aborts, nothing a
 * driver reports counts: a test still running then ends the way the abort made it end (a stopped stream, a
 * suite that stopped answering), which says nothing about the host. Such tests, and those that never began,
 * are returned as `interrupted`, never judged against their expectation; the caller marks the report
 * incomplete.
 */
export async function executePlan(options: ExecuteOptions): Promise<PlanRun> {
  const { plan, settings, expectations, observer } = options;
  const redact = options.redact ?? ((text: string) => text);
  const byItem = plan.map(() => new Map<string, TestResult>());
  const retries = Math.max(0, Math.floor(options.retries ?? 0));
  /** Per item: the attempts of each test whose result waits for a retry. */
  const held = plan.map(() => new Map<string, TestResult[]>());
  /** Per item: the tests reported in the current pass, and those ever started (the observer hears it once). */
  const reported = plan.map(() => new Set<string>());
  const begun = plan.map(() => new Set<string>());

  const settle = (index: number, result: TestResult) => {
    const earlier = held[index]!.get(result.test) ?? [];
    // A retry that could not apply proves nothing: it is not the match that would make the test flaky.
    const unmatched = compare(result) === "unexpected" || (earlier.length > 0 && result.status === "SKIP");
    if (unmatched && earlier.length < retries && !settings.signal.aborted) {
      held[index]!.set(result.test, [...earlier, result]);
      return;
    }
    held[index]!.delete(result.test);
    const final = earlier.length === 0 ? result : retried([...earlier, result]);
    byItem[index]!.set(result.test, final);
    observer.result(final);
  };

  const record = (index: number, test: string, outcome: Outcome, durationMs: number) => {
    if (settings.signal.aborted) return;
    const item = plan[index]!;
    const results = byItem[index]!;
    if (results.has(test) || !item.tests.some((t) => t.id === test)) return;
    if (reported[index]!.has(test)) return;
    reported[index]!.add(test);
    const expectation = expectedStatus(expectations, item.entry.id, test);
    const details: Record<string, unknown> = redactDetails(outcome.details ?? {}, redact);
    if (expectation.reason !== undefined) details.expectationReason = expectation.reason;
    if (expectation.note !== undefined) details.expectationNote = expectation.note;
    const result: TestResult = {
      host: item.entry.id,
      test,
      ...titleOf(item, test),
      status: outcome.status,
      expected: expectation.status,
      ...(expectation.statuses ? { expectedAny: [...expectation.statuses] } : {}),
      message: redact(outcome.message ?? ""),
      durationMs: Math.max(0, Math.round(durationMs)),
      details,
    };
    settle(index, result);
  };

  const runPass = async (index: number, tests: readonly TestCase[], attempt: number) => {
    const item = plan[index]!;
    const first = attempt === 1;
    const started = performance.now();
    reported[index] = new Set();
    // A retry pass's own settings: nothing a driver keeps per settings object (a shared host run) carries over
    // from an earlier attempt, so a retry starts the host again rather than re-judging what it did.
    const passSettings: RunSettings = first ? settings : { ...settings, attempt };
    let failure: unknown;
    try {
      await item.suite.run(item.entry, tests, passSettings, {
        started: (_host, test) => {
          if (begun[index]!.has(test) || settings.signal.aborted) return;
          begun[index]!.add(test);
          observer.testStarted(item.entry.id, test);
        },
        finished: (_host, test, outcome, durationMs) => record(index, test, outcome, durationMs),
      });
    } catch (error) {
      failure = error;
    }
    // A retry pass that did not report a test leaves it with its earlier attempts.
    if (settings.signal.aborted || !first) return;
    const why = failure === undefined
      ? "the suite driver returned without reporting this test"
      : `the suite driver failed: ${failure instanceof Error ? failure.message : String(failure)}`;
    for (const test of tests) {
      record(index, test.id, { status: "ERROR", message: why }, performance.now() - started);
    }
  };

  const runItem = async (index: number) => {
    const item = plan[index]!;
    await runPass(index, item.tests, 1);
    for (let pass = 1; pass <= retries && held[index]!.size > 0 && !settings.signal.aborted; pass++) {
      await runPass(index, item.tests.filter((test) => held[index]!.has(test.id)), pass + 1);
    }
    // Still waiting (the run was interrupted, or a retry pass did not report it): the last attempt stands.
    for (const attempts of [...held[index]!.values()]) {
      held[index]!.delete(attempts[0]!.test);
      const final = retried(attempts);
      byItem[index]!.set(final.test, final);
      observer.result(final);
    }
  };

  const concurrency = Math.max(1, options.concurrency ?? 3);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, plan.length) }, async () => {
    while (next < plan.length && !settings.signal.aborted) await runItem(next++);
  });
  await Promise.all(workers);

  const results = plan.flatMap((item, index) =>
    item.tests.flatMap((test) => {
      const result = byItem[index]!.get(test.id);
      return result ? [result] : [];
    })
  );
  if (!settings.signal.aborted) return { results, interrupted: [] };
  const interrupted = plan.flatMap((item, index) =>
    item.tests.flatMap((test): InterruptedTest[] =>
      byItem[index]!.has(test.id) ? [] : [{
        host: item.entry.id,
        test: test.id,
        ...titleOf(item, test.id),
        started: begun[index]!.has(test.id),
      }]
    )
  );
  return { results, interrupted };
}

/**
 * The result of a test that ran more than once: its last attempt, marked flaky when that one matched its
 * expectation, with every attempt's status and message in `details.attemptResults`, in order. A last attempt
 * that could not apply (SKIP) does not stand for the test: the most recent one that did is reported.
 */
function retried(attempts: readonly TestResult[]): TestResult {
  const last = attempts.at(-1)!;
  const standing = last.status === "SKIP" ? attempts.findLast((a) => a.status !== "SKIP") ?? last : last;
  if (attempts.length === 1) return standing;
  return {
    ...standing,
    details: {
      ...standing.details,
      attemptResults: attempts.map(({ status, message, durationMs }) => ({ status, message, durationMs })),
    },
    ...(compare(standing) === "expected" && standing.status !== "SKIP" ? { flaky: true as const } : {}),
    attempts: attempts.length,
  };
}

function redactDetails(
  details: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(details, (_key, value) => typeof value === "string" ? redact(value) : value),
  );
}
