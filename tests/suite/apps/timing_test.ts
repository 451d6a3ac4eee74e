// `--timeout-multiplier` reaches the in-iframe suite: the Runner puts it in the start message, the engine scales
// each test's deadline and the waits inside tests (t.waitFor, the recorder) by it. The real engine runs in this
// process, reached through the same JSON round trip `frame.evaluate` makes.
import assert from "node:assert/strict";
import type { CapabilityResult, InIframeChannel, StartFilter, SubtestResult } from "../../../src/protocol.ts";
import type { Host, SuiteBridge } from "../../../src/runner/host.ts";
import { Runner } from "../../../src/runner/runner.ts";
import { SuiteEngine } from "../../../suite/apps/harness/engine.ts";
import { Recorder } from "../../../suite/apps/harness/recorder.ts";
import type { TestContext, TestDefinition } from "../../../suite/apps/harness/test_api.ts";
import { suiteDeadline, useTimeoutMultiplier } from "../../../suite/apps/harness/timing.ts";

const OWN_DEADLINE_MS = 60;

function bridgeTo(channel: InIframeChannel, starts: (StartFilter | null)[]): SuiteBridge {
  const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null));
  return {
    listTests: () => Promise.resolve(wire(channel.listTests())),
    start: (filter: StartFilter | null) => {
      starts.push(wire(filter));
      return Promise.resolve(channel.start(wire(filter)));
    },
    poll: () => Promise.resolve(wire(channel.poll())),
    resolve: (result: CapabilityResult, seq?: number) => Promise.resolve(channel.resolve(wire(result), seq)),
    isDetached: () => false,
  };
}

const host: Host = {
  id: "timing-test",
  setup: () => Promise.resolve(),
  teardown: () => Promise.resolve(),
  launch: () => Promise.reject(new Error("not used")),
};

function definition(
  id: string,
  run: (t: TestContext) => Promise<void>,
  timeoutMs?: number,
): TestDefinition<null> {
  return {
    id,
    name: id,
    vantage: "host",
    manual: false,
    clause: "MUST",
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    run,
  };
}

/** A test that never gives a verdict: only its deadline ends it. */
const hangs = definition(
  "t/hangs",
  (t) => new Promise((_, reject) => t.signal.addEventListener("abort", reject)),
  OWN_DEADLINE_MS,
);

/** A test that reports, as its observation, how long `t.waitFor(never, 50)` waited. */
const waits = definition("t/waits", async (t: TestContext) => {
  const started = performance.now();
  const value = await t.waitFor(() => undefined, 50, 5);
  t.observe("waitedMs", performance.now() - started);
  t.assert(value === undefined, "nothing to find");
});

async function runUnder(multiplier: number | undefined, tests: TestDefinition<null>[]) {
  const engine = new SuiteEngine(tests, {
    launcher: () => "run_conformance",
    ready: Promise.resolve(null),
    trigger: { arm: (fn) => Promise.resolve(fn()), disarm: () => {} },
  });
  const starts: (StartFilter | null)[] = [];
  const runner = new Runner(host, {
    pollIntervalMs: 5,
    ...(multiplier === undefined ? {} : { timeoutMultiplier: multiplier }),
  });
  const results = await runner.run(bridgeTo(engine, starts), null);
  return { results, starts };
}

function byId(results: SubtestResult[], id: string): SubtestResult {
  const found = results.find((result) => result.id === id);
  assert.ok(found, `no result for ${id}`);
  return found;
}

Deno.test("the Runner's start message carries its timeout multiplier, and none when it is 1", async () => {
  assert.deepEqual((await runUnder(4, [waits])).starts, [{ timeoutMultiplier: 4 }]);
  assert.deepEqual((await runUnder(undefined, [waits])).starts, [null]);
});

Deno.test("a multiplier from the Runner scales an in-iframe test's own deadline", async () => {
  const plain = byId((await runUnder(1, [hangs])).results, hangs.id);
  assert.equal(plain.status, "TIMEOUT");
  assert.equal(plain.message, `No verdict within ${OWN_DEADLINE_MS} ms`);
  const slow = byId((await runUnder(5, [hangs])).results, hangs.id);
  assert.equal(slow.status, "TIMEOUT");
  assert.equal(slow.message, `No verdict within ${OWN_DEADLINE_MS * 5} ms`);
  assert.ok(slow.durationMs >= OWN_DEADLINE_MS * 5 * 0.9, `ended after ${slow.durationMs} ms`);
});

Deno.test("a multiplier from the Runner scales t.waitFor inside a test", async () => {
  const waited = async (multiplier: number) => {
    const result = byId((await runUnder(multiplier, [waits])).results, waits.id);
    assert.equal(result.status, "PASS", result.message);
    return (result.value as { waitedMs: number }).waitedMs;
  };
  const plain = await waited(1);
  const slow = await waited(8);
  assert.ok(plain >= 45 && plain < 350, `waited ${plain} ms at 1`);
  // 50 ms × 8; a timer may fire a fraction of a millisecond early (399.6 ms seen under CI load).
  assert.ok(slow >= 398, `waited ${slow} ms at 8`);
});

Deno.test("the recorder's wait for an event is scaled too", async () => {
  const recorder = new Recorder();
  try {
    useTimeoutMultiplier(6);
    const started = performance.now();
    assert.equal(await recorder.next("toolresult", { timeoutMs: 30 }), undefined);
    assert.ok(performance.now() - started >= 170, `waited ${performance.now() - started} ms`);
  } finally {
    useTimeoutMultiplier(undefined);
  }
});

Deno.test("a start message without a usable multiplier means 1", () => {
  for (const value of [undefined, null, 0, -2, Number.NaN, "3"]) {
    assert.equal(useTimeoutMultiplier(value), 1);
    assert.equal(suiteDeadline(1_000), 1_000);
  }
  assert.equal(useTimeoutMultiplier(2.5), 2.5);
  assert.equal(suiteDeadline(1_000), 2_500);
  useTimeoutMultiplier(undefined);
});

Deno.test("every SDK request timeout in the catalogue is a suite deadline, scaled by the multiplier", async () => {
  // A raw `{ timeout: 3_000 }` stays 3 s at --timeout-multiplier 2, and a slow host's late answer becomes its FAIL.
  const raw: string[] = [];
  const folder = new URL("../../../suite/apps/catalogue/", import.meta.url);
  for await (const file of Deno.readDir(folder)) {
    if (!file.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(file.name, folder));
    text.split("\n").forEach((line, index) => {
      if (/\btimeout:\s*[\d_]+/.test(line)) raw.push(`${file.name}:${index + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(raw, []);
});
