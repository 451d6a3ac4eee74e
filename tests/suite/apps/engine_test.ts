import assert from "node:assert/strict";
import { type CapabilityResult, outcomeStatusOf, type SuitePoll } from "../../../src/protocol.ts";
import { SuiteEngine, type Trigger } from "../../../suite/apps/harness/engine.ts";
import type { TestContext, TestDefinition } from "../../../suite/apps/harness/test_api.ts";

/** The engine's trigger without a DOM: `click()` plays the Runner's real click. */
class ManualTrigger implements Trigger {
  #armed: (() => void) | null = null;
  arm<T>(fn: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#armed = () => Promise.resolve().then(fn).then(resolve, reject);
    });
  }
  disarm(): void {
    this.#armed = null;
  }
  click(): boolean {
    const run = this.#armed;
    this.#armed = null;
    run?.();
    return run !== null;
  }
}

type Env = { name: string };
type Answer = (request: NonNullable<Extract<SuitePoll, { state: "running" }>["request"]>) => CapabilityResult;

function engineOf(
  tests: TestDefinition<Env>[],
  options: { ready?: Promise<Env>; launcher?: "run_conformance" | "run_conformance_nocsp" } = {},
) {
  const trigger = new ManualTrigger();
  const engine = new SuiteEngine<Env>(tests, {
    launcher: () => options.launcher ?? "run_conformance",
    ready: options.ready ?? Promise.resolve({ name: "env" }),
    trigger,
    timeouts: { automatic: 2_000, manual: 2_000 },
  });
  return { engine, trigger };
}

