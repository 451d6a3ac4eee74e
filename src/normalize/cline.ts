/**
 * The Cline CLI `--json` dialect: one object per line with `ts` and `type`: `hook_event` lines (lifecycle
 * hooks: `agent_start` is the first line of a run and the init), `agent_event` lines wrapping the agent's own
 * `event` (`content_start` / `content_end` of `text`, `reasoning` and `tool` content, `usage`, `error`,
 * `done`, …), then `run_result` (`finishReason` `completed`, `error` or `aborted`, the final `text`, the run's
 * `usage` and `model`) as the terminal. After it come `run_aborted` (when a signal stopped the run) or a bare
 * `{type: "error", message}` repeating the failure; both are ignored once the terminal is out, and
 * `run_aborted` before any `run_result` ends the run as cancelled. Text is `content_end` of `text` (the
 * `content_start` carries the same text, so it is ignored); usage is the `run_result`'s, scope `run`.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd, TerminalStatus } from "./events.ts";
import {
  argvValue,
  event,
  isObject,
  type Json,
  notJson,
  num,
  optNum,
  parseObject,
  str,
  unknownKind,
} from "./_json.ts";

/** `agent_event` kinds that carry nothing the contract checks. */
export const CLINE_IGNORED_AGENT_EVENTS: ReadonlySet<string> = new Set([
  "iteration_start",
  "iteration_end",
  "content_update",
  "usage",
  "done",
  "notice",
]);

const FINISH: Readonly<Record<string, TerminalStatus>> = {
  completed: "success",
  error: "error",
  aborted: "cancelled",
};

/**
 * Makes a Cline normaliser.
 *
 * @example
 * ```ts
 * import { clineNormalizer } from "./cline.ts";
 * const n = clineNormalizer({ argv: ["-m", "m"] });
 * n.line('{"type":"hook_event","hookEventName":"agent_start","taskId":"t"}'); // [{ kind: "init", sessionId: "t", … }]
 * n.line('{"type":"run_result","finishReason":"completed","text":"OK"}'); // [{ kind: "terminal", status: "success", … }]
 * ```
 */
export const clineNormalizer: NormalizerFactory = (options) =>
  new ClineNormalizer(argvValue(options.argv, "-m", "--model"));

class ClineNormalizer implements Normalizer {
  readonly #model: string | undefined;
  #started = false;
  #done = false;
  #lastError: string | undefined;

  constructor(model: string | undefined) {
    this.#model = model;
  }

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    const type = str(value.type) ?? "";
    switch (type) {
      case "hook_event":
        return this.#hook(value, raw);
      case "agent_event":
        return this.#done ? [] : this.#agentEvent(isObject(value.event) ? value.event : {}, raw);
      case "run_result":
        return this.#result(value, raw);
      case "run_aborted":
        return this.#finish(raw, "cancelled", str(value.message) ?? str(value.reason) ?? "aborted");
      case "error":
        if (this.#done) return [];
        this.#lastError = str(value.message) ?? "error";
        return [event({ kind: "error", raw, synthetic: false, message: this.#lastError })];
      default:
        return [unknownKind(raw)];
    }
  }

  end(end: StreamEnd): DraftEvent[] {
    if (this.#done || end.exitCode === 0) return [];
    const reason = this.#lastError ?? (end.stderrTail.trim() ||
      (end.exitCode === null ? `killed by ${end.signal ?? "a signal"}` : `exit code ${end.exitCode}`));
    return this.#finish(null, "error", reason);
  }

  #hook(value: Json, raw: string): DraftEvent[] {
    if (value.hookEventName !== "agent_start" || this.#started) return [];
    this.#started = true;
    return [event({ kind: "init", raw, synthetic: false, sessionId: str(value.taskId), model: this.#model })];
  }

  #agentEvent(inner: Json, raw: string): DraftEvent[] {
    const type = str(inner.type) ?? "";
    const content = str(inner.contentType);
    if (type === "content_start" && content === "tool") {
      return [event({
        kind: "tool_call",
        raw,
        synthetic: false,
        id: str(inner.toolCallId),
        name: str(inner.toolName) ?? "",
        input: inner.input ?? {},
      })];
    }
    if (type === "content_end" && content === "tool") {
      return [event({
        kind: "tool_result",
        raw,
        synthetic: false,
        id: str(inner.toolCallId),
        name: str(inner.toolName),
        output: inner.output ?? inner.error,
        isError: inner.error !== undefined && inner.error !== null,
      })];
    }
    if (type === "content_end" && content === "text") {
      const text = str(inner.text) ?? "";
      return text === "" ? [] : [event({ kind: "text", raw, synthetic: false, text, delta: false })];
    }
    if (type === "content_start" || type === "content_end") return [];
    if (type === "error") {
      const error = isObject(inner.error) ? inner.error : {};
      this.#lastError = str(error.message) ?? str(inner.error) ?? "error";
      return [
        event({
          kind: "error",
          raw,
          synthetic: false,
          message: this.#lastError,
          code: str(inner.errorClass),
        }),
      ];
    }
    return CLINE_IGNORED_AGENT_EVENTS.has(type) ? [] : [unknownKind(raw)];
  }

  #result(value: Json, raw: string): DraftEvent[] {
    if (this.#done) return [];
    const finish = str(value.finishReason) ?? "";
    const status = FINISH[finish] ?? "error";
    const text = str(value.text);
    const events: DraftEvent[] = [];
    if (isObject(value.usage)) {
      const usage = value.usage;
      events.push(event({
        kind: "usage",
        raw,
        synthetic: false,
        input: num(usage.inputTokens),
        output: num(usage.outputTokens),
        cacheRead: num(usage.cacheReadTokens),
        cacheWrite: num(usage.cacheWriteTokens),
        costUsd: optNum(usage.totalCost),
        scope: "run",
      }));
    }
    this.#done = true;
    events.push(event({
      kind: "terminal",
      raw,
      synthetic: false,
      status,
      reason: status === "success"
        ? undefined
        : text || this.#lastError || `finishReason ${finish || "missing"}`,
      result: status === "success" ? text : undefined,
    }));
    return events;
  }

  #finish(raw: string | null, status: TerminalStatus, reason: string): DraftEvent[] {
    if (this.#done) return [];
    this.#done = true;
    return [event({ kind: "terminal", raw, synthetic: raw === null, status, reason })];
  }
}
