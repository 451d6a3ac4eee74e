// The time vocabulary (src/time.ts): pauses that end with the run, polling with a deadline, races with a
// clock, scaled deadlines. That no timer is left behind is proven in a subprocess: a program that only waits
// in them exits as soon as they end, not when a forgotten 60 s timer would fire (Deno 2.9's test sanitizer
// did not catch a delay that kept its timer, so it is not relied on here).
import { strict as assert } from "node:assert";
import { delay, pollUntil, raceDelay, scaled } from "../src/time.ts";
import { runDetached } from "./robustness/_harness.ts";

Deno.test("delay resolves after its time", async () => {
  const started = performance.now();
  await delay(40);
  assert.ok(performance.now() - started >= 35);
});

Deno.test("delay resolves at once when its signal aborts", async () => {
  const controller = new AbortController();
  const started = performance.now();
  const pause = delay(60_000, controller.signal);
  setTimeout(() => controller.abort(), 10);
  await pause;
  assert.ok(performance.now() - started < 5_000);
});

Deno.test("delay with an already aborted signal resolves at once", async () => {
  const controller = new AbortController();
  controller.abort();
  const started = performance.now();
  await delay(60_000, controller.signal);
  assert.ok(performance.now() - started < 1_000);
});

Deno.test("a finished delay leaves no listener on its signal", async () => {
  const controller = new AbortController();
  let listeners = 0;
  const signal = controller.signal;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => (listeners++, add(...args));
  signal.removeEventListener = (...args: Parameters<typeof remove>) => (listeners--, remove(...args));
  await delay(5, signal);
  assert.equal(listeners, 0);
});

Deno.test("a program that only waits in delay or pollUntil exits when they end, not when a timer would", async () => {
  const script = `
    import { delay, pollUntil, raceDelay } from ${
    JSON.stringify(new URL("../src/time.ts", import.meta.url).href)
  };
    const controller = new AbortController();
    const pause = delay(60_000, controller.signal);
    controller.abort();
    await pause;
    let calls = 0;
    await pollUntil(() => ++calls === 2, { timeoutMs: 60_000, intervalMs: 1 });
    await raceDelay([Promise.resolve(1)], 60_000);
    console.log("done");
  `;
  const started = performance.now();
  const exit = await runDetached(Deno.execPath(), ["eval", "--no-config", script]);
  assert.equal(exit.stderr, "");
  assert.equal(exit.stdout.trim(), "done");
  assert.equal(exit.code, 0);
  assert.ok(performance.now() - started < 30_000, "the process waited for a leftover timer");
});

Deno.test("pollUntil resolves to the first answer that is not undefined, null or false", async () => {
  const answers = [undefined, null, false, 0, 7];
  const got = await pollUntil(() => answers.shift(), { timeoutMs: 5_000, intervalMs: 1 });
  assert.equal(got, 0);
});

Deno.test("pollUntil awaits an async check", async () => {
  let calls = 0;
  const got = await pollUntil(async () => {
    await delay(1);
    return ++calls >= 3 ? `after ${calls}` : undefined;
  }, { timeoutMs: 5_000, intervalMs: 1 });
  assert.equal(got, "after 3");
});

Deno.test("pollUntil resolves to undefined at its deadline, without overshooting by an interval", async () => {
  let calls = 0;
  const started = performance.now();
  const got = await pollUntil(() => (calls++, false), { timeoutMs: 60, intervalMs: 10_000 });
  const took = performance.now() - started;
  assert.equal(got, undefined);
  assert.equal(calls, 2, "once at the start, once at the deadline");
  assert.ok(took >= 55 && took < 5_000, `took ${took} ms`);
});

Deno.test("pollUntil checks once even with no time at all", async () => {
  let calls = 0;
  assert.equal(await pollUntil(() => (calls++, undefined), { timeoutMs: 0, intervalMs: 10 }), undefined);
  assert.equal(calls, 1);
  assert.equal(await pollUntil(() => "now", { timeoutMs: 0, intervalMs: 10 }), "now");
});

Deno.test("pollUntil ends at once when its signal aborts", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 20);
  const started = performance.now();
  const got = await pollUntil(() => undefined, {
    timeoutMs: 60_000,
    intervalMs: 30_000,
    signal: controller.signal,
  });
  assert.equal(got, undefined);
  assert.ok(performance.now() - started < 5_000);
});

Deno.test("pollUntil rejects when its check throws", async () => {
  await assert.rejects(
    pollUntil(() => {
      throw new Error("page detached");
    }, { timeoutMs: 1_000, intervalMs: 1 }),
    /page detached/,
  );
});

Deno.test("raceDelay answers the first racer, or late after its time", async () => {
  assert.equal(await raceDelay([Promise.resolve("first")], 60_000), "first");
  assert.equal(await raceDelay([new Promise<string>(() => {})], 10), "late");
});

Deno.test("scaled multiplies a deadline by the timeout multiplier, keeping Infinity", () => {
  assert.equal(scaled(5_000, 1), 5_000);
  assert.equal(scaled(5_000, 2.5), 12_500);
  assert.equal(scaled(Infinity, 3), Infinity);
  for (const bad of [0, -1, NaN, Infinity]) assert.throws(() => scaled(1_000, bad), RangeError);
});
