/**
 * What the Runner accepts from the View's `poll()`. The View is code running in a host's page: its answer
 * crosses `frame.evaluate` as plain data and may be anything, so the Runner checks its shape before it reads a
 * field, and ends the run with a clear reason instead of a `TypeError`.
 *
 * @module
 */
import { SUITE_STATUSES } from "../protocol.ts";

/**
 * What is wrong with a poll answer, as a phrase for "The View answered poll() with …", or `null` when it is a
 * well-formed `SuitePoll` (known state, results that are objects with an id and a known status, a request with
 * a string kind and a non-negative finite `timeoutMs` if any, an integer `requestSeq` if any). A kind this
 * protocol does not know is well-formed: the Runner answers it `unsupported`.
 *
 * @example
 * ```ts
 * import { pollProblem } from "./poll_check.ts";
 * pollProblem({ state: "done", results: [] }); // null
 * pollProblem({ state: "running", runningId: "a/b", request: { kind: 7 }, results: [] });
 * // "a request whose kind is not a string (7)"
 * pollProblem({ state: "running", runningId: "a/b", request: { kind: "camera" }, results: [] }); // null
 * ```
 */
export function pollProblem(value: unknown): string | null {
  if (!isRecord(value)) return `a value that is not an object (${describe(value)})`;
  if (value.state === "idle") return null;
  if (value.state !== "running" && value.state !== "done") return `an unknown state ${describe(value.state)}`;
  if (!Array.isArray(value.results)) return `results that are not a list (${describe(value.results)})`;
  for (const [index, result] of value.results.entries()) {
    const problem = resultProblem(result);
    if (problem !== null) return `result ${index} ${problem}`;
  }
  if (value.state === "done") return null;
  if (typeof value.runningId !== "string") {
    return `a runningId that is not a string (${describe(value.runningId)})`;
  }
  if (value.requestSeq !== undefined && !Number.isSafeInteger(value.requestSeq)) {
    return `a requestSeq that is not an integer (${describe(value.requestSeq)})`;
  }
  return value.request === null ? null : requestProblem(value.request);
}

function resultProblem(result: unknown): string | null {
  if (!isRecord(result)) return `is not an object (${describe(result)})`;
  if (typeof result.id !== "string") return `has no string id (${describe(result.id)})`;
  if (!(SUITE_STATUSES as readonly unknown[]).includes(result.status)) {
    return `has an unknown status ${describe(result.status)}`;
  }
  return null;
}

function requestProblem(request: unknown): string | null {
  if (!isRecord(request)) return `a request that is not an object (${describe(request)})`;
  // A kind this protocol does not know is another suite's request: the Runner answers it `unsupported`.
  if (typeof request.kind !== "string") {
    return `a request whose kind is not a string (${describe(request.kind)})`;
  }
  if ("timeoutMs" in request) {
    const timeout = request.timeoutMs;
    if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < 0) {
      return `a request whose timeoutMs is not a non-negative number (${describe(timeout)})`;
    }
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return typeof value === "object" ? "an object" : typeof value;
}
