/**
 * The conformance MCP server as shipped (`conformance serve`, no flags): it binds loopback only, refuses a
 * foreign `Host` or `Origin`, and answers a battery of malformed HTTP and JSON-RPC requests with an error, never
 * a 5xx, without dying; afterwards a real `initialize` still succeeds, and Ctrl-C stops it leaving nothing.
 */
import assert from "node:assert/strict";
import { describeSurvivors, processesTagged, spawnHarness } from "./_harness.ts";

const JSON_HEADERS = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
const encoder = new TextEncoder();
const TRUNCATED = "a body shorter than its Content-Length";

/** One raw HTTP exchange: the status line's code (0 when the server closed without answering) and body. */
async function exchange(
  url: URL,
  request: Uint8Array,
  name: string,
): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (let written = 0; written < request.length;) written += await conn.write(request.subarray(written));
    // A body shorter than announced must end somewhere: the client half-closes, so the server meets EOF.
    if (name === TRUNCATED) await conn.closeWrite();
    const text = await Promise.race([
      new Response(conn.readable).text(),
      new Promise<string>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name}: no answer within 15 s`)), 15_000);
      }),
    ]);
    return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text };
  } catch (error) {
    try {
      conn.close();
    } catch { /* already closed by the reader */ }
    if (error instanceof Deno.errors.ConnectionReset || error instanceof Deno.errors.BrokenPipe) {
      return { status: 0, text: "" };
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function post(url: URL, body: string | Uint8Array, headers = JSON_HEADERS, host = url.host): Uint8Array {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const head = encoder.encode(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${host}\r\n${headers}Content-Length: ${bytes.length}\r\n` +
      "Connection: close\r\n\r\n",
  );
  const all = new Uint8Array(head.length + bytes.length);
  all.set(head);
  all.set(bytes, head.length);
  return all;
}

function raw(text: string): Uint8Array {
  return encoder.encode(text);
}

const rpc = (value: unknown) => JSON.stringify(value);

/** Name, request, and whether the server may instead close the connection without an answer. */
function battery(url: URL): [string, Uint8Array][] {
  const path = url.pathname;
  return [
    ["invalid JSON", post(url, "{not json")],
    ["an object that is not JSON-RPC", post(url, '{"hello":1}')],
    ["an empty batch", post(url, "[]")],
    ["a batch of numbers", post(url, "[1,2,3]")],
    ["JSON-RPC 1.0", post(url, rpc({ jsonrpc: "1.0", id: 1, method: "ping" }))],
    ["an object id", post(url, rpc({ jsonrpc: "2.0", id: {}, method: "ping" }))],
    ["a numeric method", post(url, rpc({ jsonrpc: "2.0", id: 1, method: 123 }))],
    [
      "tools/call before initialize",
      post(url, rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: "x" })),
    ],
    ["an unknown method", post(url, rpc({ jsonrpc: "2.0", id: 1, method: "no/such/method" }))],
    [
      "initialize with garbage params",
      post(url, rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: [] })),
    ],
    [
      "a notification without a session",
      post(url, rpc({ jsonrpc: "2.0", method: "notifications/initialized" })),
    ],
    ["a string body", post(url, '"just a string"')],
    ["null", post(url, "null")],
    ["deep nesting", post(url, "[".repeat(200_000) + "]".repeat(200_000))],
    ["invalid UTF-8", post(url, Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]))],
    ["NUL bytes", post(url, "{\u0000\u0000}")],
    ["text/plain", post(url, rpc({ jsonrpc: "2.0", id: 1, method: "ping" }), "Content-Type: text/plain\r\n")],
    [
      "no Accept header",
      post(url, rpc({ jsonrpc: "2.0", id: 1, method: "ping" }), "Content-Type: application/json\r\n"),
    ],
    [
      "an unknown session id",
      post(url, rpc({ jsonrpc: "2.0", id: 1, method: "ping" }), `${JSON_HEADERS}Mcp-Session-Id: nope\r\n`),
    ],
    [
      "GET without a session",
      raw(
        `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`,
      ),
    ],
    [
      "DELETE without a session",
      raw(`DELETE ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
    ],
    [
      "PUT",
      raw(`PUT ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
    ],
    ["an unknown path", raw(`GET /nope HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`)],
    [
      TRUNCATED,
      raw(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${JSON_HEADERS}Content-Length: 100\r\nConnection: close\r\n\r\n{"a"`,
      ),
    ],
    ["a garbage request line", raw("GARBAGE\r\n\r\n")],
    [
      "a 64 KiB header",
      raw(
        `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nX-Big: ${
          "a".repeat(65_536)
        }\r\nConnection: close\r\n\r\n`,
      ),
    ],
    [
      "a 4 MiB body",
      post(url, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(4 << 20)}"}}`),
    ],
  ];
}

