/**
 * The wire shapes the fake host can speak: for each dialect, the stdout (and stderr) lines a directive becomes.
 * `claude` is the default and the shape the `fake` hosts declare.
 *
 * @module
 */
import type { Directive, FakeDialect } from "./script.ts";

type Of<V extends Directive["verb"]> = Extract<Directive, { verb: V }>;

/** What one directive writes: stdout lines and stderr lines. */
export interface Emission {
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

/** How one dialect renders the wire-level directives. `n` numbers ids within a run. */
export interface DialectWriter {
  /** The dialect's stdout is the reply as plain text with no tool events (Continue's `cn -p`); default JSON lines. */
  readonly plainText?: boolean;
  init(directive: Of<"init">): Emission;
  text(value: string, n: number): Emission;
  tool(name: string, input: unknown, n: number): Emission;
  retry(directive: Of<"retry">): Emission;
  result(directive: Of<"result">): Emission;
  /** One valid line of about `bytes` bytes that the dialect's normaliser ignores (for `flood`). */
  padding(bytes: number): string;
  /**
   * The blocking-JSON document made of the held lines (`--output-format json`); default the final object
   * alone, as claude prints it.
   */
  blockingDocument?(held: readonly string[]): string;
}

const out = (...lines: unknown[]): Emission => ({
  stdout: lines.map((line) => JSON.stringify(line)),
  stderr: [],
});
const err = (...lines: string[]): Emission => ({ stdout: [], stderr: lines });
const both = (a: Emission, b: Emission): Emission => ({
  stdout: [...a.stdout, ...b.stdout],
  stderr: [...a.stderr, ...b.stderr],
});
const pad = (prefix: string, bytes: number, suffix: string) =>
  prefix + "x".repeat(Math.max(0, bytes - prefix.length - suffix.length)) + suffix;
const session = (directive: Of<"init">) => directive.session ?? "fake-session";
const model = (directive: Of<"init">) => directive.model ?? "fake-model";
const TIMESTAMP = "2026-01-01T00:00:00.000Z";

const claude: DialectWriter = {
  init: (d) =>
    out({ type: "system", subtype: "init", model: model(d), session_id: session(d), cwd: Deno.cwd() }),
  text: (text) => out({ type: "assistant", message: { content: [{ type: "text", text }] } }),
  tool: (name, input, n) =>
    out({ type: "assistant", message: { content: [{ type: "tool_use", id: `toolu_${n}`, name, input }] } }),
  retry: (d) =>
    out({
      type: "system",
      subtype: "api_retry",
      attempt: d.attempt,
      max_retries: d.max,
      retry_delay_ms: 1,
      error: d.message,
    }),
  result: (d) =>
    out({
      type: "result",
      subtype: "success",
      is_error: d.error !== undefined,
      result: d.error ?? "OK",
      usage: { input_tokens: d.in, output_tokens: d.out, cache_read_input_tokens: d.cache },
      ...(d.error === undefined ? {} : { error: d.error }),
      ...(d.structured === undefined ? {} : { structured_output: d.structured }),
    }),
  padding: (bytes) => pad('{"type":"stream_event","event":{"type":"ping","pad":"', bytes, '"}}'),
};

const qwen: DialectWriter = {
  ...claude,
  init: (d) =>
    out({
      type: "system",
      subtype: "init",
      model: model(d),
      session_id: session(d),
      permission_mode: "yolo",
    }),
  retry: (d) => err(`Retrying after error: ${d.message} (attempt ${d.attempt}/${d.max})`),
  result: (d) =>
    out({
      type: "result",
      subtype: d.error === undefined ? "success" : "error_during_execution",
      is_error: d.error !== undefined,
      result: d.error === undefined ? "OK" : "",
      usage: { input_tokens: d.in, output_tokens: d.out, cache_read_input_tokens: d.cache },
      ...(d.error === undefined ? {} : { error: { message: d.error } }),
      ...(d.structured === undefined ? {} : { structured_result: d.structured }),
    }),
  // qwen's blocking JSON is one array of every message.
  blockingDocument: (held) => `[${held.join(",")}]`,
};

const codex: DialectWriter = {
  init: (d) => out({ type: "thread.started", thread_id: session(d) }, { type: "turn.started" }),
  text: (text, n) => out({ type: "item.completed", item: { id: `item_${n}`, type: "agent_message", text } }),
  tool: (tool, args, n) =>
    out(
      {
        type: "item.started",
        item: {
          id: `item_${n}`,
          type: "mcp_tool_call",
          server: "fake",
          tool,
          arguments: args,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: `item_${n}`,
          type: "mcp_tool_call",
          server: "fake",
          tool,
          arguments: args,
          status: "completed",
        },
      },
    ),
  retry: (d) => out({ type: "error", message: `Reconnecting... ${d.attempt}/${d.max} (${d.message})` }),
  result: (d) =>
    d.error === undefined
      ? out({
        type: "turn.completed",
        usage: { input_tokens: d.in, cached_input_tokens: d.cache, output_tokens: d.out },
      })
      : out({ type: "turn.failed", error: { message: d.error } }),
  padding: (bytes) =>
    pad('{"type":"item.updated","item":{"id":"pad","type":"reasoning","text":"', bytes, '"}}'),
};

const gemini: DialectWriter = {
  init: (d) => out({ type: "init", timestamp: TIMESTAMP, session_id: session(d), model: model(d) }),
  text: (content) => out({ type: "message", timestamp: TIMESTAMP, role: "assistant", content, delta: true }),
  tool: (tool_name, parameters, n) =>
    out(
      { type: "tool_use", timestamp: TIMESTAMP, tool_name, tool_id: `tool_${n}`, parameters },
      { type: "tool_result", timestamp: TIMESTAMP, tool_id: `tool_${n}`, status: "success", output: "" },
    ),
  retry: (d) => err(`Attempt ${d.attempt} failed. Retrying with backoff... Error: ${d.message}`),
  result: (d) =>
    out({
      type: "result",
      timestamp: TIMESTAMP,
      status: d.error === undefined ? "success" : "error",
      ...(d.error === undefined ? {} : { error: { type: "Error", message: d.error } }),
      stats: { total_tokens: d.in + d.out, input_tokens: d.in, output_tokens: d.out, cached: d.cache },
    }),
  padding: (bytes) => pad('{"type":"message","role":"user","content":"', bytes, '"}'),
};

const opencode: DialectWriter = {
  init: (d) => out({ type: "step_start", timestamp: 0, sessionID: session(d), part: { type: "step-start" } }),
  text: (text) =>
    out({ type: "text", timestamp: 0, sessionID: "fake-session", part: { type: "text", text } }),
  tool: (tool, input, n) =>
    out({
      type: "tool_use",
      timestamp: 0,
      sessionID: "fake-session",
      part: { tool, callID: `call_${n}`, state: { status: "completed", input, output: "" } },
    }),
  retry: () => ({ stdout: [], stderr: [] }),
  result: (d) =>
    both(
      d.error === undefined ? { stdout: [], stderr: [] } : out({
        type: "error",
        timestamp: 0,
        sessionID: "fake-session",
        error: { name: "UnknownError", data: { message: d.error } },
      }),
      out({
        type: "step_finish",
        timestamp: 0,
        sessionID: "fake-session",
        part: {
          reason: d.error === undefined ? "stop" : "error",
          tokens: { input: d.in, output: d.out, reasoning: 0, cache: { read: d.cache, write: 0 } },
          cost: 0,
        },
      }),
    ),
  padding: (bytes) =>
    pad('{"type":"step_start","timestamp":0,"part":{"type":"step-start","pad":"', bytes, '"}}'),
};

const piAssistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "message_end",
  message: { role: "assistant", content, provider: "fake", model: "fake-model", ...extra },
});
const piUsage = (d: Of<"result">) => ({
  input: d.in,
  output: d.out,
  cacheRead: d.cache,
  cacheWrite: 0,
  totalTokens: d.in + d.out,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

const pi: DialectWriter = {
  init: (d) =>
    out({ type: "session", version: 3, id: session(d), timestamp: TIMESTAMP, cwd: Deno.cwd() }, {
      type: "agent_start",
    }),
  text: (text) => out(piAssistant([{ type: "text", text }], { stopReason: "toolUse" })),
  tool: (toolName, args, n) =>
    out(
      { type: "tool_execution_start", toolCallId: `call_${n}`, toolName, args },
      { type: "tool_execution_end", toolCallId: `call_${n}`, toolName, result: "", isError: false },
    ),
  // pi retries by ending the failed attempt (`agent_end`) and announcing the next one.
  retry: (d) =>
    out(
      piAssistant([], { stopReason: "error", errorMessage: d.message }),
      { type: "agent_end", messages: [] },
      {
        type: "auto_retry_start",
        attempt: d.attempt,
        maxAttempts: d.max,
        delayMs: 1,
        errorMessage: d.message,
      },
      { type: "agent_start" },
    ),
  result: (d) =>
    out(
      piAssistant([], {
        stopReason: d.error === undefined ? "stop" : "error",
        usage: piUsage(d),
        ...(d.error === undefined ? {} : { errorMessage: d.error }),
      }),
      { type: "agent_end", messages: [] },
    ),
  padding: (bytes) => pad('{"type":"message_update","pad":"', bytes, '"}'),
};

const kimi: DialectWriter = {
  init: () => out({ role: "meta", type: "system.version", version: "fake" }),
  text: (content) => out({ role: "assistant", content }),
  tool: (name, input, n) =>
    out(
      {
        role: "assistant",
        content: "",
        tool_calls: [{
          type: "function",
          id: `call_${n}`,
          function: { name, arguments: JSON.stringify(input) },
        }],
      },
      { role: "tool", tool_call_id: `call_${n}`, content: "" },
    ),
  retry: (d) => out({ role: "meta", type: "turn.step.retrying", attempt: d.attempt, message: d.message }),
  // kimi reports failure on stderr only; success ends with the resume hint.
  result: (d) =>
    d.error === undefined
      ? out({
        role: "meta",
        type: "session.resume_hint",
        session_id: "fake-session",
        command: "kimi -S fake-session",
        content: "",
      })
      : err(`error: failed to run prompt: ${d.error}`),
  padding: (bytes) => pad('{"role":"meta","type":"turn.step.progress","pad":"', bytes, '"}'),
};

const copilotEvent = (type: string, data: Record<string, unknown>) => ({ type, data, timestamp: TIMESTAMP });

// copilot's JSON stream has no session-start line and no token counts.
const copilot: DialectWriter = {
  init: (d) => out(copilotEvent("session.tools_updated", { model: model(d) })),
  text: (content, n) =>
    out(copilotEvent("assistant.message", { messageId: `msg_${n}`, content, toolRequests: [] })),
  tool: (toolName, args, n) =>
    out(
      copilotEvent("tool.execution_start", { toolCallId: `call_${n}`, toolName, arguments: args }),
      copilotEvent("tool.execution_complete", {
        toolCallId: `call_${n}`,
        success: true,
        result: { content: "" },
      }),
    ),
  retry: (d) => out(copilotEvent("assistant.turn_retry", { turnId: "0", reason: d.message })),
  result: (d) =>
    both(
      d.error === undefined ? { stdout: [], stderr: [] } : out(copilotEvent("session.error", {
        errorType: "query",
        message: d.error,
      })),
      out({
        type: "result",
        timestamp: TIMESTAMP,
        sessionId: "fake-session",
        exitCode: d.error === undefined ? 0 : 1,
        usage: { premiumRequests: 0 },
      }),
    ),
  padding: (bytes) => pad('{"type":"session.info","data":{"infoType":"pad","message":"', bytes, '"}}'),
};

const clineAgent = (event: Record<string, unknown>) => ({ ts: TIMESTAMP, type: "agent_event", event });

// cline retries silently; its run_result carries the run's usage.
const cline: DialectWriter = {
  init: (d) => out({ ts: TIMESTAMP, type: "hook_event", hookEventName: "agent_start", taskId: session(d) }),
  text: (text) => out(clineAgent({ type: "content_end", contentType: "text", text })),
  tool: (toolName, input, n) =>
    out(
      clineAgent({ type: "content_start", contentType: "tool", toolCallId: `call_${n}`, toolName, input }),
      clineAgent({ type: "content_end", contentType: "tool", toolCallId: `call_${n}`, toolName, output: "" }),
    ),
  retry: () => ({ stdout: [], stderr: [] }),
  result: (d) =>
    out({
      ts: TIMESTAMP,
      type: "run_result",
      finishReason: d.error === undefined ? "completed" : "error",
      iterations: 1,
      usage: {
        inputTokens: d.in,
        outputTokens: d.out,
        cacheReadTokens: d.cache,
        cacheWriteTokens: 0,
        totalCost: 0,
      },
      text: d.error ?? "OK",
    }),
  padding: (bytes) => pad('{"type":"agent_event","event":{"type":"notice","pad":"', bytes, '"}}'),
};

const droidLine = (line: Record<string, unknown>) => ({ ...line, session_id: "fake-session" });

const droid: DialectWriter = {
  init: (d) =>
    out({
      type: "system",
      subtype: "init",
      cwd: Deno.cwd(),
      session_id: session(d),
      tools: [],
      model: model(d),
    }),
  text: (text, n) => out(droidLine({ type: "message", role: "assistant", id: `msg_${n}`, text })),
  tool: (toolName, parameters, n) =>
    out(
      droidLine({ type: "tool_call", id: `call_${n}`, toolId: toolName, toolName, parameters }),
      droidLine({ type: "tool_result", id: `call_${n}`, toolId: toolName, isError: false, value: "" }),
    ),
  // droid retries silently: nothing on stdout or stderr.
  retry: () => ({ stdout: [], stderr: [] }),
  result: (d) =>
    d.error === undefined
      ? out(droidLine({
        type: "completion",
        finalText: "OK",
        numTurns: 1,
        usage: { input_tokens: d.in, output_tokens: d.out, cache_read_input_tokens: d.cache },
      }))
      : out(droidLine({ type: "error", source: "cli", message: d.error })),
  padding: (bytes) => pad('{"type":"message","role":"user","text":"', bytes, '"}'),
  // droid's blocking JSON is a claude-shaped result object.
  blockingDocument: (held) => {
    const last = JSON.parse(held.at(-1) ?? "{}") as Record<string, unknown>;
    const failed = last.type === "error";
    return JSON.stringify({
      type: "result",
      subtype: failed ? "failure" : "success",
      is_error: failed,
      result: failed ? last.message : last.finalText,
      usage: last.usage ?? {},
    });
  },
};

// Continue's `cn -p` prints only the final reply, as plain text, and a failure as one JSON line on stderr.
const continueWriter: DialectWriter = {
  plainText: true,
  init: () => ({ stdout: [], stderr: [] }),
  text: (text) => ({ stdout: [text], stderr: [] }),
  tool: () => ({ stdout: [], stderr: [] }),
  retry: () => ({ stdout: [], stderr: [] }),
  result: (d) =>
    d.error === undefined
      ? { stdout: [], stderr: [] }
      : err(JSON.stringify({ status: "error", message: d.error })),
  // A blank line: the normaliser skips it.
  padding: (bytes) => " ".repeat(bytes),
  blockingDocument: (held) =>
    JSON.stringify({ response: held.join("\n"), status: "success", note: "Response was not valid JSON" }),
};

// grok -p prints the conversation as OpenAI messages (the prompt echoed first); a thrown error is one last
// assistant line "Error: …" (the exit code is the script's).
const grokWriter: DialectWriter = {
  init: () => out({ role: "user", content: "fake prompt" }),
  text: (content) => out({ role: "assistant", content }),
  tool: (name, input, n) =>
    out(
      {
        role: "assistant",
        content: "Using tools to help you...",
        tool_calls: [{
          id: `call_${n}`,
          type: "function",
          function: { name, arguments: JSON.stringify(input) },
        }],
      },
      { role: "tool", tool_call_id: `call_${n}`, content: "Success" },
    ),
  retry: () => ({ stdout: [], stderr: [] }),
  result: (d) =>
    d.error === undefined
      ? { stdout: [], stderr: [] }
      : out({ role: "assistant", content: `Error: ${d.error}` }),
  padding: (bytes) => pad('{"role":"user","content":"', bytes, '"}'),
};

/**
 * The writer of every dialect the fake host speaks: one per dialect of the normalisers (src/normalize/mod.ts,
 * generated into fake_host/dialect_names.ts); this file does not type-check while one of them has no writer.
 */
export const DIALECT_WRITERS: Readonly<Record<FakeDialect, DialectWriter>> = {
  claude,
  codex,
  gemini,
  opencode,
  pi,
  kimi,
  qwen,
  copilot,
  cline,
  droid,
  continue: continueWriter,
  grok: grokWriter,
};

/** The `turn_completed` directive's line: the codex-style usage terminal, the same in every dialect. */
export function turnCompletedLine(directive: Of<"turn_completed">): string {
  return JSON.stringify({
    type: "turn.completed",
    usage: {
      input_tokens: directive.in,
      output_tokens: directive.out,
      cached_input_tokens: directive.cached,
    },
  });
}
