/**
 * The scripted mock model over real loopback HTTP (real aimock): the tool-call turn, then the final answer once
 * the tool's result comes back, on the OpenAI Chat, OpenAI Responses, Anthropic and Gemini surfaces, streaming
 * and not; side calls without tools get `OK`; the journal keeps each request's conversation and the usage
 * reported.
 */
import assert from "node:assert/strict";
import { REASKS, reportedUsage, startScriptedModel } from "../../src/mock_model/script.ts";

const SCRIPT = {
  toolCall: { name: "read", arguments: { path: "/w/notes.txt" }, id: "call_probe_1" },
  finalText: "DONE",
} as const;

const tools = [{ type: "function", function: { name: "read", parameters: { type: "object" } } }];

async function post(url: string, path: string, body: unknown): Promise<Response> {
  return await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

Deno.test("OpenAI chat: a tool call first, the final answer after the tool result, journalled with usage", async () => {
  await using model = await startScriptedModel(SCRIPT);
  assert.match(model.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const user = { role: "user", content: "read notes.txt" };
  const first = await (await post(model.url, "/v1/chat/completions", { model: "m", messages: [user], tools }))
    .json();
  const call = first.choices[0].message.tool_calls[0];
  assert.equal(call.id, "call_probe_1");
  assert.equal(call.function.name, "read");
  assert.deepEqual(JSON.parse(call.function.arguments), { path: "/w/notes.txt" });
  assert.deepEqual(first.usage.prompt_tokens, 101);

  const second = await (await post(model.url, "/v1/chat/completions", {
    model: "m",
    tools,
    messages: [
      user,
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: "the secret is cnf42" },
    ],
  })).json();
  assert.equal(second.choices[0].message.content, "DONE");

  const side = await (await post(model.url, "/v1/chat/completions", { model: "m", messages: [user] })).json();
  assert.equal(side.choices[0].message.content, "OK", "a request without tools is a side call");

  const journal = model.journal();
  assert.deepEqual(journal.map((request) => request.turn), ["tool-call", "final", "side"]);
  assert.deepEqual(journal[0]!.tools, ["read"]);
  const sent = journal[1]!.messages.find((message) => message.role === "tool");
  assert.equal(sent?.content, "the secret is cnf42");
  assert.deepEqual(sent?.toolCallIds, ["call_probe_1"]);
  assert.deepEqual(reportedUsage(journal), { input: 304, output: 18 });
  assert.deepEqual(model.requests().map((request) => request.status), [200, 200, 200]);
});

Deno.test("Anthropic messages, streaming: tool_use, then the text once a tool_result is sent", async () => {
  await using model = await startScriptedModel(SCRIPT);
  const anthropicTools = [{ name: "read", input_schema: { type: "object" } }];
  const user = { role: "user", content: "read notes.txt" };
  const stream = await (await post(model.url, "/v1/messages", {
    model: "claude",
    max_tokens: 64,
    stream: true,
    tools: anthropicTools,
    messages: [user],
  })).text();
  assert.match(stream, /"type":"tool_use"/);
  assert.match(stream, /"name":"read"/);
  assert.match(stream, /call_probe_1/);
  const final = await (await post(model.url, "/v1/messages", {
    model: "claude",
    max_tokens: 64,
    tools: anthropicTools,
    messages: [
      user,
      { role: "assistant", content: [{ type: "tool_use", id: "call_probe_1", name: "read", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_probe_1", content: "cnf42" }] },
    ],
  })).json();
  assert.equal(final.content[0].text, "DONE");
  assert.equal(final.usage.input_tokens, 203);
  const journal = model.journal();
  assert.deepEqual(journal.map((request) => [request.turn, request.stream]), [["tool-call", true], [
    "final",
    false,
  ]]);
  assert.ok(
    journal[1]!.messages.some((message) => message.role === "tool" && message.content.includes("cnf42")),
  );
});

Deno.test("OpenAI responses and Gemini: the scripted tool call on each surface", async () => {
  await using model = await startScriptedModel(SCRIPT);
  const responses = await (await post(model.url, "/v1/responses", {
    model: "gpt",
    input: [{ role: "user", content: "read notes.txt" }],
    tools: [{ type: "function", name: "read", parameters: { type: "object" } }],
  })).json();
  const call = responses.output.find((item: { type: string }) => item.type === "function_call");
  assert.equal(call?.name, "read");
  assert.equal(call?.call_id, "call_probe_1");

  const gemini = await (await post(model.url, "/v1beta/models/gemini-2.5-flash:generateContent", {
    contents: [{ role: "user", parts: [{ text: "read notes.txt" }] }],
    tools: [{ functionDeclarations: [{ name: "read", parameters: { type: "object" } }] }],
  })).json();
  const part = gemini.candidates[0].content.parts[0];
  assert.equal(part.functionCall.name, "read");
  assert.deepEqual(part.functionCall.args, { path: "/w/notes.txt" });
  assert.deepEqual(model.journal().map((request) => request.turn), ["tool-call", "tool-call"]);
});

Deno.test("a script without a tool call answers its final text at once; stop closes the port", async () => {
  const model = await startScriptedModel({ finalText: "HELLO" });
  const answer = await (await post(model.url, "/v1/chat/completions", {
    model: "m",
    tools,
    messages: [{ role: "user", content: "hi" }],
  })).json();
  assert.equal(answer.choices[0].message.content, "HELLO");
  await model.stop();
  await assert.rejects(() => post(model.url, "/v1/chat/completions", {}));
});

Deno.test("a list of tool calls goes one by one, each after the previous result; rescript answers later runs", async () => {
  await using model = await startScriptedModel({
    toolCalls: [
      { name: "read", arguments: { path: "/w/a" } },
      { name: "shell", arguments: { command: "true" } },
    ],
    finalText: "DONE",
  });
  const user = { role: "user", content: "go" };
  const ask = async (messages: unknown[]) =>
    (await (await post(model.url, "/v1/chat/completions", { model: "m", messages, tools })).json()).choices[0]
      .message;
  const first = await ask([user]);
  assert.equal(first.tool_calls[0].function.name, "read");
  assert.equal(first.tool_calls[0].id, "call_conformance_1");
  const afterOne = [user, { role: "assistant", content: null, tool_calls: first.tool_calls }, {
    role: "tool",
    tool_call_id: first.tool_calls[0].id,
    content: "a",
  }];
  const second = await ask(afterOne);
  assert.equal(second.tool_calls[0].function.name, "shell");
  assert.equal(second.tool_calls[0].id, "call_conformance_2");
  const afterTwo = [...afterOne, { role: "assistant", content: null, tool_calls: second.tool_calls }, {
    role: "tool",
    tool_call_id: second.tool_calls[0].id,
    content: "ok",
  }];
  assert.equal((await ask(afterTwo)).content, "DONE");
  // A new user turn over the same history starts the list again: the count is of the current turn only.
  assert.equal(
    (await ask([...afterTwo, { role: "assistant", content: "DONE" }, user])).tool_calls[0].id,
    "call_conformance_1",
  );

  model.rescript({ finalText: "OK" });
  assert.equal((await ask([user])).content, "OK");
  assert.deepEqual(model.journal().map((request) => [request.turn, request.call ?? null]), [
    ["tool-call", 0],
    ["tool-call", 1],
    ["final", null],
    ["tool-call", 0],
    ["final", null],
  ]);
});

Deno.test("a host that never sends the tool result is asked again at most REASKS times more, then answered finally", async () => {
  await using model = await startScriptedModel({
    toolCalls: [{ name: "shell", arguments: { command: "true" } }],
    finalText: "DONE",
  });
  const user = { role: "user", content: "go" };
  const ask = async () =>
    (await (await post(model.url, "/v1/chat/completions", { model: "m", messages: [user], tools })).json())
      .choices[0].message;
  for (let time = 0; time < 1 + REASKS; time++) {
    assert.equal((await ask()).tool_calls[0].id, "call_conformance_1");
  }
  assert.equal((await ask()).content, "DONE");
  // A rescript asks afresh.
  model.rescript({ toolCalls: [{ name: "read", arguments: { path: "/w/a" } }], finalText: "OK" });
  assert.equal((await ask()).tool_calls[0].function.name, "read");
  assert.deepEqual(
    model.journal().map((request) => request.turn),
    [...Array(1 + REASKS).fill("tool-call"), "final", "tool-call"],
  );
});