Deno.test("conformance serve: loopback only, foreign Host/Origin refused, a battery of bad requests survived", async () => {
  await using server = spawnHarness(["serve"]);
  const deadline = Date.now() + 60_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /listening on (http:\/\/\S+)/.exec(server.stdoutSoFar())) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(match, `conformance serve printed no URL: ${server.stdoutSoFar()}`);
  const url = new URL(match[1]!);
  assert.equal(url.hostname, "127.0.0.1", "the default bind must be loopback");

  // Not reachable through any other interface of this machine.
  const outside = Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."));
  if (outside) {
    const reached = await Deno.connect({ hostname: outside.address, port: Number(url.port) })
      .then((conn) => (conn.close(), true), () => false);
    assert.equal(reached, false, `the server answered on ${outside.address}:${url.port}`);
  } else {
    console.log("no non-loopback IPv4 interface here: the outside-reachability probe is skipped");
  }

  const ping = rpc({ jsonrpc: "2.0", id: 1, method: "ping" });
  const rebound = await exchange(url, post(url, ping, JSON_HEADERS, `evil.test:${url.port}`), "foreign Host");
  assert.equal(rebound.status, 403, `foreign Host: ${rebound.text.slice(0, 300)}`);
  const foreign = await exchange(
    url,
    post(url, ping, `${JSON_HEADERS}Origin: http://evil.test\r\n`),
    "foreign Origin",
  );
  assert.equal(foreign.status, 403, `foreign Origin: ${foreign.text.slice(0, 300)}`);

  for (const [name, request] of battery(url)) {
    const answer = await exchange(url, request, name);
    // A body cut short by the client reaches the SDK as an unreadable stream, which it reports as a JSON-RPC
    // internal error (500, -32603): still an error answer, and the server lives on. Anything else must be < 500.
    const truncated = name === TRUNCATED && answer.status === 500 && /"code":-32603/.test(answer.text);
    assert.ok(
      answer.status < 500 || truncated,
      `${name}: answered ${answer.status}: ${answer.text.slice(0, 300)}`,
    );
    if (answer.status === 0) continue; // the HTTP layer dropped a request it could not parse
    const body = answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4);
    if (/content-type: application\/json/i.test(answer.text) && answer.status >= 400) {
      const parsed = JSON.parse(body);
      assert.equal(
        typeof parsed?.error?.code,
        "number",
        `${name}: a JSON answer without an error code: ${body}`,
      );
    }
    assert.ok(server.stdoutSoFar().length > 0);
  }

  const initialize = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "battery", version: "1" },
      },
    }),
  });
  const text = await initialize.text();
  assert.equal(initialize.status, 200, `initialize after the battery: ${text.slice(0, 300)}`);
  assert.match(text, /"serverInfo"/);

  Deno.kill(-server.pid, "SIGINT");
  const exit = await server.done;
  assert.equal(exit.code, 0, `serve stopped with ${exit.code}: ${exit.stderr.slice(0, 1000)}`);
  const survivors = await processesTagged(server.runId);
  assert.deepEqual(survivors, [], describeSurvivors(survivors));
});
