/**
 * `--retries` at the engine's seam: a retry pass asks the driver again for just the unexpected tests, a result
 * that then matches is flaky, a consistent failure stays a failure with its attempts counted.
 */
import assert from "node:assert/strict";
import { catalogue, executePlan } from "../src/engine.ts";
import { parseExpectations } from "../src/expectations.ts";
import type { HostEntry } from "../src/host.ts";
import type { Outcome, Status, TestResult } from "../src/outcome.ts";
import type { RunSettings, SuiteDriver, TestCase } from "../src/suite.ts";
import { headlessSettings } from "./_settings.ts";

const entry = {
  id: "web",
  kind: "web",
  summary: "",
  capabilities: [],
  create: () => ({}),
} as unknown as HostEntry;

const settings = (signal = new AbortController().signal): RunSettings => headlessSettings({ signal });

/** A driver whose test `t/<name>` ends with the statuses its script lists, one per run; it logs each pass. */
function scripted(scripts: Record<string, Status[]>, passes: string[][]): SuiteDriver {
  const runs = new Map<string, number>();
  return {
    id: "apps",
    accepts: () => true,
    list: (): TestCase[] => Object.keys(scripts).map((name) => ({ id: `apps/t/${name}` })),
    run(host, tests, _settings, sink) {
      passes.push(tests.map((test) => test.id));
      for (const test of tests) {
        const name = test.id.split("/")[2]!;
        const n = runs.get(name) ?? 0;
        runs.set(name, n + 1);
        const status = scripts[name]![Math.min(n, scripts[name]!.length - 1)]!;
        const outcome: Outcome = status === "PASS"
          ? { status }
          : { status, message: `${status} on run ${n + 1}` };
        sink.started(host.id, test.id);
        sink.finished(host.id, test.id, outcome, 1);
      }
      return Promise.resolve();
    },
  };
}

async function execute(scripts: Record<string, Status[]>, retries: number, expectations = new Map()) {
  const passes: string[][] = [];
  const started: string[] = [];
  const seen: TestResult[] = [];
  const { results } = await executePlan({
    plan: catalogue([entry], [scripted(scripts, passes)], settings()),
    settings: settings(),
    expectations,
    retries,
    observer: { testStarted: (_host, test) => started.push(test), result: (r) => seen.push(r) },
  });
  return { results, passes, started, seen };
}

Deno.test("a retry pass reruns only the unexpected tests; one that then passes is flaky", async () => {
  const { results, passes, started, seen } = await execute({
    steady: ["PASS"],
    once: ["FAIL", "PASS"],
    broken: ["FAIL"],
    slow: ["TIMEOUT", "TIMEOUT", "PASS"],
  }, 2);
  assert.deepEqual(passes, [
    ["apps/t/steady", "apps/t/once", "apps/t/broken", "apps/t/slow"],
    ["apps/t/once", "apps/t/broken", "apps/t/slow"],
    ["apps/t/broken", "apps/t/slow"],
  ]);
  const byName = Object.fromEntries(results.map((r) => [r.test.split("/")[2], r]));
  assert.equal(byName.steady?.attempts, undefined);
  assert.equal(byName.steady?.flaky, undefined);
  assert.deepEqual([byName.once?.status, byName.once?.flaky, byName.once?.attempts], ["PASS", true, 2]);
  assert.deepEqual([byName.broken?.status, byName.broken?.flaky, byName.broken?.attempts], [
    "FAIL",
    undefined,
    3,
  ]);
  assert.deepEqual([byName.slow?.status, byName.slow?.flaky, byName.slow?.attempts], ["PASS", true, 3]);
  assert.deepEqual(
    (byName.slow?.details.attemptResults as { status: string }[]).map((a) => a.status),
    ["TIMEOUT", "TIMEOUT", "PASS"],
  );
  assert.deepEqual(
    results.map((r) => r.test.split("/")[2]),
    ["steady", "once", "broken", "slow"],
    "plan order",
  );
  assert.equal(seen.length, 4, "the observer hears one result per test, the final one");
  assert.equal(started.length, 4, "and one start per test");
});

Deno.test("without retries nothing is rerun; a listed failure is not retried; a SKIP on a retry is no match", async () => {
  const none = await execute({ once: ["FAIL", "PASS"] }, 0);
  assert.deepEqual(none.passes.length, 1);
  assert.equal(none.results[0]?.status, "FAIL");

  const listed = parseExpectations(
    "schema: conformance-expectations/1\nhost: web\ntests:\n  apps/t/known: { status: FAIL, reason: tracked }\n",
    "e.yaml",
  );
  const known = await execute({ known: ["FAIL", "PASS"] }, 2, new Map([["web", listed]]));
  assert.equal(known.passes.length, 1, "an expected failure is as expected: nothing to retry");

  const skipped = await execute({ gone: ["FAIL", "SKIP", "SKIP"] }, 2);
  assert.equal(
    skipped.results[0]?.status,
    "FAIL",
    "the failure stands: a retry that could not apply proves nothing",
  );
  assert.equal(skipped.results[0]?.flaky, undefined);
  assert.equal(skipped.results[0]?.attempts, 3);
});

Deno.test("each retry pass gets settings of its own, numbered by attempt, with the run's signal", async () => {
  const seen: RunSettings[] = [];
  const base = scripted({ once: ["FAIL", "FAIL", "PASS"] }, []);
  const driver: SuiteDriver = {
    ...base,
    run: (
      host,
      tests,
      passSettings,
      sink,
    ) => (seen.push(passSettings), base.run(host, tests, passSettings, sink)),
  };
  const runSettings = settings();
  const { results } = await executePlan({
    plan: catalogue([entry], [driver], runSettings),
    settings: runSettings,
    expectations: new Map(),
    retries: 2,
    observer: { testStarted: () => {}, result: () => {} },
  });
  assert.deepEqual(seen.map((passSettings) => passSettings.attempt), [undefined, 2, 3]);
  assert.equal(seen[0], runSettings, "the first pass runs with the run's settings");
  assert.equal(
    new Set(seen).size,
    3,
    "what a driver keeps per settings object does not carry over to a retry",
  );
  assert.ok(seen.every((passSettings) => passSettings.signal === runSettings.signal));
  assert.deepEqual([results[0]?.status, results[0]?.flaky, results[0]?.attempts], ["PASS", true, 3]);
});
