/**
 * Test oracle: the claude normaliser as it was before its throughput work (commit 078ab01), kept verbatim
 * so the property tests can prove the optimised one (src/normalize/claude.ts) gives byte-identical events.
 * Not used outside tests.
 *
 * The claude `stream-json` dialect, which is also the fake host's default
 * wire shape. Event-terminal: exactly one `result` ends the stream; a missing one is left missing (a finding
 * for the contract, never papered over at EOF).
 *
 * @module
 */
import type {
  DraftEvent,
  Normalizer,
  NormalizerFactory,
  TerminalStatus,
} from "../../src/normalize/events.ts";

/** `system` subtypes and top-level kinds claude documents that carry nothing the contract checks. */
export const CLAUDE_IGNORED_KINDS: ReadonlySet<string> = new Set([
  "system/status",
  "system/compact_boundary",
  "system/hook_started",
  "system/hook_response",
  "system/task_started",
  "system/task_notification",
  "system/files_persisted",
  "system/session_state_changed",
  "system/local_command_output",
  // A refused tool call; the refusal itself comes as the tool_result (is_error) that follows.
  "system/permission_denied",
  "stream_event",
  "prompt_suggestion",
]);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => typeof value === "string" ? value : undefined;
const num = (value: unknown): number => typeof value === "number" && Number.isFinite(value) ? value : 0;

/** Drops the keys whose value is undefined (the event types use exact optional properties). */
function defined<T extends Json>(value: T): T {
  // In place on the fresh literal: entries/fromEntries copies cost a fifth of the normaliser's time.
  for (const key in value) if (value[key] === undefined) delete value[key];
  return value;
}

/**
 * Makes a claude stream-json normaliser.
 *
 * @example
 * ```ts
 * import { referenceClaudeNormalizer } from "./_claude_reference.ts";
 * const normalizer = referenceClaudeNormalizer({ argv: [] });
 * normalizer.line('{"type":"system","subtype":"init","model":"m"}'); // [{ kind: "init", model: "m", … }]
 * ```
 */
export const referenceClaudeNormalizer: NormalizerFactory = () => new ClaudeNormalizer();

/** How every JSON text starts (after JSON whitespace): a line that does not cannot parse. */
const JSON_START = /^[ \t\r\n]*[{["\-0-9tfn]/;

class ClaudeNormalizer implements Normalizer {
  line(raw: string): DraftEvent[] {
    // A failed JSON.parse costs microseconds (it builds an Error); a flood of plain-text lines must not.
    if (!JSON_START.test(raw)) return [{ kind: "unparsed", why: "not_json", raw, synthetic: false }];
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return [{ kind: "unparsed", why: "not_json", raw, synthetic: false }];
    }
    if (!isObject(value) || typeof value.type !== "string") return [unknown(raw)];
    const subtype = str(value.subtype);
    switch (value.type) {
      case "system":
        if (subtype === "init") return [this.#init(value, raw)];
        if (subtype === "api_retry") return [this.#retry(value, raw)];
        return CLAUDE_IGNORED_KINDS.has(`system/${subtype}`) ? [] : [unknown(raw)];
      case "assistant":
        return this.#assistant(value, raw);
      case "user":
        return this.#user(value, raw);
      case "result":
        return this.#result(value, raw);
      default:
        return CLAUDE_IGNORED_KINDS.has(value.type) ? [] : [unknown(raw)];
    }
  }

  end(): DraftEvent[] {
    return [];
  }

  #init(value: Json, raw: string): DraftEvent {
    return defined({
      kind: "init",
      raw,
      synthetic: false,
      sessionId: str(value.session_id),
      model: str(value.model),
      cwd: str(value.cwd),
      hostVersion: str(value.claude_code_version),
    }) as DraftEvent;
  }

  #retry(value: Json, raw: string): DraftEvent {
    return defined({
      kind: "retry",
      raw,
      synthetic: false,
      attempt: typeof value.attempt === "number" ? value.attempt : undefined,
      maxAttempts: typeof value.max_retries === "number" ? value.max_retries : undefined,
      delayMs: typeof value.retry_delay_ms === "number" ? value.retry_delay_ms : undefined,
      message: str(value.error) ?? (value.error === undefined ? "retrying" : JSON.stringify(value.error)),
    }) as DraftEvent;
  }

  #assistant(value: Json, raw: string): DraftEvent[] {
    const content = isObject(value.message) && Array.isArray(value.message.content)
      ? value.message.content
      : [];
    const text = content.filter(isObject).flatMap((block) =>
      block.type === "text" ? [str(block.text) ?? ""] : []
    );
    if (value.error !== undefined) {
      // An API error dressed as an assistant message: non-terminal, its text is the message.
      const code = str(value.error);
      return [
        defined({
          kind: "error",
          raw,
          synthetic: false,
          message: text.join("\n") || String(value.error),
          code,
        }) as DraftEvent,
      ];
    }
    const events: DraftEvent[] = [];
    for (const block of content.filter(isObject)) {
      if (block.type === "text") {
        events.push({ kind: "text", raw, synthetic: false, text: str(block.text) ?? "", delta: false });
      } else if (block.type === "tool_use") {
        events.push(defined({
          kind: "tool_call",
          raw,
          synthetic: false,
          id: str(block.id),
          name: str(block.name) ?? "",
          input: block.input ?? {},
        }) as DraftEvent);
      }
    }
    return events;
  }

  #user(value: Json, raw: string): DraftEvent[] {
    const content = isObject(value.message) && Array.isArray(value.message.content)
      ? value.message.content
      : [];
    return content.filter(isObject).filter((block) => block.type === "tool_result").map((block) =>
      defined({
        kind: "tool_result",
        raw,
        synthetic: false,
        id: str(block.tool_use_id),
        output: block.content,
        isError: block.is_error === true,
      }) as DraftEvent
    );
  }

  #result(value: Json, raw: string): DraftEvent[] {
    const events: DraftEvent[] = [];
    if (isObject(value.usage)) {
      const usage = value.usage;
      events.push(defined({
        kind: "usage",
        raw,
        synthetic: false,
        input: num(usage.input_tokens),
        output: num(usage.output_tokens),
        cacheRead: num(usage.cache_read_input_tokens),
        cacheWrite: num(usage.cache_creation_input_tokens),
        costUsd: typeof value.total_cost_usd === "number" ? value.total_cost_usd : undefined,
        scope: "run",
      }) as DraftEvent);
    }
    const subtype = str(value.subtype) ?? "";
    // `is_error` is the discriminator: claude reports a failed login as subtype "success" with is_error true.
    const status: TerminalStatus = subtype === "error_max_turns"
      ? "max_turns"
      : value.is_error === true || subtype.startsWith("error")
      ? "error"
      : "success";
    events.push(defined({
      kind: "terminal",
      raw,
      synthetic: false,
      status,
      reason: status === "success" ? undefined : str(value.terminal_reason) ?? str(value.error) ?? subtype,
      result: str(value.result),
      structured: value.structured_output,
    }) as DraftEvent);
    return events;
  }
}

function unknown(raw: string): DraftEvent {
  return { kind: "unparsed", why: "unknown_kind", raw, synthetic: false };
}
