/**
 * The pi / omp `--mode json` dialect. The `session` header is the init.
 * The terminal needs lookahead: every `agent_end` is held as a candidate, dropped when an `auto_retry_start`
 * follows (the run is being retried), and confirmed at EOF; `auto_retry_end{success:false}` ends the run in
 * error at once. Status comes from the last assistant `stopReason` (stop → success, error → error, aborted →
 * cancelled), never from the exit code (pi exits 0 after a failed model call). Usage is per assistant
 * message (scope `step`), so retried attempts add up.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, TerminalStatus } from "./events.ts";
import {
  contentText,
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

/** Kinds that carry nothing the contract checks (omp adds `advisor_cost_changed`). */
export const PI_IGNORED_KINDS: ReadonlySet<string> = new Set([
  "agent_start",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "tool_execution_update",
  "queue_update",
  "compaction_start",
  "compaction_end",
  "advisor_cost_changed",
]);

/**
 * Makes a pi (and omp) normaliser.
 *
 * @example
 * ```ts
 * import { piNormalizer } from "./pi.ts";
 * const n = piNormalizer({ argv: [] });
 * n.line('{"type":"session","version":3,"id":"s","cwd":"/w"}'); // [{ kind: "init", sessionId: "s", … }]
 * ```
 */
export const piNormalizer: NormalizerFactory = () => new PiNormalizer();

interface Candidate {
  raw: string;
  status: TerminalStatus;
  reason: string | undefined;
  result: string | undefined;
}

class PiNormalizer implements Normalizer {
  #lastAssistant: Json | undefined;
  #candidate: Candidate | undefined;
  #done = false;

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    const type = str(value.type) ?? "";
    switch (type) {
      case "session":
        return [event({
          kind: "init",
          raw,
          synthetic: false,
          sessionId: str(value.id),
          cwd: str(value.cwd),
          hostVersion: value.version === undefined ? undefined : String(value.version),
        })];
      case "message_end":
        return this.#messageEnd(value, raw);
      case "tool_execution_start":
        return [event({
          kind: "tool_call",
          raw,
          synthetic: false,
          id: str(value.toolCallId),
          name: str(value.toolName) ?? "",
          input: value.args ?? {},
        })];
      case "tool_execution_end":
        return [event({
          kind: "tool_result",
          raw,
          synthetic: false,
          id: str(value.toolCallId),
          name: str(value.toolName),
          output: value.result,
          isError: value.isError === true,
        })];
      case "agent_end":
        this.#candidate = this.#judge(raw);
        return [];
      case "auto_retry_start":
        // The held agent_end was not the last one: the run is being retried.
        this.#candidate = undefined;
        return [event({
          kind: "retry",
          raw,
          synthetic: false,
          attempt: optNum(value.attempt),
          maxAttempts: optNum(value.maxAttempts),
          delayMs: optNum(value.delayMs),
          message: str(value.errorMessage) ?? "retrying",
        })];
      case "auto_retry_end":
        if (value.success === true) return [];
        this.#candidate = undefined;
        this.#done = true;
        return [event({
          kind: "terminal",
          raw,
          synthetic: false,
          status: "error",
          reason: str(value.finalError) ?? this.#judge(raw).reason ?? "retries exhausted",
        })];
      default:
        return PI_IGNORED_KINDS.has(type) ? [] : [unknownKind(raw)];
    }
  }

  end(): DraftEvent[] {
    if (this.#done || !this.#candidate) return [];
    const { raw, status, reason, result } = this.#candidate;
    this.#done = true;
    return [event({ kind: "terminal", raw, synthetic: false, status, reason, result })];
  }

  #messageEnd(value: Json, raw: string): DraftEvent[] {
    const message = isObject(value.message) ? value.message : {};
    if (message.role !== "assistant") return [];
    this.#lastAssistant = message;
    const events: DraftEvent[] = contentText(message.content).map((text) => ({
      kind: "text",
      raw,
      synthetic: false,
      text,
      delta: false,
    }));
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      events.push(event({
        kind: "error",
        raw,
        synthetic: false,
        message: str(message.errorMessage) ?? String(message.stopReason),
        code: message.errorId === undefined ? undefined : String(message.errorId),
      }));
    }
    if (isObject(message.usage)) {
      const usage = message.usage;
      const cost = isObject(usage.cost) ? usage.cost : {};
      events.push(event({
        kind: "usage",
        raw,
        synthetic: false,
        input: num(usage.input),
        output: num(usage.output),
        cacheRead: num(usage.cacheRead),
        cacheWrite: num(usage.cacheWrite),
        costUsd: optNum(cost.total),
        scope: "step",
      }));
    }
    return events;
  }

  #judge(raw: string): Candidate {
    const message = this.#lastAssistant;
    const stop = str(message?.stopReason);
    const text = message ? contentText(message.content).join("\n") : undefined;
    if (stop === "stop" || stop === "toolUse" || stop === "endTurn") {
      return { raw, status: "success", reason: undefined, result: text };
    }
    if (stop === "aborted") {
      return { raw, status: "cancelled", reason: str(message?.errorMessage) ?? "aborted", result: text };
    }
    return {
      raw,
      status: "error",
      reason: str(message?.errorMessage) ?? (stop ? `stopReason ${stop}` : "no assistant message"),
      result: text,
    };
  }
}
