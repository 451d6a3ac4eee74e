/**
 * The in-iframe test API: what a test declares ({@linkcode TestDefinition}) and what it gets while it runs
 * ({@linkcode TestContext}: `t.host`, `t.hostOptional`, `t.bindTrigger`, `t.assert`…). Test bodies throw
 * {@linkcode Failure}, {@linkcode Skip} or {@linkcode NotTestable} to end with that verdict; returning means
 * PASS.
 *
 * @module
 */
import type { CapabilityRequest, CapabilityResult, TestMeta } from "../../../src/protocol.ts";

/** Ends a test as FAIL (its clause decides whether the run sees FAIL, WARN or an informational note). */
export class Failure extends Error {
  readonly value: unknown;
  constructor(message: string, value?: unknown) {
    super(message);
    this.name = "Failure";
    this.value = value;
  }
}

/** Ends a test as SKIP, with the reason. */
export class Skip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "Skip";
  }
}

/**
 * Ends a test as "not testable": something the test needs but the host does not own failed (a control origin
 * on the network was unreachable), so no verdict on the host is possible. It crosses the wire as NOTRUN with
 * the reason, which the run reports as ERROR: never a FAIL blamed on the host.
 */
export class NotTestable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "NotTestable";
  }
}

/** What a running test can do. */
export interface TestContext {
  /** Asks the host for something; SKIPs the test when unsupported, FAILs it ("not testable") when it fails. */
  host(request: CapabilityRequest): Promise<unknown>;
  /** Asks the host for something and returns the raw answer, so the test can fall back. */
  hostOptional(request: CapabilityRequest): Promise<CapabilityResult>;
  /**
   * Arms the trigger button: `fn` runs inside the next real click on it (user activation). Returns the
   * outcome of `fn`; follow it with `t.host({kind: "clickTrigger"})`.
   */
  bindTrigger<T>(fn: () => T | Promise<T>): Promise<T>;
  /** FAILs the test with `message` unless `condition` holds. */
  assert(condition: unknown, message: string, value?: unknown): asserts condition;
  /** FAILs the test unless `actual` deep-equals `expected` (JSON semantics). */
  assertEqual(actual: unknown, expected: unknown, message: string): void;
  /** Ends the test as FAIL. */
  fail(message: string, value?: unknown): never;
  /** Ends the test as SKIP. */
  skip(reason: string): never;
  /** Ends the test as not testable (ERROR in the run): a prerequisite outside the host failed. */
  notTestable(reason: string): never;
  /** Notes something for the report without changing the verdict. */
  note(message: string): void;
  /** Records what was observed; reported as the result's `value`. */
  observe(key: string, value: unknown): void;
  /** Waits `ms` milliseconds (aborted when the test times out). */
  sleep(ms: number): Promise<void>;
  /**
   * Polls `probe` every `intervalMs` until it returns something other than `undefined`, or `timeoutMs` (scaled
   * by the run's timeout multiplier) passes.
   */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number, intervalMs?: number): Promise<T | undefined>;
  /** Aborted when the test's deadline passes. */
  readonly signal: AbortSignal;
}

/** When a test runs relative to the others. */
export type Phase = "automatic" | "manual" | "last";

/** A test as written in the catalogue: its metadata and its body. */
export interface TestDefinition<Env> extends TestMeta {
  /** `last`: runs after every manual test (teardown removes the View). Defaults from `manual`. */
  phase?: Phase;
  run(t: TestContext, env: Env): Promise<void>;
}

/** The phase a definition runs in. */
export function phaseOf(test: Pick<TestDefinition<unknown>, "manual" | "phase">): Phase {
  return test.phase ?? (test.manual ? "manual" : "automatic");
}

const PHASE_ORDER: Record<Phase, number> = { automatic: 0, manual: 1, last: 2 };

/** The catalogue in run order: automatic tests, then manual ones, then the `last` ones; stable within each. */
export function inRunOrder<T extends Pick<TestDefinition<unknown>, "manual" | "phase">>(
  tests: readonly T[],
): T[] {
  return tests
    .map((test, index) => ({ test, index }))
    .sort((x, y) => PHASE_ORDER[phaseOf(x.test)] - PHASE_ORDER[phaseOf(y.test)] || x.index - y.index)
    .map(({ test }) => test);
}

/** Deep equality with JSON semantics (key order ignored, `undefined` members dropped). */
export function jsonEqual(x: unknown, y: unknown): boolean {
  return canonical(x) === canonical(y);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  }) ?? "undefined";
}

/** A short, single-line rendering of any value for messages. */
export function brief(value: unknown, max = 160): string {
  let text: string;
  if (value instanceof Error) text = `${value.name}: ${value.message}`;
  else if (typeof value === "string") text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
