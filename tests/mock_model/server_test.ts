/** The mock model over real loopback HTTP: every provider surface answers `OK`, and each fault does its harm. */
import assert from "node:assert/strict";
import { MOCK_FAULTS, startMockModel } from "../../src/mock_model/server.ts";

const chat = (url: string, stream = false) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "m",
      stream,
      messages: [{ role: "user", content: "Reply with exactly: OK" }],
    }),
  });

Deno.test("the mock model binds 127.0.0.1 and answers OK on the Anthropic, OpenAI and Gemini surfaces", async () => {
  await using model = await startMockModel();
  assert.match(model.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(model.fault, null);

  const openai = await (await chat(model.url)).json();
  assert.equal(openai.choices[0].message.content, "OK");

  const anthropic = await (await fetch(`${model.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }),
  })).json();
  assert.equal(anthropic.content[0].text, "OK");

  const gemini = await (await fetch(`${model.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
  })).json();
  assert.equal(gemini.candidates[0].content.parts[0].text, "OK");

  const requests = model.requests();
  assert.equal(requests.length, 3);
  assert.deepEqual(requests.map((request) => request.status), [200, 200, 200]);
  assert.equal(requests[0]?.model, "m");
});

Deno.test("a custom reply is served verbatim", async () => {
  await using model = await startMockModel({ reply: "custom words" });
  const body = await (await chat(model.url)).json();
  assert.equal(body.choices[0].message.content, "custom words");
});

Deno.test("fault http-500: every request answers 500 with a JSON error", async () => {
  await using model = await startMockModel({ fault: "http-500" });
  for (let i = 0; i < 2; i++) {
    const response = await chat(model.url);
    assert.equal(response.status, 500);
    const body = await response.json();
    assert.match(JSON.stringify(body), /injected internal server error/);
  }
  assert.deepEqual(model.requests().map((request) => request.status), [500, 500]);
});

Deno.test("fault malformed: a 200 whose body is not JSON", async () => {
  await using model = await startMockModel({ fault: "malformed" });
  const response = await chat(model.url);
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.throws(() => JSON.parse(text));
});

Deno.test("fault disconnect: the stream starts, then the connection is cut before it completes", async () => {
  await using model = await startMockModel({ fault: "disconnect" });
  const response = await chat(model.url, true);
  assert.equal(response.status, 200);
  let received = "";
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  await assert.rejects(async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    // A clean end would mean no disconnect: make that a failure too.
    if (!received.includes("[DONE]")) throw new Error("stream ended without [DONE]");
  });
  assert.ok(!received.includes("[DONE]"), "the stream must not complete");
});

Deno.test("stop closes the port and is idempotent", async () => {
  const model = await startMockModel();
  await model.stop();
  await model.stop();
  await assert.rejects(() => chat(model.url));
  assert.deepEqual([...MOCK_FAULTS], ["http-500", "malformed", "disconnect"]);
});

Deno.test("stop does not wait for a client that holds a connection open (a host's escaped child, a cut body)", async () => {
  const model = await startMockModel();
  const client = await Deno.connect({ hostname: "127.0.0.1", port: model.port });
  try {
    // A request whose body never arrives: the server keeps the connection open, waiting for it.
    await client.write(new TextEncoder().encode(
      "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Content-Length: 1000\r\n\r\n{",
    ));
    await new Promise((resolve) => setTimeout(resolve, 200));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = await Promise.race([
      model.stop().then(() => true),
      new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), 2_000)),
    ]);
    clearTimeout(timer);
    assert.equal(stopped, true, "stop() still waits for the open connection after 2 s");
    await assert.rejects(() => chat(model.url));
  } finally {
    client.close();
  }
});
