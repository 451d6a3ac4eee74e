/**
 * The blocking-JSON golden path: one document on stdout, not a line stream.
 * claude prints one `result` object, gemini one pretty-printed `{session_id, response, stats, error?}` object,
 * qwen one JSON array of its stream messages whose `result` element is the outcome.
 *
 * @module
 */
import type { TerminalStatus } from "./events.ts";
import { isObject, type Json, str } from "./_json.ts";

/** What a blocking call reported. */
export interface BlockingResult {
  readonly status: TerminalStatus;
  /** The final assistant text. */
  readonly result?: string;
  /** The structured output, when a JSON schema was given. */
  readonly structured?: unknown;
  /** Why it failed. */
  readonly reason?: string;
}

/**
 * Reads a blocking call's stdout. Throws `SyntaxError` when stdout is not one JSON document of the dialect's
 * shape, quoting the start of what was printed.
 *
 * @example
 * ```ts
 * import { parseBlockingJson } from "./blocking_json.ts";
 * parseBlockingJson("claude", '{"type":"result","is_error":false,"result":"OK"}');
 * // { status: "success", result: "OK" }
 * ```
 */
export function parseBlockingJson(dialect: string, stdout: string): BlockingResult {
  let document: unknown;
  try {
    document = JSON.parse(stdout);
  } catch (error) {
    throw new SyntaxError(
      `stdout is not one JSON document (${error instanceof Error ? error.message : error}): ` +
        JSON.stringify(stdout.slice(0, 200)),
    );
  }
  if (dialect === "qwen" && Array.isArray(document)) {
    const result = document.filter(isObject).findLast((item) => item.type === "result");
    if (!result) throw new SyntaxError("qwen's JSON array has no result element");
    return fromResult(
      result,
      isObject(result.error) ? str(result.error.message) : str(result.error),
      result.structured_result,
    );
  }
  if (!isObject(document)) {
    throw new SyntaxError(`stdout is JSON but not an object: ${JSON.stringify(stdout.slice(0, 200))}`);
  }
  if (dialect === "gemini") {
    const error = isObject(document.error) ? document.error : undefined;
    return error
      ? { status: "error", reason: str(error.message) ?? "error" }
      : withDefined({ status: "success", result: str(document.response) });
  }
  if (document.type !== "result") {
    throw new SyntaxError(`expected a "result" object, got type ${JSON.stringify(document.type)}`);
  }
  return fromResult(
    document,
    str(document.terminal_reason) ?? str(document.error),
    document.structured_output,
  );
}

function fromResult(result: Json, reason: string | undefined, structured: unknown): BlockingResult {
  const subtype = str(result.subtype) ?? "";
  const status: TerminalStatus = subtype === "error_max_turns"
    ? "max_turns"
    : result.is_error === true || subtype.startsWith("error")
    ? "error"
    : "success";
  return withDefined({
    status,
    result: str(result.result),
    structured,
    reason: status === "success" ? undefined : reason ?? (subtype || "error"),
  });
}

function withDefined(value: Record<string, unknown>): BlockingResult {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as unknown as BlockingResult;
}
