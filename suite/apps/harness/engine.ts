/**
 * The suite engine: runs the catalogue inside the View and is, at the same time, the
 * `window.__mcpConformance` channel the Runner polls. One pending request slot; a test that asks the host for
 * something parks its request there and waits for `resolve`.
 *
 * @module
 */
import {
  type CapabilityRequest,
  type CapabilityResult,
  type InIframeChannel,
  isCapabilityResult,
  type LauncherName,
  runsUnder,
  type StartFilter,
  type SubtestResult,
  type SuitePoll,
  type SuiteStatus,
  type TestMeta,
} from "../../../src/protocol.ts";
import {
  brief,
  Failure,
  inRunOrder,
  jsonEqual,
  NotTestable,
  phaseOf,
  Skip,
  type TestContext,
  type TestDefinition,
} from "./test_api.ts";
import { APPS_DEADLINES } from "../../../src/runner/deadlines.ts";
import { delay, pollUntil } from "../../../src/time.ts";
import { suiteDeadline, useTimeoutMultiplier } from "./timing.ts";

/** Arms the View's trigger button (the DOM side lives in `view.ts`). */
export interface Trigger {
  arm<T>(fn: () => T | Promise<T>): Promise<T>;
  disarm(): void;
}

/** What the engine needs besides the tests. */
export interface EngineOptions<Env> {
  /** The launcher this render came from; only its tests run. */
  launcher: () => LauncherName;
  /** Resolves once the View has connected (tests start after it). */
  ready: Promise<Env>;
  trigger: Trigger;
  /** Runs after every manual test (e.g. back to inline); errors are ignored. */
  afterManual?: (env: Env) => Promise<void>;
  /** Default deadlines in ms, before the timeout multiplier: automatic and manual tests. */
  timeouts?: { automatic: number; manual: number };
  /** Called whenever the snapshot changes (the View's own progress display). */
  onChange?: () => void;
}

interface Pending {
  request: CapabilityRequest;
  seq: number;
  settle: (result: CapabilityResult) => void;
}

const DEFAULT_TIMEOUTS = { automatic: APPS_DEADLINES.automaticTestMs, manual: APPS_DEADLINES.manualTestMs };

/** A Runner polls every 50–800 ms; this long without a poll means nobody is driving the suite from outside. */
const RUNNER_GONE_MS = 2_500;
/**
 * Once a Runner has polled this run, how long its silence is taken for a busy Runner rather than none: at load
 * 50 its polls paused past 2.5 s (scaled) while it serviced a request, and the View answered the next request
 * `unsupported` for it, a false SKIP (fresh-clone CI of 2026-12-06). A person never takes over from a Runner
 * mid-run; a Runner that dies ends the run.
 */
const RUNNER_BUSY_MS = 30_000;

/** The engine; install it as `globalThis.__mcpConformance`. */
export class SuiteEngine<Env> implements InIframeChannel {
  readonly #tests: TestDefinition<Env>[];
  readonly #options: EngineOptions<Env>;
  #state: "idle" | "running" | "done" = "idle";
  #runningId = "";
  #pending: Pending | null = null;
  #seq = 0;
  #results: SubtestResult[] = [];
  #total = 0;
  #lastPoll = Number.NEGATIVE_INFINITY;
  /** Whether a Runner (not the start) polled since the run started. */
  #runnerPolled = false;

  constructor(tests: readonly TestDefinition<Env>[], options: EngineOptions<Env>) {
    this.#tests = inRunOrder(tests);
    this.#options = options;
  }

  /** Every test of the catalogue, in run order, whichever launcher it needs. */
  listTests(): TestMeta[] {
    return this.#tests.map(metaOf);
  }

