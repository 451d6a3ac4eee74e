import assert from "node:assert/strict";
import { catalogue, executePlan, filterPlan, tiersOf } from "../src/engine.ts";
import { parseExpectations } from "../src/expectations.ts";
import type { HostEntry } from "../src/host.ts";
import type { Outcome, TestResult } from "../src/outcome.ts";
import { WHOLE } from "../src/shard.ts";
import type { RunSettings, SuiteDriver, TestCase } from "../src/suite.ts";
import { NO_CAPABILITIES } from "../src/exec/host_runner.ts";
import { headlessSettings } from "./_settings.ts";

function cliEntry(id: string): HostEntry {
  return {
    id,
    kind: "cli",
    summary: id,
    capabilities: [],
    runner: {
      name: id,
      binary: "true",
      dialect: "claude",
      capabilities: NO_CAPABILITIES,
      streamShape: { init: "required", terminal: "event" },
      goldenPaths: [],
      detect: () => Promise.resolve(null),
      build: () => {
        throw new Error("not used");
      },
    },
  };
}

/** A driver whose tests end as their names say: `cli/x/pass`, `cli/x/fail`, … */
function driver(behavior: { throwAfter?: number; skipReport?: string } = {}): SuiteDriver {
  return {
    id: "cli",
    accepts: (entry) => entry.kind === "cli",
    list: (): TestCase[] => ["cli/a/pass", "cli/a/fail", "cli/b/pass", "cli/b/secret"].map((id) => ({ id })),
    async run(entry, tests, _settings, sink) {
      let n = 0;
      for (const test of tests) {
        if (behavior.throwAfter !== undefined && n++ >= behavior.throwAfter) {
          throw new Error("driver crashed");
        }
        if (test.id === behavior.skipReport) continue;
        sink.started(entry.id, test.id);
        await Promise.resolve();
        const outcome: Outcome = test.id.endsWith("fail")
          ? { status: "FAIL", message: "broken" }
          : test.id.endsWith("secret")
          ? {
            status: "FAIL",
            message: "key sk-ant-abcdefghijklmnop leaked",
            details: { token: "sk-ant-abcdefghijklmnop" },
          }
          : { status: "PASS" };
        sink.finished(entry.id, test.id, outcome, 3);
      }
    },
  };
}

const settings = (signal = new AbortController().signal): RunSettings => headlessSettings({ signal });

Deno.test("filterPlan narrows by tier, pattern and suite and drops empty hosts", () => {
  const all = catalogue([cliEntry("h1"), cliEntry("h2")], [driver()], settings());
  assert.deepEqual(tiersOf(all), ["a", "b"]);
  const byTier = filterPlan(all, { suite: "all", tiers: ["b"], shard: WHOLE });
  assert.deepEqual(byTier.map((i) => i.tests.map((t) => t.id)), [["cli/b/pass", "cli/b/secret"], [
    "cli/b/pass",
    "cli/b/secret",
  ]]);
  assert.equal(
    filterPlan(all, { suite: "all", tiers: ["a", "b"], shard: WHOLE }).flatMap((i) => i.tests).length,
    8,
  );
  assert.equal(filterPlan(all, { suite: "all", tiers: [], shard: WHOLE }).flatMap((i) => i.tests).length, 8);
  assert.equal(filterPlan(all, { suite: "apps", shard: WHOLE }).length, 0);
  assert.equal(filterPlan(all, { suite: "all", grep: /nothing/, shard: WHOLE }).length, 0);
});

Deno.test("executePlan applies expectations, redacts secrets and keeps plan order", async () => {
  const plan = catalogue([cliEntry("h1")], [driver()], settings());
  const expectations = new Map([[
    "h1",
    parseExpectations(
      "schema: conformance-expectations/1\nhost: h1\ntests:\n  cli/a/fail:\n    status: FAIL\n    reason: known\n",
      "x",
    ),
  ]]);
  const seen: TestResult[] = [];
  const { results } = await executePlan({
    plan,
    settings: settings(),
    expectations,
    observer: { testStarted() {}, result: (r) => seen.push(r) },
    redact: (text) => text.replaceAll(/sk-ant-\w+/g, "[REDACTED]"),
  });
  assert.deepEqual(results.map((r) => [r.test, r.status, r.expected]), [
    ["cli/a/pass", "PASS", "PASS"],
    ["cli/a/fail", "FAIL", "FAIL"],
    ["cli/b/pass", "PASS", "PASS"],
    ["cli/b/secret", "FAIL", "PASS"],
  ]);
  assert.equal(seen.length, 4);
  assert.equal(results[1]!.details.expectationReason, "known");
  assert.ok(!JSON.stringify(results).includes("sk-ant-abc"), "no secret survives");
});

