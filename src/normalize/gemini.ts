/**
 * The gemini `stream-json` dialect. Event-terminal: one `result` whose
 * `status` is the outcome and whose `stats` are the run's usage. A failure before the stream starts leaves
 * stdout empty (exit 41 and friends); that missing terminal is a finding, not papered over. Assistant text
 * arrives as deltas.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, TerminalStatus } from "./events.ts";
import { event, isObject, type Json, notJson, num, parseObject, str, unknownKind } from "./_json.ts";
import { type BlockingReader, documentObject, withDefined } from "./blocking_json.ts";

/** gemini's blocking document: one pretty-printed `{session_id, response, stats, error?}` object. */
export const readGeminiBlocking: BlockingReader = (document, stdout) => {
  const result = documentObject(document, stdout);
  const error = isObject(result.error) ? result.error : undefined;
  return error
    ? { status: "error", reason: str(error.message) ?? "error" }
    : withDefined({ status: "success", result: str(result.response) });
};

/**
 * Makes a gemini normaliser.
 *
 * @example
 * ```ts
 * import { geminiNormalizer } from "./gemini.ts";
 * geminiNormalizer({ argv: [] }).line('{"type":"init","session_id":"s","model":"auto"}');
 * // [{ kind: "init", sessionId: "s", model: "auto", … }]
 * ```
 */
export const geminiNormalizer: NormalizerFactory = () => new GeminiNormalizer();

class GeminiNormalizer implements Normalizer {
  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    switch (value.type) {
      case "init":
        return [
          event({
            kind: "init",
            raw,
            synthetic: false,
            sessionId: str(value.session_id),
            model: str(value.model),
          }),
        ];
      case "message":
        if (value.role === "user") return [];
        if (value.role !== "assistant") return [unknownKind(raw)];
        return [{
          kind: "text",
          raw,
          synthetic: false,
          text: str(value.content) ?? "",
          delta: value.delta === true,
        }];
      case "tool_use":
        return [event({
          kind: "tool_call",
          raw,
          synthetic: false,
          id: str(value.tool_id),
          name: str(value.tool_name) ?? "",
          input: value.parameters ?? {},
        })];
      case "tool_result":
        return [event({
          kind: "tool_result",
          raw,
          synthetic: false,
          id: str(value.tool_id),
          output: value.output ?? (isObject(value.error) ? value.error.message : undefined),
          isError: value.status === "error",
        })];
      case "error":
        return [
          event({
            kind: "error",
            raw,
            synthetic: false,
            message: str(value.message) ?? "",
            code: str(value.severity),
          }),
        ];
      case "result":
        return this.#result(value, raw);
      default:
        return [unknownKind(raw)];
    }
  }

  end(): DraftEvent[] {
    return [];
  }

  #result(value: Json, raw: string): DraftEvent[] {
    const events: DraftEvent[] = [];
    if (isObject(value.stats)) {
      const stats = value.stats;
      events.push(event({
        kind: "usage",
        raw,
        synthetic: false,
        input: num(stats.input_tokens),
        output: num(stats.output_tokens),
        cacheRead: num(stats.cached),
        cacheWrite: 0,
        scope: "run",
      }));
    }
    const error = isObject(value.error) ? value.error : undefined;
    const status: TerminalStatus = value.status === "success" ? "success" : "error";
    events.push(event({
      kind: "terminal",
      raw,
      synthetic: false,
      status,
      reason: status === "success" ? undefined : str(error?.message) ?? str(error?.type) ?? str(value.status),
    }));
    return events;
  }
}
