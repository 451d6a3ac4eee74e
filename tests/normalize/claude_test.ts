import assert from "node:assert/strict";
import { claudeNormalizer } from "../../src/normalize/claude.ts";
import type { DraftEvent } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

function normalize(...lines: unknown[]): DraftEvent[] {
  const normalizer = claudeNormalizer({ argv: [] });
  return [
    ...lines.flatMap((line) => normalizer.line(typeof line === "string" ? line : JSON.stringify(line))),
    ...normalizer.end({ exitCode: 0, signal: null, stderrTail: "" }),
  ];
}

Deno.test("init, text, tool_use, tool_result, retry and result map to the shared event set", () => {
  const events = normalize(
    {
      type: "system",
      subtype: "init",
      session_id: "s1",
      model: "claude-x",
      cwd: "/w",
      claude_code_version: "2.1.332",
    },
    {
      type: "system",
      subtype: "api_retry",
      attempt: 2,
      max_retries: 10,
      retry_delay_ms: 550,
      error: "overloaded",
    },
    {
      type: "assistant",
      message: {
        content: [{ type: "thinking", thinking: "hm" }, { type: "text", text: "OK" }, {
          type: "tool_use",
          id: "t1",
          name: "Bash",
          input: { command: "ls" },
        }],
      },
    },
    {
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "a.txt", is_error: false }] },
    },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "OK",
      total_cost_usd: 0.01,
      usage: {
        input_tokens: 5,
        output_tokens: 2,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 1,
      },
    },
  );
  assert.deepEqual(events.map((event) => event.kind), [
    "init",
    "retry",
    "text",
    "tool_call",
    "tool_result",
    "usage",
    "terminal",
  ]);
  const [init, retry, text, call, result, usage, terminal] = events;
  assert.deepEqual(
    { ...init, raw: undefined },
    {
      kind: "init",
      raw: undefined,
      synthetic: false,
      sessionId: "s1",
      model: "claude-x",
      cwd: "/w",
      hostVersion: "2.1.332",
    },
  );
  assert.deepEqual([retry?.kind === "retry" && retry.attempt, retry?.kind === "retry" && retry.delayMs], [
    2,
    550,
  ]);
  assert.equal(text?.kind === "text" && text.text, "OK");
  assert.deepEqual(call?.kind === "tool_call" && [call.id, call.name, call.input], ["t1", "Bash", {
    command: "ls",
  }]);
  assert.deepEqual(result?.kind === "tool_result" && [result.id, result.output, result.isError], [
    "t1",
    "a.txt",
    false,
  ]);
  assert.deepEqual(
    usage?.kind === "usage" &&
      [usage.input, usage.output, usage.cacheRead, usage.cacheWrite, usage.costUsd, usage.scope],
    [5, 2, 7, 1, 0.01, "run"],
  );
  assert.deepEqual(terminal?.kind === "terminal" && [terminal.status, terminal.result], ["success", "OK"]);
  assert.ok(events.every((event) => event.raw !== null && !event.synthetic));
});

Deno.test("is_error decides the status, not subtype; max turns and error subtypes map too", () => {
  const status = (result: Record<string, unknown>) => {
    const terminal = normalize({ type: "result", ...result }).find((event) => event.kind === "terminal");
    return terminal?.kind === "terminal" ? [terminal.status, terminal.reason ?? null] : null;
  };
  assert.deepEqual(
    status({ subtype: "success", is_error: true, terminal_reason: "api_error", result: "Not logged in" }),
    [
      "error",
      "api_error",
    ],
  );
  assert.deepEqual(status({ subtype: "error_max_turns", is_error: true }), ["max_turns", "error_max_turns"]);
  assert.deepEqual(status({ subtype: "error_during_execution", is_error: false }), [
    "error",
    "error_during_execution",
  ]);
  assert.deepEqual(status({ subtype: "success", is_error: false }), ["success", null]);
});

Deno.test("an assistant line with a top-level error is a non-terminal error event", () => {
  const [event] = normalize({
    type: "assistant",
    error: "authentication_failed",
    message: { model: "<synthetic>", content: [{ type: "text", text: "Not logged in · Please run /login" }] },
  });
  assert.deepEqual(event?.kind === "error" && [event.message, event.code], [
    "Not logged in · Please run /login",
    "authentication_failed",
  ]);
});

Deno.test("ignored kinds vanish; unknown kinds and non-JSON lines are unparsed with their raw line", () => {
  const events = normalize(
    { type: "system", subtype: "status" },
    { type: "stream_event", event: {} },
    { type: "prompt_suggestion" },
    { type: "turn.completed" },
    { type: "system", subtype: "brand_new" },
    "not json",
    "[1,2]",
  );
  assert.deepEqual(events.map((event) => event.kind === "unparsed" && [event.why, event.raw]), [
    ["unknown_kind", '{"type":"turn.completed"}'],
    ["unknown_kind", '{"type":"system","subtype":"brand_new"}'],
    ["not_json", "not json"],
    ["unknown_kind", "[1,2]"],
  ]);
});

Deno.test("a stream without result gets no invented terminal at EOF", () => {
  assert.deepEqual(normalize({ type: "system", subtype: "init" }).map((event) => event.kind), ["init"]);
});

Deno.test("the dialect lookup knows claude and names the known dialects for an unknown one", () => {
  assert.equal(normalizerFor("claude"), claudeNormalizer);
  assert.throws(() => normalizerFor("cobol"), /Unknown normaliser dialect "cobol": use one of .*claude/);
});
