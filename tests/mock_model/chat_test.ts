/** The chat model of the `mcp-use-chat` host: it calls the tool the prompt names, then repeats context codes. */
import assert from "node:assert/strict";
import { contextAnswer, requestedTool, startChatModel } from "../../src/mock_model/chat.ts";

const TOOLS = [{ function: { name: "run_conformance" } }, {
  function: { name: "srv_run_conformance_nocsp" },
}];

Deno.test("requestedTool: the declared tool the last user turn names, until its result is back", () => {
  const ask = (text: string) => ({ role: "user", content: text });
  assert.equal(
    requestedTool({ tools: TOOLS, messages: [ask("Call the run_conformance tool now.")] }),
    "run_conformance",
  );
  assert.equal(
    requestedTool({ tools: TOOLS, messages: [ask("Call the run_conformance_nocsp tool now.")] }),
    "srv_run_conformance_nocsp",
    "a prefixed tool counts",
  );
  assert.equal(requestedTool({ tools: TOOLS, messages: [ask("Call the missing tool now.")] }), null);
  assert.equal(
    requestedTool({
      tools: TOOLS,
      messages: [ask("Call the run_conformance tool now."), { role: "assistant" }, {
        role: "tool",
        content: "{}",
      }],
    }),
    null,
    "its result is back",
  );
  assert.equal(requestedTool({ tools: TOOLS, messages: [ask("Conformance message m-1")] }), null);
});

Deno.test("contextAnswer: every context code the request carried, in order, or DONE", () => {
  assert.equal(contextAnswer([{ role: "user", content: "hi" }]), "DONE");
  assert.equal(
    contextAnswer([
      { role: "system", content: "The conformance context code is stale-1." },
      { role: "user", content: [{ type: "text", text: "The conformance context code is fresh-2." }] },
    ]),
    "The context codes I was given: stale-1, fresh-2.",
  );
});

Deno.test("startChatModel: a page may call it (CORS); it calls the named tool and journals the turns", async () => {
  await using model = await startChatModel();
  const preflight = await fetch(`${model.baseUrl}/chat/completions`, {
    method: "OPTIONS",
    headers: { Origin: "http://localhost:1", "Access-Control-Request-Method": "POST" },
  });
  await preflight.body?.cancel();
  assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
  const response = await fetch(`${model.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "m",
      messages: [{ role: "user", content: "Call the run_conformance tool now." }],
      tools: TOOLS.map((tool) => ({ type: "function", ...tool })),
    }),
  });
  const body = await response.json();
  assert.equal(body.choices[0].message.tool_calls[0].function.name, "run_conformance");
  assert.deepEqual(model.journal().map((turn) => turn.kind), ["tool-call"]);
});
