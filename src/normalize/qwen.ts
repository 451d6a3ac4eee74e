/**
 * The qwen `stream-json` dialect: claude's envelope, so assistant and user
 * lines go through the claude normaliser. Differences handled here: `qwen_code_version` in the init; the error
 * `result` carries `error: {message}` as an object (its message becomes the terminal reason, never a
 * stringified object); `system/retry` (undocumented, seen after a broken model stream) is a `retry`;
 * `stream_event` and `control_*` lines are known and ignored. On an authentication
 * failure the `result` is the only line (no init).
 *
 * @module
 */
import { claudeNormalizer } from "./claude.ts";
import type { DraftEvent, Normalizer, NormalizerFactory } from "./events.ts";
import { event, isObject, type Json, notJson, num, optNum, parseObject, str, unknownKind } from "./_json.ts";
import { type BlockingReader, readResultObject, resultFields } from "./blocking_json.ts";

/**
 * qwen's blocking document: one JSON array of its stream messages whose `result` element is the outcome (a
 * lone `result` object reads as claude's).
 */
export const readQwenBlocking: BlockingReader = (document, stdout) => {
  if (!Array.isArray(document)) return readResultObject(document, stdout);
  const result = document.filter(isObject).findLast((item) => item.type === "result");
  if (!result) throw new SyntaxError("qwen's JSON array has no result element");
  return resultFields(
    result,
    isObject(result.error) ? str(result.error.message) : str(result.error),
    result.structured_result,
  );
};

/** Top-level kinds that carry nothing the contract checks. */
export const QWEN_IGNORED_KINDS: ReadonlySet<string> = new Set([
  "stream_event",
  "control_request",
  "control_response",
]);

/**
 * Makes a qwen normaliser.
 *
 * @example
 * ```ts
 * import { qwenNormalizer } from "./qwen.ts";
 * qwenNormalizer({ argv: [] }).line('{"type":"result","subtype":"error_during_execution","is_error":true,"error":{"message":"No auth"}}');
 * // [{ kind: "terminal", status: "error", reason: "No auth", … }]
 * ```
 */
export const qwenNormalizer: NormalizerFactory = (options) => new QwenNormalizer(claudeNormalizer(options));

class QwenNormalizer implements Normalizer {
  readonly #claude: Normalizer;

  constructor(claude: Normalizer) {
    this.#claude = claude;
  }

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    const type = str(value.type) ?? "";
    if (type === "system") {
      if (value.subtype === "retry") {
        // qwen 0.24 announces a model retry (after a broken stream) as system/retry; not in its docs.
        const data = isObject(value.data) ? value.data : {};
        return [event({ kind: "retry", raw, synthetic: false, message: str(data.reason) ?? "retry" })];
      }
      if (value.subtype !== "init") return [unknownKind(raw)];
      return [event({
        kind: "init",
        raw,
        synthetic: false,
        sessionId: str(value.session_id),
        model: str(value.model),
        cwd: str(value.cwd),
        hostVersion: str(value.qwen_code_version),
      })];
    }
    if (type === "result") return this.#result(value, raw);
    if (type === "assistant" || type === "user") return this.#claude.line(raw);
    return QWEN_IGNORED_KINDS.has(type) ? [] : [unknownKind(raw)];
  }

  end(): DraftEvent[] {
    return [];
  }

  #result(value: Json, raw: string): DraftEvent[] {
    const events: DraftEvent[] = [];
    if (isObject(value.usage)) {
      const usage = value.usage;
      events.push(event({
        kind: "usage",
        raw,
        synthetic: false,
        input: num(usage.input_tokens),
        output: num(usage.output_tokens),
        cacheRead: num(usage.cache_read_input_tokens),
        cacheWrite: num(usage.cache_creation_input_tokens),
        costUsd: optNum(value.total_cost_usd),
        scope: "run",
      }));
    }
    const failed = value.is_error === true || (str(value.subtype) ?? "").startsWith("error");
    const error = isObject(value.error) ? value.error : undefined;
    events.push(event({
      kind: "terminal",
      raw,
      synthetic: false,
      status: failed ? "error" : "success",
      reason: failed ? str(error?.message) ?? str(value.error) ?? str(value.subtype) : undefined,
      result: str(value.result),
      structured: value.structured_result,
    }));
    return events;
  }
}
