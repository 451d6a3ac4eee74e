/**
 * How the mock-model tier (suite/cli/mock_model.ts) judges a run, always on the model requests of that run
 * alone (a resume's own, not the streaming turn's before it): a golden path's stream or document, and a
 * fault's handling.
 *
 * A fault is judged only once the host reached the mock and the mock served it the fault; then by what the
 * host did: an error terminal and a non-zero exit of its own is PASS; the same with exit 0 is WARN; a success
 * terminal is FAIL (an error turned into a success); still running at the limit with `retry` events in its
 * stream is WARN (retrying, visibly: the retries and their delays are in the details), and with none is FAIL
 * (silent). `details.faultHandling` names which, for the boards.
 *
 * @module
 */
import type { GoldenPath, HostRunner, StreamShape } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { MockFault, MockModelRequest } from "../../src/mock_model/server.ts";
import type { RetryEvent } from "../../src/normalize/events.ts";
import { parseBlockingJson } from "../../src/normalize/mod.ts";
import { fail, type Outcome, skip, warn } from "../../src/outcome.ts";
import { quoteHostText } from "../../src/quote.ts";
import { passed, streamSeen } from "./evidence.ts";

/** How a host met a fault, for the boards: `retrying-visibly` and `silent` were both still running at the limit. */
export type FaultHandling =
  | "error-exit"
  | "exit-0"
  | "success-claimed"
  | "retrying-visibly"
  | "silent"
  | "other";

/** The run's facts for the report: the observation, and the requests of the run as the mock served them. */
export function details(
  observation: Observation,
  requests: readonly MockModelRequest[],
): Record<string, unknown> {
  return {
    ...summarizeObservation(observation),
    mockRequests: requests.length,
    mockStatuses: [...new Set(requests.map((request) => request.status))],
    // Which model and API surface the host really asked for, from the mock's journal.
    mockModels: [...new Set(requests.flatMap((request) => request.model ? [request.model] : []))],
    mockPaths: [...new Set(requests.map((request) => `${request.method} ${request.path.split("?")[0]}`))],
  };
}

/** What is wrong with how the process ran, for a run that must succeed. */
export function processProblems(observation: Observation): string[] {
  const must: string[] = [];
  if (observation.spawnError) must.push(observation.spawnError);
  if (observation.stopped) {
    must.push(`the run was stopped (${observation.stopped}) after ${observation.durationMs} ms`);
  } else if (observation.exitCode !== 0) {
    must.push(`exit code ${observation.exitCode ?? `signal ${observation.signal}`}, expected 0`);
  }
  if (!observation.groupGone) must.push(`process group ${observation.pgid} still alive after the run`);
  for (const violation of observation.violations) must.push(violation.message);
  return must;
}

/** Unexpected stderr lines (beyond the runner's declared noise), as a SHOULD. */
export function stderrProblems(runner: HostRunner, observation: Observation): string[] {
  const noise = runner.stderrNoise ?? [];
  const unexpected = observation.hostStderr.filter((line) =>
    line.trim() !== "" && !noise.some((re) => re.test(line))
  );
  return unexpected.length > 0 ? [`unexpected stderr: ${quoteHostText(unexpected.slice(0, 3))}`] : [];
}

/** The MUST and SHOULD problems of a run. */
export interface Problems {
  must: string[];
  should: string[];
}

/** What is wrong with a golden-path stream against the mock model; `requests` are this run's alone. */
export function streamProblems(
  runner: HostRunner,
  shape: StreamShape,
  observation: Observation,
  requests: readonly MockModelRequest[],
): Problems {
  const must = processProblems(observation);
  const kinds = observation.kinds;
  if (shape.init !== "none" && kinds[0] !== "init") {
    must.push(`the first event is "${kinds[0] ?? "nothing"}", expected "init" (kinds [${kinds.join(", ")}])`);
  }
  const terminals = kinds.filter((kind) => kind === "terminal").length;
  if (terminals !== 1 || kinds.at(-1) !== "terminal") {
    must.push(`expected exactly one terminal and it last, got ${terminals} in [${kinds.join(", ")}]`);
  }
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  if (terminal?.kind === "terminal" && terminal.status !== "success") {
    must.push(`terminal status "${terminal.status}" (${terminal.reason ?? "no reason"}), expected "success"`);
  }
  const unparsed = observation.events.filter((event) => event.kind === "unparsed");
  if (unparsed.length > 0) {
    must.push(
      `${unparsed.length} unparsed line(s), first: ${quoteHostText(unparsed[0]?.raw ?? "", 200)}`,
    );
  }
  if (requests.length === 0) must.push("the host never called the mock model in this run");
  if (!observation.text.some((line) => line.trim() === "OK")) {
    must.push(`the reply is not the mock's "OK": ${quoteHostText(observation.text.slice(0, 3))}`);
  }
  return { must, should: stderrProblems(runner, observation) };
}

/** A golden-path stream's verdict. */
export function judgeStream(
  runner: HostRunner,
  observation: Observation,
  requests: readonly MockModelRequest[],
): Outcome {
  const problems = streamProblems(runner, runner.streamShape, observation, requests);
  const info = details(observation, requests);
  if (problems.must.length > 0) return fail(problems.must.join("; "), info);
  if (problems.should.length > 0) return warn(problems.should.join("; "), info);
  return passed({ ...streamSeen(observation), mockRequests: requests.length, reply: "OK" }, info);
}

