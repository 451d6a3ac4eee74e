/**
 * The blocking-JSON golden path: one document on stdout, not a line stream. claude prints one `result` object
 * (read here); a dialect with another shape reads it in its own normaliser file (gemini.ts, qwen.ts).
 *
 * @module
 */
import type { TerminalStatus } from "./events.ts";
import { isObject, type Json, str } from "./_json.ts";
import { quoteHostText } from "../quote.ts";

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
 * How a dialect reads its blocking document (stdout parsed as JSON). Throws `SyntaxError` when the document is
 * not of the dialect's shape. Each normaliser file carries its own; {@linkcode readResultObject} is claude's,
 * and the default for a dialect with none.
 */
export type BlockingReader = (document: unknown, stdout: string) => BlockingResult;

/**
 * Reads a blocking call's stdout with a dialect's reader (`parseBlockingJson` in src/normalize/mod.ts picks it
 * by dialect name). Throws `SyntaxError` when stdout is not one JSON document of the reader's shape, quoting
 * the start of what was printed.
 *
 * @example
 * ```ts
 * import { readBlockingJson } from "./blocking_json.ts";
 * readBlockingJson('{"type":"result","is_error":false,"result":"OK"}');
 * // { status: "success", result: "OK" }
 * ```
 */
export function readBlockingJson(stdout: string, reader: BlockingReader = readResultObject): BlockingResult {
  let document: unknown;
  try {
    document = JSON.parse(stdout);
  } catch (error) {
    throw new SyntaxError(
      `stdout is not one JSON document (${error instanceof Error ? error.message : error}): ` +
        quoteHostText(stdout, 200),
    );
  }
  return reader(document, stdout);
}

/** `document` as an object, or a `SyntaxError` quoting the start of `stdout`. */
export function documentObject(document: unknown, stdout: string): Json {
  if (!isObject(document)) {
    throw new SyntaxError(`stdout is JSON but not an object: ${quoteHostText(stdout, 200)}`);
  }
  return document;
}

/** claude's blocking document: one `result` object. */
export const readResultObject: BlockingReader = (document, stdout) => {
  const result = documentObject(document, stdout);
  if (result.type !== "result") {
    throw new SyntaxError(`expected a "result" object, got type ${JSON.stringify(result.type)}`);
  }
  return resultFields(result, str(result.terminal_reason) ?? str(result.error), result.structured_output);
};

/** The outcome of a claude-shaped `result` object (`subtype`, `is_error`, `result`). */
export function resultFields(result: Json, reason: string | undefined, structured: unknown): BlockingResult {
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

/** `value` without its undefined fields. */
export function withDefined(value: Record<string, unknown>): BlockingResult {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as unknown as BlockingResult;
}
