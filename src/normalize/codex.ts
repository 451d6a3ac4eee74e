/**
 * The codex `exec --json` dialect. codex has no init event: its first line
 * `thread.started` becomes a synthetic `init` carrying the thread id and the model named in argv. Terminal:
 * `turn.completed` (success, with run usage) or `turn.failed`. Top-level `error` lines are non-terminal:
 * `Reconnecting…` notices become `retry`, anything else `error`.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory } from "./events.ts";
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

/** Top-level kinds and item types that carry nothing the contract checks. */
export const CODEX_IGNORED_KINDS: ReadonlySet<string> = new Set([
  "turn.started",
  "item.updated",
  "item.plan.delta",
  "item/reasoning",
  "item/todo_list",
  "item/plan",
]);

/** Item types that are tool activity. */
const TOOL_ITEMS = new Set([
  "command_execution",
  "mcp_tool_call",
  "file_change",
  "web_search",
  "collab_tool_call",
]);

/**
 * Makes a codex normaliser.
 *
 * @example
 * ```ts
 * import { codexNormalizer } from "./codex.ts";
 * codexNormalizer({ argv: ["exec", "--json", "-m", "gpt-5"] }).line('{"type":"thread.started","thread_id":"t"}');
 * // [{ kind: "init", synthetic: true, sessionId: "t", model: "gpt-5", … }]
 * ```
 */
export const codexNormalizer: NormalizerFactory = ({ argv }) =>
  new CodexNormalizer(argvValue(argv, "-m", "--model"));

class CodexNormalizer implements Normalizer {
  readonly #model: string | undefined;
  readonly #started = new Set<string>();

  constructor(model: string | undefined) {
    this.#model = model;
  }

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    const type = str(value.type);
    switch (type) {
      case "thread.started":
        return [
          event({ kind: "init", raw, synthetic: true, sessionId: str(value.thread_id), model: this.#model }),
        ];
      case "item.started":
        return this.#itemStarted(value, raw);
      case "item.completed":
        return this.#itemCompleted(value, raw);
      case "turn.completed":
        return [
          ...this.#usage(value, raw),
          event({ kind: "terminal", raw, synthetic: false, status: "success" }),
        ];
      case "turn.failed": {
        const error = isObject(value.error) ? value.error : {};
        return [
          event({ kind: "terminal", raw, synthetic: false, status: "error", reason: str(error.message) }),
        ];
      }
      case "error": {
        const message = str(value.message) ?? "";
        const reconnect = /^Reconnecting\.\.\.\s*(\d+)\/(\d+)/.exec(message);
        if (message.startsWith("Reconnecting")) {
          return [event({
            kind: "retry",
            raw,
            synthetic: false,
            message,
            attempt: reconnect ? Number(reconnect[1]) : undefined,
            maxAttempts: reconnect ? Number(reconnect[2]) : undefined,
          })];
        }
        return [event({ kind: "error", raw, synthetic: false, message })];
      }
      default:
        return type !== undefined && CODEX_IGNORED_KINDS.has(type) ? [] : [unknownKind(raw)];
    }
  }

  end(): DraftEvent[] {
    return [];
  }

  #itemStarted(value: Json, raw: string): DraftEvent[] {
    const item = isObject(value.item) ? value.item : {};
    const type = str(item.type) ?? "";
    if (TOOL_ITEMS.has(type)) {
      this.#started.add(str(item.id) ?? "");
      return [toolCall(item, raw, false)];
    }
    if (type === "agent_message" || CODEX_IGNORED_KINDS.has(`item/${type}`)) return [];
    return [unknownKind(raw)];
  }

  #itemCompleted(value: Json, raw: string): DraftEvent[] {
    const item = isObject(value.item) ? value.item : {};
    const type = str(item.type) ?? "";
    if (type === "agent_message") {
      return [{ kind: "text", raw, synthetic: false, text: str(item.text) ?? "", delta: false }];
    }
    if (type === "error") {
      return [event({ kind: "error", raw, synthetic: false, message: str(item.message) ?? "" })];
    }
    if (TOOL_ITEMS.has(type)) {
      const id = str(item.id) ?? "";
      const events = this.#started.has(id) ? [] : [toolCall(item, raw, true)];
      this.#started.delete(id);
      const status = str(item.status);
      const isError = status === "failed" || status === "declined" ||
        item.error !== undefined && item.error !== null ||
        (typeof item.exit_code === "number" && item.exit_code !== 0);
      events.push(event({
        kind: "tool_result",
        raw,
        synthetic: false,
        id: str(item.id),
        name: toolName(item),
        output: item.aggregated_output ?? item.result ?? item.changes,
        isError,
      }));
      return events;
    }
    return CODEX_IGNORED_KINDS.has(`item/${type}`) ? [] : [unknownKind(raw)];
  }

  #usage(value: Json, raw: string): DraftEvent[] {
    if (!isObject(value.usage)) return [];
    const usage = value.usage;
    return [event({
      kind: "usage",
      raw,
      synthetic: false,
      input: num(usage.input_tokens),
      output: num(usage.output_tokens),
      cacheRead: num(usage.cached_input_tokens),
      cacheWrite: num(usage.cache_write_input_tokens),
      reasoning: optNum(usage.reasoning_output_tokens),
      scope: "run",
    })];
  }
}

function toolName(item: Json): string {
  const type = str(item.type) ?? "tool";
  if (type === "mcp_tool_call") return `${str(item.server) ?? "mcp"}.${str(item.tool) ?? "tool"}`;
  return type;
}

function toolCall(item: Json, raw: string, synthetic: boolean): DraftEvent {
  const input = item.command ?? item.arguments ?? item.query ?? item.changes ?? {};
  return event({ kind: "tool_call", raw, synthetic, id: str(item.id), name: toolName(item), input });
}