/** A document path's verdict (blocking JSON, or detached plain text). */
export function judgeDocument(
  runner: HostRunner,
  path: GoldenPath,
  observation: Observation,
  stdout: string,
  requests: readonly MockModelRequest[],
): Outcome {
  const must = processProblems(observation);
  if (requests.length === 0) must.push("the host never called the mock model");
  if (path === "blocking-json") {
    try {
      const result = parseBlockingJson(runner.dialect, stdout);
      if (result.status !== "success") must.push(`the result says ${result.status}: ${result.reason ?? ""}`);
      if (result.result?.trim() !== "OK") {
        must.push(`the result is ${quoteHostText(result.result ?? "")}, expected "OK"`);
      }
    } catch (error) {
      must.push(error instanceof Error ? error.message : String(error));
    }
  } else if (!/\bOK\b/.test(stdout)) {
    // Detached output is for people (kimi prints "• OK"): the reply only has to be in it.
    must.push(`detached output does not carry the mock's "OK": ${quoteHostText(stdout, 200)}`);
  }
  const info = details(observation, requests);
  if (must.length > 0) return fail(must.join("; "), info);
  // Plain print modes narrate on stderr (codex prints its banner and transcript there): judged only on JSON paths.
  const should = path === "blocking-json" ? stderrProblems(runner, observation) : [];
  if (should.length > 0) return warn(should.join("; "), info);
  return passed({ mockRequests: requests.length, exitCode: observation.exitCode, reply: "OK", path }, info);
}

/** How a host met a model fault, judged on this run's requests (see the module doc). */
export function judgeFault(
  observation: Observation,
  requests: readonly MockModelRequest[],
  fault: MockFault,
): Outcome {
  const served = requests.filter((request) => request.fault === fault);
  const retries = observation.events.filter((event): event is RetryEvent => event.kind === "retry");
  const retrying = {
    events: retries.length,
    attempts: retries.map((event) => event.attempt ?? null),
    delaysMs: retries.map((event) => event.delayMs ?? null),
  };
  const kinds = observation.kinds;
  const seen = `${requests.length} model request(s), ${served.length} served the fault, ${retries.length} ` +
    `retry event(s), kinds [${kinds.slice(0, 12).join(", ")}${kinds.length > 12 ? ", …" : ""}]`;
  const info = (handling: FaultHandling) => ({
    ...details(observation, requests),
    faultServed: served.length,
    retrying,
    faultHandling: handling,
  });
  if (observation.spawnError) return fail(observation.spawnError, info("other"));
  if (requests.length === 0) {
    const ended = observation.stopped
      ? `still running after ${observation.durationMs} ms`
      : `exit ${exitOf(observation)}`;
    return fail(
      `the host never called the mock model, so no fault reached it (${ended}): ${seen}`,
      info("other"),
    );
  }
  const answered = requests.filter((request) =>
    request.method === "POST" && request.status >= 200 &&
    request.status < 300
  );
  if (served.length === 0 && answered.length > 0) {
    // The mock answered the host's model calls in full: the fault could not be applied to the requests this
    // host makes (a disconnect cuts only a streamed answer), which says nothing about the host.
    return skip(
      `the mock model could not serve the ${fault} fault to this host's model requests (${
        [...new Set(answered.map((r) => `${r.method} ${r.path}`))].join(", ")
      } answered in full${
        fault === "disconnect" ? "; a disconnect cuts only a streamed answer" : ""
      }): ${seen}`,
      info("other"),
    );
  }
  if (served.length === 0) {
    return fail(
      `the host called the mock model (${
        [...new Set(requests.map((r) => `${r.method} ${r.path}`))].join(", ")
      }) ` +
        `but no request was served the ${fault} fault: ${seen}`,
      info("other"),
    );
  }
  if (observation.stopped) {
    const limit = `still running at the ${Math.round(observation.durationMs)} ms limit`;
    if (retries.length > 0) {
      return warn(
        `${limit}, retrying visibly: ${retries.length} retry event(s) (delays ${
          retrying.delaysMs.map((delay) => delay === null ? "?" : `${Math.round(delay)} ms`).join(", ")
        }), ${requests.length} model request(s)`,
        info("retrying-visibly"),
      );
    }
    return fail(`${limit}, silent: no terminal and no retry event in its stream; ${seen}`, info("silent"));
  }
  const terminals = observation.events.filter((event) => event.kind === "terminal");
  const terminal = terminals.at(-1);
  if (!terminal || terminal.kind !== "terminal") {
    return fail(`exited ${exitOf(observation)} with no terminal event: ${seen}`, info("other"));
  }
  if (terminal.status === "success") {
    return fail(
      `reported success although every model call failed (exit ${exitOf(observation)}): ${seen}`,
      info("success-claimed"),
    );
  }
  if (terminals.length !== 1 || kinds.at(-1) !== "terminal") {
    return fail(`expected exactly one terminal and it last: ${seen}`, info("other"));
  }
  if (!observation.groupGone) {
    return fail(`process group ${observation.pgid} still alive after the run`, info("other"));
  }
  if (observation.violations.length > 0) {
    return fail(observation.violations.map((violation) => violation.message).join("; "), info("other"));
  }
  if (observation.exitCode === 0) {
    return warn(
      `error terminal (${terminal.reason ?? terminal.status}) but exit code 0: ${seen}`,
      info("exit-0"),
    );
  }
  return passed({
    mockRequests: requests.length,
    faultServed: served.length,
    terminal: terminal.status,
    terminalReason: terminal.reason ?? null,
    exitCode: observation.exitCode,
    retryEvents: retries.length,
  }, info("error-exit"));
}

function exitOf(observation: Observation): string {
  return String(observation.exitCode ?? `signal ${observation.signal}`);
}
