/**
 * The mock-model tier's fault verdict (suite/cli/mock_model_judge.ts) on observations built by hand: a host
 * that never reached the mock, or was never served the fault, cannot pass (audit H1); a host still running at
 * the limit is WARN when its stream shows it retrying and FAIL when silent; an error turned into a success is a
 * FAIL, an error exit with code 0 a WARN; and a PASS names what it observed. The reference agent's variants
 * prove the same end to end (tests/hosts/cli/reference_agent_variants_test.ts).
 */
import assert from "node:assert/strict";
import type { Observation } from "../../../src/exec/observation.ts";
import type { MockModelRequest } from "../../../src/mock_model/server.ts";
import type { NormalizedEvent } from "../../../src/normalize/events.ts";
import { judgeFault, judgeStream } from "../../../suite/cli/mock_model_judge.ts";
import { REFERENCE_AGENT_HOST } from "../../../hosts/cli/reference_agent.ts";

function event(kind: string, fields: Record<string, unknown> = {}): NormalizedEvent {
  return { kind, host: "h", seq: 0, raw: null, synthetic: false, ...fields } as unknown as NormalizedEvent;
}

function observation(events: NormalizedEvent[], extra: Partial<Observation> = {}): Observation {
  return {
    host: "h",
    events,
    kinds: events.map((e) => e.kind),
    text: [],
    stderr: [],
    hostStderr: [],
    stdoutLines: events.length,
    stdoutBytes: 100,
    exitCode: 1,
    signal: null,
    resultSeen: true,
    stopped: null,
    killed: false,
    violations: [],
    pgid: 4242,
    groupGone: true,
    durationMs: 1200,
    spawnError: null,
    dropped: { events: 0, rawLines: 0, stderrLines: 0, violations: 0 },
    ...extra,
  };
}

const served = (count: number): MockModelRequest[] =>
  Array.from(
    { length: count },
    () => ({ method: "POST", path: "/v1/chat/completions", status: 500, fault: "http-500" }),
  );
const errorEnd = [event("init"), event("terminal", { status: "error", reason: "HTTP 500" })];

Deno.test("a fault the mock could not apply to the host's requests is SKIP with the reason, not the host's FAIL", () => {
  const whole = judgeFault(
    observation([event("init"), event("terminal", { status: "success" })], { exitCode: 0 }),
    [{ method: "POST", path: "/v1/chat/completions", status: 200 }],
    "disconnect",
  );
  assert.equal(whole.status, "SKIP");
  assert.match(
    whole.message ?? "",
    /could not serve the disconnect fault .*POST \/v1\/chat\/completions answered in full; a disconnect cuts only a streamed answer/,
  );
});

Deno.test("an error terminal and a non-zero exit pass only once the mock served the fault", () => {
  const never = judgeFault(observation(errorEnd), [], "http-500");
  assert.equal(never.status, "FAIL");
  assert.match(never.message ?? "", /never called the mock model, so no fault reached it \(exit 1\)/);
  const other = judgeFault(
    observation(errorEnd),
    [{ method: "GET", path: "/v1/models", status: 404 }],
    "http-500",
  );
  assert.equal(other.status, "FAIL");
  assert.match(other.message ?? "", /GET \/v1\/models\) but no request was served the http-500 fault/);
  const passed = judgeFault(observation(errorEnd), served(3), "http-500");
  assert.equal(passed.status, "PASS");
  assert.deepEqual(passed.details?.observed, {
    mockRequests: 3,
    faultServed: 3,
    terminal: "error",
    terminalReason: "HTTP 500",
    exitCode: 1,
    retryEvents: 0,
  });
  assert.equal(passed.details?.faultHandling, "error-exit");
});

Deno.test("still running at the limit: WARN with the retries and their delays when visible, FAIL when silent", () => {
  const retries = [1, 2, 3].map((attempt) =>
    event("retry", { attempt, delayMs: 500 * attempt, message: "500" })
  );
  const stopped = {
    stopped: "wall" as const,
    exitCode: null,
    resultSeen: null,
    killed: true,
    durationMs: 60_000,
  };
  const visible = judgeFault(observation([event("init"), ...retries], stopped), served(4), "http-500");
  assert.equal(visible.status, "WARN");
  assert.match(
    visible.message ?? "",
    /retrying visibly: 3 retry event\(s\) \(delays 500 ms, 1000 ms, 1500 ms\)/,
  );
  assert.deepEqual(visible.details?.retrying, {
    events: 3,
    attempts: [1, 2, 3],
    delaysMs: [500, 1000, 1500],
  });
  assert.equal(visible.details?.faultHandling, "retrying-visibly");
  const silent = judgeFault(observation([event("init")], stopped), served(4), "http-500");
  assert.equal(silent.status, "FAIL");
  assert.match(silent.message ?? "", /limit, silent: no terminal and no retry event/);
  assert.equal(silent.details?.faultHandling, "silent");
});

Deno.test("a failed model call claimed as a success is a FAIL; an error exit 0 a WARN", () => {
  const success = [event("init"), event("terminal", { status: "success" })];
  const claimed = judgeFault(observation(success, { exitCode: 0 }), served(1), "http-500");
  assert.equal(claimed.status, "FAIL");
  assert.match(claimed.message ?? "", /reported success although every model call failed/);
  const zero = judgeFault(observation(errorEnd, { exitCode: 0 }), served(1), "http-500");
  assert.equal(zero.status, "WARN");
  assert.equal(zero.details?.faultHandling, "exit-0");
});

Deno.test("a golden path is judged on its own run's requests: a resume that never asked the model fails", () => {
  const ok = observation(
    [event("init"), event("text", { text: "OK" }), event("terminal", { status: "success" })],
    { exitCode: 0, text: ["OK"] },
  );
  const request: MockModelRequest = { method: "POST", path: "/v1/chat/completions", status: 200 };
  const runner = REFERENCE_AGENT_HOST.runner;
  assert.equal(judgeStream(runner, ok, [request]).status, "PASS");
  const replayed = judgeStream(runner, ok, []);
  assert.equal(replayed.status, "FAIL");
  assert.match(replayed.message ?? "", /never called the mock model in this run/);
});
