/**
 * The GitHub Copilot CLI `-p … --output-format json` dialect: one session event per line (`{type, data, id,
 * timestamp, parentId, ephemeral?}`), ended by a `result` line carrying the process's `exitCode` and the
 * session id. There is no session-start line (the first line is whatever the session loaded first, e.g.
 * `session.skills_loaded`), so the first line yields a synthetic `init` with the model from argv. Text is the
 * whole `assistant.message` (its `assistant.message_delta` fragments are ignored, so text is not doubled);
 * `assistant.turn_retry` is a retry; `session.error` is an error whose message becomes the terminal's reason.
 * A run stopped by a signal writes `abort` and then a `result` that still says `exitCode: 0`: the terminal
 * is then `cancelled`.
 * The stream carries no token counts (`assistant.usage` is not written in JSON mode at 1.0.102), so no usage.
 * A run that fails before the session starts (no credentials) prints nothing on stdout: at EOF without a
 * `result`, a non-zero exit yields a synthetic error terminal quoting stderr.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd } from "./events.ts";
import { argvValue, event, isObject, type Json, notJson, parseObject, str, unknownKind } from "./_json.ts";

/** Kinds that carry nothing the contract checks. */
export const COPILOT_IGNORED_KINDS: ReadonlySet<string> = new Set([
  "session.skills_loaded",
  "session.mcp_servers_loaded",
  "session.mcp_server_status_changed",
  "session.tools_updated",
  "session.info",
  "session.warning",
  "session.custom_agents_updated",
  "session.title_changed",
  "user.message",
  "assistant.turn_start",
  "assistant.turn_end",
  "assistant.message_start",
  "assistant.message_delta",
  "assistant.tool_call_delta",
  "assistant.streaming_delta",
  "assistant.reasoning",
  "assistant.reasoning_delta",
  "assistant.intent",
  "assistant.idle",
  "model.call_start",
  "model.call_finished",
  "model.call_failure",
  "model.call_final_result",
  "tool.execution_partial_result",
  "tool.execution_progress",
  "agent.interrupted",
  "session.background_tasks_changed",
]);

/**
 * Makes a Copilot CLI normaliser.
 *
 * @example
 * ```ts
 * import { copilotNormalizer } from "./copilot.ts";
 * const n = copilotNormalizer({ argv: ["--model", "m"] });
 * n.line('{"type":"assistant.message","data":{"content":"OK"}}'); // [init (synthetic), text "OK"]
 * n.line('{"type":"result","sessionId":"s","exitCode":0}'); // [{ kind: "terminal", status: "success", … }]
 * ```
 */
export const copilotNormalizer: NormalizerFactory = (options) =>
  new CopilotNormalizer(argvValue(options.argv, "--model"));

class CopilotNormalizer implements Normalizer {
  readonly #model: string | undefined;
  #started = false;
  #done = false;
  #lastText: string | undefined;
  #lastError: string | undefined;
  #aborted: string | undefined;

  constructor(model: string | undefined) {
    this.#model = model;
  }

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    const events: DraftEvent[] = [];
    if (!this.#started) {
      this.#started = true;
      events.push(event({ kind: "init", raw, synthetic: true, model: this.#model }));
    }
    events.push(...this.#translate(value, raw));
    return events;
  }

  end(end: StreamEnd): DraftEvent[] {
    if (this.#done) return [];
    this.#done = true;
    if (end.exitCode === 0) return [];
    const reason = this.#lastError ?? (end.stderrTail.trim() ||
      (end.exitCode === null ? `killed by ${end.signal ?? "a signal"}` : `exit code ${end.exitCode}`));
    return [event({ kind: "terminal", raw: null, synthetic: true, status: "error", reason })];
  }

  #translate(value: Json, raw: string): DraftEvent[] {
    const type = str(value.type) ?? "";
    const data = isObject(value.data) ? value.data : {};
    switch (type) {
      case "assistant.message": {
        const text = str(data.content) ?? "";
        if (text === "") return [];
        this.#lastText = text;
        return [event({ kind: "text", raw, synthetic: false, text, delta: false })];
      }
      case "tool.execution_start":
        return [event({
          kind: "tool_call",
          raw,
          synthetic: false,
          id: str(data.toolCallId),
          name: str(data.toolName) ?? "",
          input: data.arguments ?? {},
        })];
      case "tool.execution_complete": {
        const result = isObject(data.result) ? data.result : {};
        const error = isObject(data.error) ? data.error : {};
        return [event({
          kind: "tool_result",
          raw,
          synthetic: false,
          id: str(data.toolCallId),
          output: result.content ?? error.message,
          isError: data.success === false,
        })];
      }
      case "assistant.turn_retry":
        return [event({ kind: "retry", raw, synthetic: false, message: str(data.reason) ?? "retrying" })];
      case "session.error":
        this.#lastError = str(data.message) ?? "session error";
        return [event({
          kind: "error",
          raw,
          synthetic: false,
          message: this.#lastError,
          code: str(data.errorType),
        })];
      case "abort":
        // A signal (or a user stop) ends the turn; the `result` that follows still says exitCode 0.
        this.#aborted = str(data.reason) ?? "aborted";
        return [];
      case "result":
        return this.#result(value, raw);
      default:
        return COPILOT_IGNORED_KINDS.has(type) ? [] : [unknownKind(raw)];
    }
  }

  #result(value: Json, raw: string): DraftEvent[] {
    if (this.#done) return [];
    this.#done = true;
    const exitCode = typeof value.exitCode === "number" ? value.exitCode : undefined;
    const success = exitCode === 0 && this.#aborted === undefined;
    const status = success ? "success" : this.#aborted === undefined ? "error" : "cancelled";
    return [event({
      kind: "terminal",
      raw,
      synthetic: false,
      status,
      reason: success
        ? undefined
        : this.#aborted === undefined
        ? this.#lastError ?? `exit code ${exitCode ?? "unknown"}`
        : `aborted (${this.#aborted})${this.#lastError ? `: ${this.#lastError}` : ""}`,
      result: this.#lastText,
      exitCode,
    })];
  }
}