  /** Starts the run; ignored while one is running. `null` and `undefined` mean every test of this render. */
  start(filter?: StartFilter | null): void {
    if (this.#state === "running") return;
    // A Runner starts the suite and polls right after; counting the start as contact keeps the by-hand card
    // from answering the first request "unsupported" before that first poll lands (seen on a loaded machine).
    this.#lastPoll = performance.now();
    this.#runnerPolled = false;
    useTimeoutMultiplier(filter?.timeoutMultiplier);
    const matching = this.#tests.filter((test) => matches(test, filter ?? null));
    const seed = filter?.shuffleSeed;
    const selected = typeof seed === "number" && Number.isFinite(seed)
      ? shuffledInPhases(matching, seed)
      : matching;
    this.#state = "running";
    this.#results = [];
    this.#total = selected.length;
    this.#runningId = selected[0]?.id ?? "";
    this.#changed();
    void this.#runAll(selected);
  }

  /** The snapshot the Runner polls. */
  poll(): SuitePoll {
    this.#lastPoll = performance.now();
    this.#runnerPolled = true;
    return this.snapshot();
  }

  /** The same snapshot as `poll`, without counting as a Runner's poll (for the View's own display). */
  snapshot(): SuitePoll {
    if (this.#state === "idle") return { state: "idle" };
    const results = this.#results.map((result) => ({ ...result }));
    if (this.#state === "done") return { state: "done", results };
    return {
      state: "running",
      runningId: this.#runningId,
      request: this.#pending ? structuredClone(this.#pending.request) : null,
      ...(this.#pending ? { requestSeq: this.#pending.seq } : {}),
      results,
      progress: { done: this.#results.length, total: this.#total },
    };
  }

  /**
   * Whether a Runner polled within `withinMs` (scaled by the run's timeout multiplier, as a loaded machine
   * slows the Runner's polls too); when none did, a person answers the requests in the View.
   */
  runnerAttached(
    withinMs = suiteDeadline(this.#runnerPolled ? RUNNER_BUSY_MS : RUNNER_GONE_MS),
  ): boolean {
    return performance.now() - this.#lastPoll <= withinMs;
  }

  /** The pending request and its sequence number, or `null`. */
  pending(): { request: CapabilityRequest; seq: number } | null {
    return this.#pending ? { request: structuredClone(this.#pending.request), seq: this.#pending.seq } : null;
  }

  /** Answers the pending request; a stale `seq` or no pending request is ignored. */
  resolve(result: CapabilityResult, seq?: number | null): void {
    const pending = this.#pending;
    if (!pending || (typeof seq === "number" && seq !== pending.seq)) return;
    this.#pending = null;
    this.#changed();
    pending.settle(
      isCapabilityResult(result)
        ? result
        : { ok: false, error: `Malformed capability result ${brief(result)}` },
    );
  }

  #changed(): void {
    try {
      this.#options.onChange?.();
    } catch {
      // The progress display is cosmetic; it must never break the run.
    }
  }

  async #runAll(selected: TestDefinition<Env>[]): Promise<void> {
    let env: Env;
    try {
      env = await this.#options.ready;
    } catch (error) {
      const message = `Not testable: the View could not connect to the host: ${brief(error)}`;
      this.#results = selected.map((test) => resultOf(test, "FAIL", 0, message));
      this.#state = "done";
      this.#runningId = "";
      this.#changed();
      return;
    }
    for (const test of selected) {
      this.#runningId = test.id;
      this.#changed();
      const launcher = this.#options.launcher();
      const result = runsUnder(test, launcher) ? await this.#runOne(test, env) : resultOf(
        test,
        "SKIP",
        0,
        `Runs in the render of ${test.launcher ?? "run_conformance"}, not ${launcher}`,
      );
      this.#results.push(result);
      this.#changed();
    }
    this.#state = "done";
    this.#runningId = "";
    this.#changed();
  }

  async #runOne(test: TestDefinition<Env>, env: Env): Promise<SubtestResult> {
    const manual = phaseOf(test) !== "automatic";
    const timeouts = this.#options.timeouts ?? DEFAULT_TIMEOUTS;
    const timeoutMs = suiteDeadline(test.timeoutMs ?? (manual ? timeouts.manual : timeouts.automatic));
    const controller = new AbortController();
    const notes: string[] = [];
    const observed: Record<string, unknown> = {};
    const started = performance.now();
    const context = this.#context(controller.signal, notes, observed);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    let status: SuiteStatus;
    let message: string | undefined;
    try {
      if (manual) await this.#request({ kind: "resetIsolation" }, controller.signal).catch(() => undefined);
      const outcome = await Promise.race([test.run(context, env).then(() => "done" as const), deadline]);
      if (outcome === "timeout") {
        status = "TIMEOUT";
        message = `No verdict within ${timeoutMs} ms`;
      } else status = "PASS";
    } catch (error) {
      if (error instanceof Skip) [status, message] = ["SKIP", error.message];
      else if (error instanceof NotTestable) [status, message] = ["NOTRUN", `Not testable: ${error.message}`];
      else if (error instanceof Failure) {
        [status, message] = ["FAIL", error.message];
        if (error.value !== undefined) observed.failure = error.value;
      } else [status, message] = ["FAIL", `The test threw ${brief(error)}`];
    } finally {
      clearTimeout(timer);
      controller.abort(new Error("The test is over"));
      this.#options.trigger.disarm();
      if (this.#pending) {
        const stale = this.#pending;
        this.#pending = null;
        stale.settle({ ok: false, error: "The test ended before the host answered" });
      }
    }
    if (manual && this.#options.afterManual) await this.#options.afterManual(env).catch(() => undefined);
    if (notes.length > 0) message = [message, ...notes].filter(Boolean).join("; ");
    const value = Object.keys(observed).length > 0 ? observed : undefined;
    return resultOf(test, status, performance.now() - started, message, value);
  }

  #request(request: CapabilityRequest, signal: AbortSignal): Promise<CapabilityResult> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const seq = ++this.#seq;
      const onAbort = () => {
        if (this.#pending?.seq === seq) this.#pending = null;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending = {
        request,
        seq,
        settle: (result) => {
          signal.removeEventListener("abort", onAbort);
          resolve(result);
        },
      };
      this.#changed();
    });
  }

  #context(signal: AbortSignal, notes: string[], observed: Record<string, unknown>): TestContext {
    const fail = (message: string, value?: unknown): never => {
      throw new Failure(message, value);
    };
    // Both reject with the test's end (its deadline or the run's) rather than resolve: a test stops there.
    const sleep = async (ms: number) => {
      if (signal.aborted) throw signal.reason;
      await delay(ms, signal);
      if (signal.aborted) throw signal.reason;
    };
    return {
      signal,
      hostOptional: (request) => this.#request(request, signal),
      host: async (request) => {
        const result = await this.#request(request, signal);
        if (result.unsupported) throw new Skip(`The host does not support "${request.kind}"`);
        if (!result.ok) {
          throw new Failure(
            `Not testable: the host failed "${request.kind}": ${result.error ?? "no reason given"}`,
          );
        }
        return result.value;
      },
      bindTrigger: (fn) => this.#options.trigger.arm(fn),
      assert: (condition, message, value) => {
        if (!condition) fail(message, value);
      },
      assertEqual: (actual, expected, message) => {
        if (!jsonEqual(actual, expected)) {
          fail(`${message}: expected ${brief(expected)}, got ${brief(actual)}`, { expected, actual });
        }
      },
      fail,
      skip: (reason) => {
        throw new Skip(reason);
      },
      notTestable: (reason) => {
        throw new NotTestable(reason);
      },
      note: (message) => void notes.push(message),
      observe: (key, value) => void (observed[key] = value),
      sleep,
      waitFor: async (probe, timeoutMs, intervalMs = 25) => {
        if (signal.aborted) throw signal.reason;
        // Boxed: a probe's `null` or `false` is an answer here, only `undefined` means "not yet".
        const found = await pollUntil(() => {
          const value = probe();
          return value === undefined ? undefined : { value };
        }, { timeoutMs: suiteDeadline(timeoutMs), intervalMs, signal });
        if (found === undefined && signal.aborted) throw signal.reason;
        return found?.value;
      },
    };
  }
}

