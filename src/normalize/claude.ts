/**
 * The claude `stream-json` dialect, which is also the fake host's default
 * wire shape. Event-terminal: exactly one `result` ends the stream; a missing one is left missing (a finding
 * for the contract, never papered over at EOF).
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, TerminalStatus } from "./events.ts";

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

// Events are built field by field, skipping undefined ones, in the order `conformance parse` prints them.
// Deleting keys from a literal instead turns it into a slow dictionary object (measured: a fifth of the time);
// every per-line regex, closure and array copy here showed up in the profile of `deno task bench`.

/**
 * Makes a claude stream-json normaliser.
 *
 * @example
 * ```ts
 * import { claudeNormalizer } from "./claude.ts";
 * const normalizer = claudeNormalizer({ argv: [] });
 * normalizer.line('{"type":"system","subtype":"init","model":"m"}'); // [{ kind: "init", model: "m", … }]
 * ```
 */
export const claudeNormalizer: NormalizerFactory = () => new ClaudeNormalizer();

/**
 * Whether `raw` can start a JSON text: its first non-whitespace character is one a JSON value starts with.
 * A failed JSON.parse costs microseconds (it builds an Error); a flood of plain-text lines must not.
 */
export function mayBeJson(raw: string): boolean {
  let i = 0;
  let c = raw.charCodeAt(0);
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = raw.charCodeAt(++i);
  // { [ " - 0-9 t f n
  return c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) ||
    c === 0x74 || c === 0x66 || c === 0x6e;
}

class ClaudeNormalizer implements Normalizer {
  line(raw: string): DraftEvent[] {
    if (!mayBeJson(raw)) return [{ kind: "unparsed", why: "not_json", raw, synthetic: false }];
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return [{ kind: "unparsed", why: "not_json", raw, synthetic: false }];
    }
    if (!isObject(value) || typeof value.type !== "string") return [unknown(raw)];
    switch (value.type) {
      case "assistant":
        return assistant(value, raw);
      case "user":
        return user(value, raw);
      case "system": {
        const subtype = str(value.subtype);
        if (subtype === "init") return [init(value, raw)];
        if (subtype === "api_retry") return [retry(value, raw)];
        return CLAUDE_IGNORED_KINDS.has(`system/${subtype}`) ? [] : [unknown(raw)];
      }
      case "result":
        return result(value, raw);
      default:
        return CLAUDE_IGNORED_KINDS.has(value.type) ? [] : [unknown(raw)];
    }
  }

  end(): DraftEvent[] {
    return [];
  }
}

function init(value: Json, raw: string): DraftEvent {
  const event: Json = { kind: "init", raw, synthetic: false };
  if (typeof value.session_id === "string") event.sessionId = value.session_id;
  if (typeof value.model === "string") event.model = value.model;
  if (typeof value.cwd === "string") event.cwd = value.cwd;
  if (typeof value.claude_code_version === "string") event.hostVersion = value.claude_code_version;
  return event as unknown as DraftEvent;
}

function retry(value: Json, raw: string): DraftEvent {
  const event: Json = { kind: "retry", raw, synthetic: false };
  if (typeof value.attempt === "number") event.attempt = value.attempt;
  if (typeof value.max_retries === "number") event.maxAttempts = value.max_retries;
  if (typeof value.retry_delay_ms === "number") event.delayMs = value.retry_delay_ms;
  event.message = str(value.error) ?? (value.error === undefined ? "retrying" : JSON.stringify(value.error));
  return event as unknown as DraftEvent;
}

/** The content blocks of a message, or an empty list when there are none. */
function contentOf(value: Json): readonly unknown[] {
  const message = value.message;
  return isObject(message) && Array.isArray(message.content) ? message.content : [];
}

function assistant(value: Json, raw: string): DraftEvent[] {
  const content = contentOf(value);
  if (value.error !== undefined) {
    // An API error dressed as an assistant message: non-terminal, its text is the message.
    let text = "";
    let first = true;
    for (const block of content) {
      if (!isObject(block) || block.type !== "text") continue;
      text += (first ? "" : "\n") + (str(block.text) ?? "");
      first = false;
    }
    const event: Json = { kind: "error", raw, synthetic: false, message: text || String(value.error) };
    if (typeof value.error === "string") event.code = value.error;
    return [event as unknown as DraftEvent];
  }
  const events: DraftEvent[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text") {
      events.push({ kind: "text", raw, synthetic: false, text: str(block.text) ?? "", delta: false });
    } else if (block.type === "tool_use") {
      const event: Json = { kind: "tool_call", raw, synthetic: false };
      if (typeof block.id === "string") event.id = block.id;
      event.name = str(block.name) ?? "";
      event.input = block.input ?? {};
      events.push(event as unknown as DraftEvent);
    }
  }
  return events;
}

function user(value: Json, raw: string): DraftEvent[] {
  const events: DraftEvent[] = [];
  for (const block of contentOf(value)) {
    if (!isObject(block) || block.type !== "tool_result") continue;
    const event: Json = { kind: "tool_result", raw, synthetic: false };
    if (typeof block.tool_use_id === "string") event.id = block.tool_use_id;
    if (block.content !== undefined) event.output = block.content;
    event.isError = block.is_error === true;
    events.push(event as unknown as DraftEvent);
  }
  return events;
}

function result(value: Json, raw: string): DraftEvent[] {
  const events: DraftEvent[] = [];
  const usage = value.usage;
  if (isObject(usage)) {
    const event: Json = {
      kind: "usage",
      raw,
      synthetic: false,
      input: num(usage.input_tokens),
      output: num(usage.output_tokens),
      cacheRead: num(usage.cache_read_input_tokens),
      cacheWrite: num(usage.cache_creation_input_tokens),
    };
    if (typeof value.total_cost_usd === "number") event.costUsd = value.total_cost_usd;
    event.scope = "run";
    events.push(event as unknown as DraftEvent);
  }
  const subtype = str(value.subtype) ?? "";
  // `is_error` is the discriminator: claude reports a failed login as subtype "success" with is_error true.
  const status: TerminalStatus = subtype === "error_max_turns"
    ? "max_turns"
    : value.is_error === true || subtype.startsWith("error")
    ? "error"
    : "success";
  const event: Json = { kind: "terminal", raw, synthetic: false, status };
  if (status !== "success") event.reason = str(value.terminal_reason) ?? str(value.error) ?? subtype;
  if (typeof value.result === "string") event.result = value.result;
  if (value.structured_output !== undefined) event.structured = value.structured_output;
  events.push(event as unknown as DraftEvent);
  return events;
}

function unknown(raw: string): DraftEvent {
  return { kind: "unparsed", why: "unknown_kind", raw, synthetic: false };
}