Deno.test("a test the driver never reported, or lost to a crash, becomes ERROR", async () => {
  const { results: missing } = await executePlan({
    plan: catalogue([cliEntry("h1")], [driver({ skipReport: "cli/b/pass" })], settings()),
    settings: settings(),
    expectations: new Map(),
    observer: { testStarted() {}, result() {} },
  });
  assert.equal(missing.find((r) => r.test === "cli/b/pass")!.status, "ERROR");
  assert.match(missing.find((r) => r.test === "cli/b/pass")!.message, /without reporting/);

  const { results: crashed } = await executePlan({
    plan: catalogue([cliEntry("h1")], [driver({ throwAfter: 1 })], settings()),
    settings: settings(),
    expectations: new Map(),
    observer: { testStarted() {}, result() {} },
  });
  assert.deepEqual(crashed.map((r) => r.status), ["PASS", "ERROR", "ERROR", "ERROR"]);
  assert.match(crashed[1]!.message, /driver crashed/);
});

Deno.test("an interrupted run leaves unreported tests out instead of blaming anyone", async () => {
  const controller = new AbortController();
  controller.abort();
  const { results } = await executePlan({
    plan: catalogue([cliEntry("h1"), cliEntry("h2")], [driver({ skipReport: "cli/a/fail" })], settings()),
    settings: settings(controller.signal),
    expectations: new Map(),
    observer: { testStarted() {}, result() {} },
  });
  assert.ok(results.every((r) => r.status !== "ERROR"));
});

/**
 * A driver as the real ones behave on Ctrl-C: the first test has passed, the second is running when the run
 * aborts and ends as the abort made it end (a TIMEOUT its expectation lists, or a FAIL "stopped: … abort"),
 * and the third never begins.
 */
function abortingDriver(controller: AbortController, ending: Outcome): SuiteDriver {
  return {
    id: "cli",
    accepts: (entry) => entry.kind === "cli",
    list: (): TestCase[] => ["cli/a/pass", "cli/a/running", "cli/a/later"].map((id) => ({ id })),
    async run(entry, tests, settings, sink) {
      for (const test of tests) {
        if (settings.signal.aborted) return;
        sink.started(entry.id, test.id);
        await Promise.resolve();
        if (test.id === "cli/a/running") controller.abort();
        sink.finished(entry.id, test.id, test.id === "cli/a/pass" ? { status: "PASS" } : ending, 3);
      }
    },
  };
}

for (
  const ending of [
    { status: "TIMEOUT", message: "still running after 800 ms (retrying)" },
    { status: "FAIL", message: 'stopped: expected "wall", got "abort"' },
  ] satisfies Outcome[]
) {
  Deno.test(`a test the interrupt stops is listed as interrupted, never as its ${ending.status}`, async () => {
    const controller = new AbortController();
    const expectations = new Map([[
      "h1",
      parseExpectations(
        "schema: conformance-expectations/1\nhost: h1\ntests:\n  cli/a/running:\n    status: TIMEOUT\n    reason: hangs\n",
        "x",
      ),
    ]]);
    const seen: TestResult[] = [];
    const { results, interrupted } = await executePlan({
      plan: catalogue([cliEntry("h1")], [abortingDriver(controller, ending)], settings()),
      settings: settings(controller.signal),
      expectations,
      observer: { testStarted() {}, result: (r) => seen.push(r) },
    });
    assert.deepEqual(results.map((r) => [r.test, r.status]), [["cli/a/pass", "PASS"]]);
    assert.deepEqual(seen.map((r) => r.test), ["cli/a/pass"], "the reporters heard of the stopped test");
    assert.deepEqual(interrupted, [
      { host: "h1", test: "cli/a/running", started: true },
      { host: "h1", test: "cli/a/later", started: false },
    ]);
  });
}
