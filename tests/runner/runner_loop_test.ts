/**
 * The Runner's loop against the real suite engine (suite/apps/harness/engine.ts) running in this process:
 * dispatch to host methods, `unsupported` for absent ones, per-request deadlines, stale answers, the stall
 * guard. The browser path is covered by runner_test.ts; these cases need no browser.
 */
import assert from "node:assert/strict";
import type { CapabilityResult, InIframeChannel, StartFilter } from "../../src/protocol.ts";
import type { Host, SuiteBridge } from "../../src/runner/host.ts";
import { Runner, SuiteRunInterrupted } from "../../src/runner/runner.ts";
import { SuiteEngine } from "../../suite/apps/harness/engine.ts";
import type { TestContext, TestDefinition } from "../../suite/apps/harness/test_api.ts";

/** The channel, reached directly instead of through `frame.evaluate`, with the same JSON round trip. */
function bridgeTo(channel: InIframeChannel): SuiteBridge {
  const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null));
  return {
    listTests: () => Promise.resolve(wire(channel.listTests())),
    start: (filter: StartFilter | null) => Promise.resolve(channel.start(wire(filter))),
    poll: () => Promise.resolve(wire(channel.poll())),
    resolve: (result: CapabilityResult, seq?: number) => Promise.resolve(channel.resolve(wire(result), seq)),
    isDetached: () => false,
  };
}

function engineOf(tests: TestDefinition<null>[]): SuiteEngine<null> {
  return new SuiteEngine(tests, {
    launcher: () => "run_conformance",
    ready: Promise.resolve(null),
    trigger: { arm: (fn) => Promise.resolve(fn()), disarm: () => {} },
    timeouts: { automatic: 20_000, manual: 20_000 },
  });
}

const host = (methods: Partial<Host>): Host => ({
  id: "loop-test",
  setup: () => Promise.resolve(),
  teardown: () => Promise.resolve(),
  launch: () => Promise.reject(new Error("not used")),
  ...methods,
});

const test = (id: string, run: TestDefinition<null>["run"], manual = false): TestDefinition<null> => ({
  id,
  name: id,
  vantage: "host",
  manual,
  clause: "MUST",
  run,
});

Deno.test("requests reach the host method of their kind; absent methods answer unsupported (SKIP)", async () => {
  const seen: string[] = [];
  const engine = engineOf([
    test("t/model-list", async (t) => {
      const value = await t.host({ kind: "readModelToolList" }) as string[];
      t.assertEqual(value, ["a"], "tools");
    }),
    test("t/absent", async (t) => {
      await t.host({ kind: "inspectFrame" });
    }),
  ]);
  const runner = new Runner(
    host({
      readModelToolList: (request) => {
        seen.push(request.kind);
        return Promise.resolve({ ok: true, value: ["a"] });
      },
    }),
    { pollIntervalMs: 5 },
  );
  const results = await runner.run(bridgeTo(engine), null);
  assert.deepEqual(results.map((result) => [result.id, result.status]), [["t/model-list", "PASS"], [
    "t/absent",
    "SKIP",
  ]]);
  assert.match(results[1]!.message ?? "", /does not support "inspectFrame"/);
  assert.deepEqual(seen, ["readModelToolList"]);
});

Deno.test("a host method that overruns its deadline answers an error, and the suite goes on", async () => {
  const engine = engineOf([
    test("t/slow", async (t: TestContext) => {
      const answer = await t.hostOptional({ kind: "toggleTheme", to: "dark" });
      t.assert(
        !answer.ok && /no answer within/.test(answer.error ?? ""),
        `unexpected ${JSON.stringify(answer)}`,
      );
    }),
    test("t/after", () => Promise.resolve()),
  ]);
  const runner = new Runner(
    host({
      toggleTheme: (_request, context) =>
        new Promise((_, reject) =>
          context.signal.addEventListener("abort", () => reject(context.signal.reason))
        ),
    }),
    { pollIntervalMs: 5, requestTimeoutMs: 200 },
  );
  const results = await runner.run(bridgeTo(engine), null);
  assert.deepEqual(results.map((result) => result.status), ["PASS", "PASS"]);
});

