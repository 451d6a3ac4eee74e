/**
 * Edge cases of the per-host dialects that the recorded fixtures do not reach: tool calls, lookahead
 * terminals, EOF terminals, error objects, unknown kinds and non-JSON lines.
 */
import assert from "node:assert/strict";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const run = (dialect: string, lines: unknown[], options: Parameters<typeof parseStream>[2] = {}) =>
  parseStream(
    { name: dialect, dialect },
    lines.map((line) => typeof line === "string" ? line : JSON.stringify(line)).join("\n") + "\n",
    options,
  );
const kinds = (events: NormalizedEvent[]) => events.map((event) => event.kind);
const terminal = (events: NormalizedEvent[]) => events.find((e): e is TerminalEvent => e.kind === "terminal");

Deno.test("codex: synthetic init with the argv model, tool items, turn.failed, unknown kinds", () => {
  const events = run("codex", [
    { type: "thread.started", thread_id: "t1" },
    { type: "turn.started" },
    {
      type: "item.started",
      item: { id: "i1", type: "command_execution", command: "ls", status: "in_progress" },
    },
    {
      type: "item.completed",
      item: { id: "i1", type: "command_execution", aggregated_output: "x", exit_code: 0 },
    },
    {
      type: "item.completed",
      item: { id: "i2", type: "mcp_tool_call", server: "s", tool: "t", status: "failed" },
    },
    { type: "item.completed", item: { id: "i3", type: "reasoning", text: "hm" } },
    { type: "error", message: "Reconnecting... 2/5 (timeout)" },
    { type: "something.new" },
    { type: "turn.failed", error: { message: "boom" } },
  ], { argv: ["exec", "--json", "-m", "gpt-x", "P"] });
  assert.deepEqual(kinds(events), [
    "init",
    "tool_call",
    "tool_result",
    "tool_call",
    "tool_result",
    "retry",
    "unparsed",
    "terminal",
  ]);
  assert.equal(events[0]?.kind === "init" && events[0].model, "gpt-x");
  assert.equal(events[0]?.synthetic, true);
  assert.equal(events[3]?.synthetic, true, "a tool seen only completed gets a synthetic call");
  assert.equal(events[4]?.kind === "tool_result" && events[4].isError, true);
  assert.equal(events[5]?.kind === "retry" && events[5].attempt, 2);
  assert.equal(terminal(events)?.status, "error");
  assert.equal(terminal(events)?.reason, "boom");
});

Deno.test("gemini: deltas, tool use and result, error events, error result", () => {
  const events = run("gemini", [
    { type: "init", session_id: "s", model: "auto" },
    { type: "message", role: "user", content: "hi" },
    { type: "message", role: "assistant", content: "O", delta: true },
    { type: "tool_use", tool_name: "read_file", tool_id: "t", parameters: { p: 1 } },
    { type: "tool_result", tool_id: "t", status: "error", error: { type: "x", message: "nope" } },
    { type: "error", severity: "warning", message: "careful" },
    { type: "result", status: "error", error: { type: "Api", message: "quota" }, stats: { input_tokens: 3 } },
  ]);
  assert.deepEqual(kinds(events), ["init", "text", "tool_call", "tool_result", "error", "usage", "terminal"]);
  assert.equal(events[1]?.kind === "text" && events[1].delta, true);
  assert.equal(events[3]?.kind === "tool_result" && events[3].isError, true);
  assert.equal(terminal(events)?.reason, "quota");
});

Deno.test("opencode: EOF terminal follows the exit code and error lines; done is translated", () => {
  const ok = run("opencode", [{ type: "step_start", sessionID: "s" }, {
    type: "text",
    part: { text: "OK" },
  }]);
  assert.deepEqual(kinds(ok), ["init", "text", "terminal"]);
  assert.equal(terminal(ok)?.status, "success");
  assert.equal(terminal(ok)?.synthetic, true);

  const failed = run("opencode", [{ type: "step_start", sessionID: "s" }], {
    exitCode: 1,
    stderr: "x\nboom",
  });
  assert.equal(terminal(failed)?.status, "error");
  assert.match(terminal(failed)?.reason ?? "", /exit 1: boom/);

  const errored = run("opencode", [{
    type: "error",
    error: { name: "APIError", data: { message: "bad key" } },
  }]);
  assert.deepEqual(kinds(errored), ["init", "error", "terminal"]);
  assert.equal(terminal(errored)?.reason, "bad key");

  const tool = run("opencode", [
    {
      type: "tool_use",
      sessionID: "s",
      part: { tool: "bash", callID: "c", state: { status: "completed", input: {} } },
    },
    { type: "done", reason: "idle" },
  ]);
  assert.deepEqual(kinds(tool), ["init", "tool_call", "tool_result", "terminal"]);
  assert.equal(terminal(tool)?.synthetic, false, "a done event is translated, not invented");
});

