/**
 * Fuzzes the Runner's handling of whatever the View's `poll()` returns: near-valid polls with one field broken
 * (wrong types, unknown states and request kinds, prototype names as kinds, odd sequence numbers, malformed
 * results) and arbitrary values, a few per run, through `Runner.run` against a host whose capability methods
 * answer at once. A run must resolve to a result list, or reject with `SuiteRunInterrupted` saying what was
 * wrong; the host is only ever asked for a real capability, and every result handed on is well-formed.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  CAPABILITY_KINDS,
  type CapabilityResult,
  type SubtestResult,
  SUITE_STATUSES,
} from "../../src/protocol.ts";
import type { Host, SuiteBridge } from "../../src/runner/host.ts";
import { Runner, SuiteRunInterrupted } from "../../src/runner/runner.ts";
import { inBatches } from "./_batches.ts";

const POLLS_PER_RUN = 5;
/**
 * Runner runs per property run, run side by side, each with its own bridge and host: a run spends most of its
 * time in the Runner's zero-length pauses between polls (a timer turn each), which overlap when runs do.
 */
const RUNS_AT_ONCE = 10;

const result = fc.record({
  id: fc.constantFrom("lifecycle/initialize-result", "x/y"),
  name: fc.constant("a test"),
  status: fc.constantFrom(...SUITE_STATUSES),
  vantage: fc.constantFrom("in-view", "host", "server"),
  manual: fc.boolean(),
  durationMs: fc.nat(1000),
});
const request = fc.oneof(
  fc.constantFrom(...CAPABILITY_KINDS).map((kind) => ({ kind })),
  fc.record({
    kind: fc.constantFrom("conversationContains", "readConsole"),
    marker: fc.string(),
    timeoutMs: fc.nat(50),
  }),
);
const validRunning = fc.record({
  state: fc.constant("running"),
  runningId: fc.constantFrom("x/y", ""),
  request: fc.option(request, { nil: null }),
  requestSeq: fc.option(fc.nat(3), { nil: undefined }),
  results: fc.array(result, { maxLength: 3 }),
}, { requiredKeys: ["state", "runningId", "request", "results"] });
const valid = fc.oneof(
  fc.constant({ state: "idle" }),
  validRunning,
  fc.record({ state: fc.constant("done"), results: fc.array(result, { maxLength: 3 }) }),
);
const hostile = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "setup",
    "launch",
    "teardown",
    "id",
  ),
  fc.string({ maxLength: 8 }),
);
const brokenValue = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  hostile,
  fc.constantFrom(NaN, Infinity, -1, 1e308, null, undefined, [], {}),
);
/** A valid poll with one field (or one field of its request or of a result) replaced. */
const broken = fc.tuple(
  valid,
  fc.constantFrom("state", "runningId", "request", "requestSeq", "results", "kind", "timeoutMs", "result"),
  brokenValue,
)
  .map(([poll, field, value]) => {
    const copy: Record<string, unknown> = structuredClone(poll);
    if (field === "kind" || field === "timeoutMs") {
      copy.request = { ...(copy.request as object ?? { kind: "clickTrigger" }), [field]: value };
    } else if (field === "result") {
      copy.results = [...(Array.isArray(copy.results) ? copy.results : []), value];
    } else copy[field] = value;
    return copy;
  });
const poll = fc.oneof(
  { weight: 2, arbitrary: valid },
  { weight: 5, arbitrary: broken },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** A bridge that answers each poll from a script, then `done`. */
class ScriptedBridge implements SuiteBridge {
  readonly #polls: unknown[];
  constructor(polls: unknown[]) {
    this.#polls = [...polls];
  }
  listTests() {
    return Promise.resolve([]);
  }
  start() {
    return Promise.resolve();
  }
  poll() {
    return Promise.resolve(
      (this.#polls.length > 0 ? this.#polls.shift() : { state: "done", results: [] }) as never,
    );
  }
  resolve(answer: CapabilityResult) {
    assert.equal(typeof answer?.ok, "boolean", `the Runner answered ${JSON.stringify(answer)}`);
    return Promise.resolve();
  }
  isDetached() {
    return false;
  }
}

/** A host whose capability methods (two kinds in three) answer at once, recording each kind it is asked. */
function answeringHost(asked: string[]): Host {
  const answer = (kind: string) => () => {
    asked.push(kind);
    return Promise.resolve({ ok: true });
  };
  return {
    id: "fuzz",
    setup: () => Promise.resolve(),
    launch: () => Promise.reject(new Error("not used")),
    teardown: () => Promise.resolve(),
    ...Object.fromEntries(
      CAPABILITY_KINDS.filter((_, i) => i % 3 !== 2).map((kind) => [kind, answer(kind)]),
    ),
  };
}

/** One Runner run over `polls`, and the checks on how it ended and what it asked the host for. */
async function checkRun(polls: unknown[]): Promise<void> {
  const asked: string[] = [];
  const runner = new Runner(answeringHost(asked), {
    pollIntervalMs: 0,
    stallMs: 60_000,
    requestTimeoutMs: 50,
    onResult: checkResult,
  });
  try {
    const results = await runner.run(new ScriptedBridge(polls), null);
    assert.ok(Array.isArray(results), `run() resolved to ${JSON.stringify(results)}`);
    results.forEach(checkResult);
  } catch (error) {
    if (!(error instanceof SuiteRunInterrupted)) throw error;
    assert.ok(error.message.length > 0);
  }
  for (const kind of asked) assert.ok((CAPABILITY_KINDS as readonly string[]).includes(kind));
}

function checkResult(value: SubtestResult): void {
  assert.equal(typeof value, "object", `a result that is not an object: ${JSON.stringify(value)}`);
  assert.ok(
    value !== null && typeof value.id === "string",
    `a result without an id: ${JSON.stringify(value)}`,
  );
  assert.ok(
    (SUITE_STATUSES as readonly string[]).includes(value.status),
    `bad status: ${JSON.stringify(value)}`,
  );
}

Deno.test("fuzz: the Runner survives whatever poll() returns", async (t) => {
  await inBatches(
    t,
    fc.asyncProperty(
      fc.array(fc.array(poll, { minLength: POLLS_PER_RUN, maxLength: POLLS_PER_RUN }), {
        minLength: RUNS_AT_ONCE,
        maxLength: RUNS_AT_ONCE,
      }),
      async (scripts) => void await Promise.all(scripts.map(checkRun)),
    ),
    { inputsPerRun: POLLS_PER_RUN * RUNS_AT_ONCE },
  );
});