Deno.test("a driver that throws makes its test's non-PASS the harness's ERROR, never the host's FAIL", async () => {
  const engine = engineOf([
    // The host's verdict would be FAIL ("not testable: the host failed"), and a WARN for a SHOULD.
    test("t/thrown", async (t) => void await t.host({ kind: "readModelToolList" })),
    // A test that falls back and PASSes keeps its PASS.
    test("t/fallback", async (t) => void await t.hostOptional({ kind: "readModelToolList" })),
    // A host that answers ok: false itself (no exception) is still judged.
    test("t/refused", async (t) => void await t.host({ kind: "inspectFrame" })),
    // A deadline is not counted: the driver may be waiting on the host.
    test("t/slow", async (t) => void await t.host({ kind: "toggleTheme", to: "dark" })),
    test("t/after", () => Promise.resolve()),
  ]);
  const runner = new Runner(
    host({
      readModelToolList: () => Promise.reject(new Error("locator('#tools') matched nothing")),
      inspectFrame: () => Promise.resolve({ ok: false, error: "the host has no frame" }),
      toggleTheme: (_request, context) =>
        new Promise((_, reject) =>
          context.signal.addEventListener("abort", () => reject(context.signal.reason))
        ),
    }),
    { pollIntervalMs: 5, requestTimeoutMs: 200 },
  );
  const results = await runner.run(bridgeTo(engine), null);
  assert.deepEqual(
    results.map((result) => [result.id, result.status]),
    [["t/thrown", "NOTRUN"], ["t/fallback", "PASS"], ["t/refused", "FAIL"], ["t/slow", "FAIL"], [
      "t/after",
      "PASS",
    ]],
  );
  assert.match(
    results[0]!.message ?? "",
    /^Not testable: the harness failed while servicing "readModelToolList": locator\('#tools'\) matched nothing \(the test said FAIL: /,
  );
});

Deno.test("the stall guard ends a run that stops changing, keeping what was reported", async () => {
  const engine = engineOf([
    test("t/done", () => Promise.resolve()),
    test("t/hangs", (t) => t.sleep(60_000)),
  ]);
  const runner = new Runner(host({}), { pollIntervalMs: 5, stallMs: 300 });
  const error = await runner.run(bridgeTo(engine), null).then(() => null, (caught: unknown) => caught);
  assert.ok(error instanceof SuiteRunInterrupted, `expected an interruption, got ${error}`);
  assert.match(error.message, /stall guard/);
  assert.equal(error.runningId, "t/hangs");
  assert.deepEqual(error.results.map((result) => result.id), ["t/done"]);
});

Deno.test("an aborted run stops promptly with the partial results", async () => {
  const abort = new AbortController();
  const engine = engineOf([test("t/hangs", (t) => t.sleep(60_000))]);
  const runner = new Runner(host({}), { pollIntervalMs: 5, signal: abort.signal });
  setTimeout(() => abort.abort(), 100);
  await assert.rejects(runner.run(bridgeTo(engine), null), /aborted/);
});

Deno.test("the Runner keeps polling while a slow host request is serviced", async () => {
  let polls = 0;
  const engine = engineOf([
    test("t/slow-but-fine", async (t) => {
      await t.host({ kind: "toggleTheme", to: "dark" });
    }),
  ]);
  const bridge = bridgeTo(engine);
  const counted: SuiteBridge = { ...bridge, poll: () => (polls++, bridge.poll()) };
  let pollsDuringRequest = 0;
  const runner = new Runner(
    host({
      toggleTheme: async () => {
        const before = polls;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        pollsDuringRequest = polls - before;
        return { ok: true };
      },
    }),
    { pollIntervalMs: 5 },
  );
  const results = await runner.run(counted, null);
  assert.equal(results[0]?.status, "PASS");
  assert.ok(pollsDuringRequest >= 2, `only ${pollsDuringRequest} polls during a 1.5 s request`);
});

Deno.test("a request kind or dialog the protocol does not know answers unsupported; open-link reaches link", async () => {
  const dialogs: string[] = [];
  const called: string[] = [];
  const runner = new Runner(
    host({
      confirmDialog: (request) => {
        dialogs.push(request.dialog);
        return Promise.resolve({ ok: true });
      },
      // Host methods that are not capabilities must never be reached by a request of their name.
      setup: () => {
        called.push("setup");
        return Promise.resolve();
      },
    }),
    { pollIntervalMs: 5 },
  );
  const ask = (request: unknown) => runner.dispatch(request as never);
  assert.deepEqual(await ask({ kind: "confirmDialog", dialog: "open-link" }), { ok: true });
  assert.deepEqual(await ask({ kind: "confirmDialog", dialog: "camera" }), { ok: false, unsupported: true });
  assert.deepEqual(await ask({ kind: "confirmDialog" }), { ok: false, unsupported: true });
  for (const kind of ["fetchWeather", "setup", "constructor", "toString", "__proto__"]) {
    assert.deepEqual(await ask({ kind }), { ok: false, unsupported: true }, kind);
  }
  assert.deepEqual(await ask(null), { ok: false, unsupported: true });
  assert.deepEqual(dialogs, ["link"]);
  assert.deepEqual(called, []);

  // Through the loop: the suite's test sees the unsupported answer, and the run goes on.
  const engine = engineOf([
    test("t/unknown", async (t: TestContext) => {
      const answer = await t.hostOptional({ kind: "fetchWeather" } as never);
      t.assert(answer.unsupported === true, `answered ${JSON.stringify(answer)}`);
    }),
  ]);
  const results = await runner.run(bridgeTo(engine), null);
  assert.deepEqual(results.map((result) => [result.id, result.status]), [["t/unknown", "PASS"]]);
});