/** Plays the Runner: polls, answers each request with `answer`, until done. Returns every request seen. */
async function drive(engine: SuiteEngine<Env>, answer: Answer, trigger?: ManualTrigger) {
  const seen: string[] = [];
  for (let i = 0; i < 2_000; i++) {
    const poll = engine.poll();
    if (poll.state === "done") return { results: poll.results, seen };
    if (poll.state === "running" && poll.request) {
      seen.push(poll.request.kind);
      if (poll.request.kind === "clickTrigger") trigger?.click();
      engine.resolve(answer(poll.request), poll.requestSeq);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("The suite never finished");
}

function test(
  id: string,
  run: (t: TestContext) => Promise<void>,
  extra: Partial<TestDefinition<Env>> = {},
): TestDefinition<Env> {
  return { id, name: id, vantage: "in-view", manual: false, clause: "MUST", run, ...extra };
}

Deno.test("listTests orders automatic, then manual, then last tests, and carries no test bodies", () => {
  const { engine } = engineOf([
    test("a/last", () => Promise.resolve(), { manual: true, phase: "last" }),
    test("a/manual", () => Promise.resolve(), { manual: true }),
    test("a/auto", () => Promise.resolve()),
    test("a/auto2", () => Promise.resolve(), { launcher: "run_conformance_nocsp", draft: true }),
  ]);
  const listed = engine.listTests();
  assert.deepEqual(listed.map((meta) => meta.id), ["a/auto", "a/auto2", "a/manual", "a/last"]);
  assert.equal("run" in listed[0]!, false);
  assert.equal(listed[1]!.launcher, "run_conformance_nocsp");
  assert.equal(listed[1]!.draft, true);
  assert.deepEqual(JSON.parse(JSON.stringify(listed)), listed, "listTests must survive frame.evaluate");
});

Deno.test("a run reports PASS, FAIL, SKIP and a thrown error per test, then done", async () => {
  const { engine } = engineOf([
    test("x/pass", () => Promise.resolve()),
    test("x/fail", (t: TestContext) => Promise.resolve(t.assert(false, "broken", { seen: 1 }))),
    test("x/skip", (t: TestContext) => Promise.resolve(t.skip("not here"))),
    test("x/throw", () => Promise.reject(new TypeError("boom"))),
    test("x/equal", (t: TestContext) => Promise.resolve(t.assertEqual({ a: [1] }, { a: [2] }, "shape"))),
  ]);
  assert.deepEqual(engine.poll(), { state: "idle" });
  engine.start(null);
  const { results } = await drive(engine, () => ({ ok: true }));
  assert.deepEqual(results.map((r) => [r.id, r.status]), [
    ["x/pass", "PASS"],
    ["x/fail", "FAIL"],
    ["x/skip", "SKIP"],
    ["x/throw", "FAIL"],
    ["x/equal", "FAIL"],
  ]);
  assert.equal(results[1]!.message, "broken");
  assert.deepEqual(results[1]!.value, { failure: { seen: 1 } });
  assert.equal(results[2]!.message, "not here");
  assert.match(results[3]!.message ?? "", /threw TypeError: boom/);
  assert.match(results[4]!.message ?? "", /expected \{"a":\[2\]\}, got \{"a":\[1\]\}/);
});

Deno.test("t.notTestable ends a test as NOTRUN with the reason, which the run reports as ERROR", async () => {
  const { engine } = engineOf([
    test("n/unreachable", (t: TestContext) => Promise.resolve(t.notTestable("the control origin is down"))),
  ]);
  engine.start(null);
  const { results } = await drive(engine, () => ({ ok: true }));
  assert.equal(results[0]!.status, "NOTRUN");
  assert.equal(results[0]!.message, "Not testable: the control origin is down");
  assert.equal(outcomeStatusOf(results[0]!), "ERROR");
});

Deno.test("t.host parks one request, ignores a stale seq, SKIPs on unsupported and FAILs when the host fails", async () => {
  const { engine } = engineOf([
    test("h/value", async (t: TestContext) => {
      const value = await t.host({ kind: "readModelToolList" });
      t.assertEqual(value, { tools: ["x"] }, "value");
    }),
    test("h/unsupported", async (t) => void await t.host({ kind: "inspectFrame" })),
    test("h/failed", async (t) => void await t.host({ kind: "toggleTheme", to: "dark" })),
    test("h/optional", async (t: TestContext) => {
      const raw = await t.hostOptional({ kind: "inspectFrame" });
      t.assert(raw.unsupported === true, "raw answer");
    }),
  ]);
  engine.start(undefined);
  let poll = engine.poll();
  for (let i = 0; i < 200 && !(poll.state === "running" && poll.request); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    poll = engine.poll();
  }
  assert.ok(poll.state === "running" && poll.request?.kind === "readModelToolList");
  assert.equal(poll.runningId, "h/value");
  assert.deepEqual(poll.progress, { done: 0, total: 4 });
  engine.resolve({ ok: true, value: { tools: ["stale"] } }, (poll.requestSeq ?? 0) + 99);
  const still = engine.poll();
  assert.ok(still.state === "running" && still.request !== null, "a stale seq must not settle the request");
  const { results } = await drive(
    engine,
    (request) =>
      request.kind === "readModelToolList"
        ? { ok: true, value: { tools: ["x"] } }
        : request.kind === "inspectFrame"
        ? { ok: false, unsupported: true }
        : { ok: false, error: "no theme switch" },
  );
  assert.deepEqual(results.map((r) => r.status), ["PASS", "SKIP", "FAIL", "PASS"]);
  assert.match(results[1]!.message ?? "", /does not support "inspectFrame"/);
  assert.match(results[2]!.message ?? "", /Not testable: the host failed "toggleTheme": no theme switch/);
});

Deno.test("a malformed answer settles the request as a failure", async () => {
  const { engine } = engineOf([
    test("m/bad", async (t: TestContext) => {
      const raw = await t.hostOptional({ kind: "inspectFrame" });
      t.assert(raw.ok, raw.error ?? "?");
    }),
  ]);
  engine.start(null);
  const { results } = await drive(engine, () => ({ yes: 1 }) as unknown as CapabilityResult);
  assert.equal(results[0]!.status, "FAIL");
  assert.match(results[0]!.message ?? "", /Malformed capability result/);
});

Deno.test("manual tests get resetIsolation first; bindTrigger runs inside the Runner's click", async () => {
  let clicked = false;
  const { engine, trigger } = engineOf([
    test("m/click", async (t: TestContext) => {
      const done = t.bindTrigger(() => (clicked = true, "fired"));
      await t.host({ kind: "clickTrigger" });
      t.assertEqual(await done, "fired", "trigger outcome");
    }, { manual: true }),
  ]);
  engine.start({ manual: true });
  const { results, seen } = await drive(engine, () => ({ ok: true }), trigger);
  assert.deepEqual(seen, ["resetIsolation", "clickTrigger"]);
  assert.equal(clicked, true);
  assert.equal(results[0]!.status, "PASS");
});

Deno.test("a test past its deadline is TIMEOUT and its pending request is withdrawn", async () => {
  const { engine } = engineOf([
    test("t/slow", async (t) => void await t.host({ kind: "readConsole", pattern: "x", timeoutMs: 1 }), {
      timeoutMs: 150,
    }),
    test("t/next", () => Promise.resolve()),
  ]);
  engine.start(null);
  for (let i = 0; i < 400; i++) {
    const poll = engine.poll();
    if (poll.state === "done") break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const poll = engine.poll();
  assert.equal(poll.state, "done");
  assert.deepEqual(poll.state === "done" && poll.results.map((r) => r.status), ["TIMEOUT", "PASS"]);
});

Deno.test("filters select by id, ids and manual; tests of another launcher SKIP", async () => {
  const tests = [
    test("f/a", () => Promise.resolve()),
    test("f/b", () => Promise.resolve(), { launcher: "run_conformance_nocsp" }),
    test("f/c", () => Promise.resolve(), { manual: true }),
  ];
  const byId = engineOf(tests).engine;
  byId.start({ id: "f/a" });
  assert.deepEqual((await drive(byId, () => ({ ok: true }))).results.map((r) => r.id), ["f/a"]);
  const byIds = engineOf(tests).engine;
  byIds.start({ ids: ["f/c", "f/b"] });
  const run = (await drive(byIds, () => ({ ok: true }))).results;
  assert.deepEqual(run.map((r) => [r.id, r.status]), [["f/b", "SKIP"], ["f/c", "PASS"]]);
  assert.match(run[0]!.message ?? "", /run_conformance_nocsp/);
  const nocsp = engineOf(tests, { launcher: "run_conformance_nocsp" }).engine;
  nocsp.start({ manual: false });
  assert.deepEqual(
    (await drive(nocsp, () => ({ ok: true }))).results.map((r) => [r.id, r.status]),
    [["f/a", "SKIP"], ["f/b", "PASS"]],
  );
});

Deno.test("a second start while running is ignored; a View that cannot connect fails every test", async () => {
  const { engine } = engineOf([test("s/one", () => Promise.resolve())], {
    ready: Promise.reject(new Error("no handshake")),
  });
  engine.start(null);
  engine.start({ id: "nothing" });
  const { results } = await drive(engine, () => ({ ok: true }));
  assert.deepEqual(results.map((r) => [r.id, r.status]), [["s/one", "FAIL"]]);
  assert.match(results[0]!.message ?? "", /could not connect to the host: Error: no handshake/);
});

Deno.test("a Runner that has polled this run stays attached through a pause; without one, a person answers", async () => {
  const slow = test("a/slow", (t) => t.sleep(4_000));
  const polled = engineOf([slow]).engine;
  const alone = engineOf([slow]).engine;
  polled.start();
  polled.poll();
  alone.start();
  // Past the 2.5 s a silent suite waits before a person answers, far inside a busy Runner's 30 s.
  await new Promise((resolve) => setTimeout(resolve, 2_800));
  assert.equal(polled.runnerAttached(), true, "a Runner's pause (at load) was taken for no Runner");
  assert.equal(alone.runnerAttached(), false, "with no Runner ever polling, a person must be asked");
});