Deno.test("pi: agent_end is a candidate until EOF; a retry drops it; auto_retry_end failure ends the run", () => {
  const assistant = (stopReason: string, text = "") => ({
    type: "message_end",
    message: {
      role: "assistant",
      content: text ? [{ type: "text", text }] : [],
      stopReason,
      usage: { input: 1 },
    },
  });
  const retried = run("pi", [
    { type: "session", id: "s", version: 3 },
    assistant("error"),
    { type: "agent_end" },
    { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "Connection error." },
    assistant("stop", "OK"),
    { type: "agent_end" },
  ]);
  assert.deepEqual(kinds(retried), ["init", "error", "usage", "retry", "text", "usage", "terminal"]);
  assert.equal(terminal(retried)?.status, "success");
  assert.equal(terminal(retried)?.result, "OK");

  const exhausted = run("pi", [
    { type: "session", id: "s", version: 3 },
    assistant("error"),
    { type: "agent_end" },
    { type: "auto_retry_end", success: false, finalError: "gave up" },
  ]);
  assert.equal(terminal(exhausted)?.status, "error");
  assert.equal(terminal(exhausted)?.reason, "gave up");
  assert.equal(exhausted.at(-1)?.kind, "terminal");

  const aborted = run("pi", [{ type: "session", id: "s" }, assistant("aborted"), { type: "agent_end" }]);
  assert.equal(terminal(aborted)?.status, "cancelled");

  const noEnd = run("pi", [{ type: "session", id: "s" }, assistant("aborted")]);
  assert.equal(terminal(noEnd), undefined, "no agent_end, no terminal: a finding, not papered over");

  const tools = run("pi", [
    { type: "tool_execution_start", toolCallId: "c", toolName: "bash", args: { cmd: "ls" } },
    { type: "tool_execution_end", toolCallId: "c", toolName: "bash", result: "x", isError: true },
  ]);
  assert.deepEqual(kinds(tools), ["tool_call", "tool_result"]);
});

Deno.test("kimi: tool calls with JSON-string arguments, retries, EOF without resume hint is an error", () => {
  const events = run("kimi", [
    { role: "meta", type: "system.version", version: "2.1.0" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c", function: { name: "Shell", arguments: '{"a":1}' } }],
    },
    { role: "tool", tool_call_id: "c", content: "out" },
    { role: "meta", type: "turn.step.retrying", attempt: 2 },
    { role: "meta", type: "brand.new" },
  ], { exitCode: 1, stderr: "error: failed to run prompt: nope" });
  assert.deepEqual(kinds(events), ["init", "tool_call", "tool_result", "retry", "unparsed", "terminal"]);
  assert.deepEqual(events[1]?.kind === "tool_call" && events[1].input, { a: 1 });
  assert.equal(terminal(events)?.synthetic, true);
  assert.match(terminal(events)?.reason ?? "", /failed to run prompt: nope \(exit 1\)/);
});

Deno.test("qwen: error result carries its message, not a stringified object; ignored kinds stay silent", () => {
  const events = run("qwen", [
    { type: "stream_event", event: { type: "goal_state" } },
    { type: "control_request", request: {} },
    {
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      error: { message: "No auth type is selected." },
    },
  ]);
  assert.deepEqual(kinds(events), ["terminal"]);
  assert.equal(terminal(events)?.reason, "No auth type is selected.");

  const ok = run("qwen", [
    { type: "system", subtype: "init", session_id: "s", model: "m", qwen_code_version: "0.24.4" },
    { type: "assistant", message: { content: [{ type: "text", text: "OK" }] } },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "OK",
      structured_result: { k: 1 },
      usage: {},
    },
  ]);
  assert.deepEqual(kinds(ok), ["init", "text", "usage", "terminal"]);
  assert.deepEqual(terminal(ok)?.structured, { k: 1 });
});

Deno.test("every dialect reports a non-JSON line as unparsed not_json", () => {
  for (const dialect of ["claude", "codex", "gemini", "opencode", "pi", "kimi", "qwen"]) {
    const events = run(dialect, ["this is not json"]);
    const unparsed = events.find((event) => event.kind === "unparsed");
    assert.ok(unparsed && unparsed.kind === "unparsed", dialect);
    assert.equal(unparsed.why, "not_json", dialect);
    assert.equal(unparsed.raw, "this is not json", dialect);
  }
});
