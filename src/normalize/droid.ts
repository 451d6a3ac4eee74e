/**
 * The Factory Droid `droid exec --output-format stream-json` dialect: `system/init` first (session, model,
 * cwd), then `message` lines (the user's prompt echoed, then the assistant's whole text), `tool_call` and
 * `tool_result` lines, and one `completion` line carrying the final text and the run's usage. A failure is an
 * `error` line with `source: "cli"` (the run's end, exit 1); `error` lines from other sources (`agent_loop`)
 * come before it and do not end the run. A run that fails before the stream starts (an unknown `-m` model)
 * prints only on stderr: EOF then yields a synthetic error terminal quoting it. The blocking document
 * (`--output-format json`) is one claude-shaped `result` object whose `result` holds the failure's message.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd } from "./events.ts";
import { event, type Json, notJson, num, parseObject, str, unknownKind } from "./_json.ts";
import { type BlockingReader, documentObject, resultFields } from "./blocking_json.ts";

/**
 * Makes a droid normaliser.
 *
 * @example
 * ```ts
 * import { droidNormalizer } from "./droid.ts";
 * droidNormalizer({ argv: [] }).line('{"type":"completion","finalText":"OK","usage":{"input_tokens":3}}');
 * // [{ kind: "usage", … }, { kind: "terminal", status: "success", result: "OK", … }]
 * ```
 */
export const droidNormalizer: NormalizerFactory = () => new DroidNormalizer();

class DroidNormalizer implements Normalizer {
  #done = false;

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    switch (value.type) {
      case "system":
        return value.subtype === "init"
          ? [event({
            kind: "init",
            raw,
            synthetic: false,
            sessionId: str(value.session_id),
            model: str(value.model),
            cwd: str(value.cwd),
          })]
          : [unknownKind(raw)];
      case "message":
        return message(value, raw);
      case "tool_call":
        return [event({
          kind: "tool_call",
          raw,
          synthetic: false,
          id: str(value.id),
          name: str(value.toolName) ?? str(value.toolId) ?? "",
          input: value.parameters ?? {},
        })];
      case "tool_result":
        return [event({
          kind: "tool_result",
          raw,
          synthetic: false,
          id: str(value.id),
          name: str(value.toolId),
          output: value.value,
          isError: value.isError === true,
        })];
      case "completion":
        this.#done = true;
        return [
          usage(value, raw),
          event({
            kind: "terminal",
            raw,
            synthetic: false,
            status: "success",
            result: str(value.finalText),
          }),
        ];
      case "error": {
        const message = str(value.message) ?? "error";
        if (value.source !== "cli") return [event({ kind: "error", raw, synthetic: false, message })];
        this.#done = true;
        return [event({ kind: "terminal", raw, synthetic: false, status: "error", reason: message })];
      }
      default:
        return [unknownKind(raw)];
    }
  }

  end(end: StreamEnd): DraftEvent[] {
    if (this.#done) return [];
    const stderr = end.stderrTail.trim().split("\n").find((line) => line.trim() !== "");
    return [event({
      kind: "terminal",
      raw: null,
      synthetic: true,
      status: "error",
      reason: `${stderr ?? "stream ended without a completion or error line"} (exit ${
        end.exitCode ?? end.signal
      })`,
      exitCode: end.exitCode ?? undefined,
    })];
  }
}

function message(value: Json, raw: string): DraftEvent[] {
  if (value.role !== "assistant") return value.role === "user" ? [] : [unknownKind(raw)];
  const text = str(value.text) ?? "";
  return text === "" ? [] : [{ kind: "text", raw, synthetic: false, text, delta: false }];
}

function usage(value: Json, raw: string): DraftEvent {
  const figures = parseUsage(value.usage);
  return event({ kind: "usage", raw, synthetic: false, scope: "run", ...figures });
}

function parseUsage(
  value: unknown,
): { input: number; output: number; cacheRead: number; cacheWrite: number } {
  const usage = typeof value === "object" && value !== null ? value as Json : {};
  return {
    input: num(usage.input_tokens),
    output: num(usage.output_tokens),
    cacheRead: num(usage.cache_read_input_tokens),
    cacheWrite: num(usage.cache_creation_input_tokens),
  };
}

/** droid's blocking document: claude's `result` object, whose `result` is the message when it failed. */
export const readDroidBlocking: BlockingReader = (document, stdout) => {
  const result = documentObject(document, stdout);
  if (result.type !== "result") {
    throw new SyntaxError(`expected a "result" object, got type ${JSON.stringify(result.type)}`);
  }
  return resultFields(result, result.is_error === true ? str(result.result) : undefined, undefined);
};