/**
 * `tests` (in run order) shuffled by `seed` within the automatic and the manual phase; automatic tests before
 * manual ones before the `last` ones, as the run needs. The `last` tests keep catalogue order: the first one
 * ends the View.
 */
export function shuffledInPhases<T extends Pick<TestDefinition<unknown>, "manual" | "phase">>(
  tests: readonly T[],
  seed: number,
): T[] {
  // mulberry32: small, seedable, and the same order for the same seed on every engine.
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const last = tests.filter((test) => phaseOf(test) === "last");
  const shuffled = tests.filter((test) => phaseOf(test) !== "last");
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
  }
  return [...inRunOrder(shuffled), ...last];
}

function matches(test: TestMeta, filter: StartFilter | null): boolean {
  if (!filter) return true;
  if (typeof filter.manual === "boolean" && test.manual !== filter.manual) return false;
  if (typeof filter.id === "string" && test.id !== filter.id) return false;
  if (Array.isArray(filter.ids) && !filter.ids.includes(test.id)) return false;
  return true;
}

function metaOf(test: TestMeta): TestMeta {
  const meta: TestMeta = { id: test.id, name: test.name, vantage: test.vantage, manual: test.manual };
  if (test.clause !== undefined) meta.clause = test.clause;
  if (test.caveat !== undefined) meta.caveat = test.caveat;
  if (test.launcher !== undefined) meta.launcher = test.launcher;
  if (test.draft !== undefined) meta.draft = test.draft;
  if (test.timeoutMs !== undefined) meta.timeoutMs = test.timeoutMs;
  return meta;
}

function resultOf(
  test: TestMeta,
  status: SuiteStatus,
  durationMs: number,
  message?: string,
  value?: unknown,
): SubtestResult {
  const result: SubtestResult = {
    id: test.id,
    name: test.name,
    status,
    vantage: test.vantage,
    manual: test.manual,
    durationMs: Math.round(durationMs),
  };
  if (test.clause !== undefined) result.clause = test.clause;
  if (test.caveat !== undefined) result.caveat = test.caveat;
  if (message !== undefined) result.message = message;
  if (value !== undefined) result.value = value;
  return result;
}
