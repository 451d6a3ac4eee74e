import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startConformanceServer } from "../../src/server/server.ts";
import { parseListen, serve, startServing } from "../../src/server/serve.ts";
import { LAUNCH_RESULT_META, RESOURCE_URIS, type ServerLog } from "../../src/fixtures.ts";

const CONTROLS = { declared: "http://127.0.0.1:9", undeclared: "http://127.0.0.1:10" };
const UI_EXTENSION = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };

async function connect(url: URL): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: "server-test", version: "1.0.0" }, {
    capabilities: { extensions: UI_EXTENSION },
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

Deno.test("a real MCP client lists the fixtures and reads the app resource", async () => {
  await using server = await startConformanceServer({
    appHtml: "<!doctype html><p>suite</p>",
    controls: CONTROLS,
  });
  assert.equal(server.url.hostname, "127.0.0.1");
  await using client = await connect(server.url);
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name).sort();
  for (const name of ["conformance_probe", "conformance_server_log", "model_only_probe", "run_conformance"]) {
    assert.ok(names.includes(name), `tool ${name} missing from ${names.join(", ")}`);
  }
  const probe = tools.find((tool) => tool.name === "conformance_probe");
  assert.deepEqual((probe?._meta?.ui as { visibility?: string[] }).visibility, ["app"]);
  const read = await client.readResource({ uri: RESOURCE_URIS.run_conformance });
  const content = read.contents[0] as {
    text?: string;
    mimeType?: string;
    _meta?: { ui?: { csp?: unknown } };
  };
  assert.equal(content.text, "<!doctype html><p>suite</p>");
  assert.equal(content.mimeType, "text/html;profile=mcp-app");
  assert.deepEqual(
    (content._meta?.ui?.csp as { connectDomains: string[] }).connectDomains,
    [CONTROLS.declared],
  );
  const echo = await client.callTool({ name: "conformance_probe", arguments: { payload: "ping-42" } });
  assert.deepEqual(echo.structuredContent, { payload: "ping-42" });
  const launched = await client.callTool({ name: "run_conformance", arguments: { marker: "m-1" } });
  assert.deepEqual(launched.structuredContent, {
    launcher: "run_conformance",
    marker: "m-1",
    controls: CONTROLS,
  });
  assert.deepEqual(launched._meta, LAUNCH_RESULT_META);
});

Deno.test("the server log records initialize capabilities, reads and tool calls", async () => {
  await using server = await startConformanceServer({ appHtml: "x", controls: CONTROLS });
  await using client = await connect(server.url);
  await client.readResource({ uri: RESOURCE_URIS.run_conformance_nocsp });
  await client.callTool({ name: "conformance_server_log", arguments: { marker: "teardown-receipt" } });
  const log = server.log.snapshot();
  assert.deepEqual(log.clientCapabilities[0]?.extensions, UI_EXTENSION);
  assert.deepEqual(log.resourcesRead.map((read) => read.uri), [RESOURCE_URIS.run_conformance_nocsp]);
  assert.deepEqual(log.toolCalls.map((call) => call.name), ["conformance_server_log"]);
  assert.deepEqual(log.markers.map((entry) => entry.marker), ["teardown-receipt"]);
});

Deno.test("the log tool tells whether a client initialised and listed the second server, and what it called there", async () => {
  const logOf = async (client: Client) =>
    (await client.callTool({ name: "conformance_server_log", arguments: {} })).structuredContent as ServerLog;
  await using serving = await startServing({ appHtml: () => "x", second: "127.0.0.1:0" });
  await using main = await connect(serving.server.url);
  assert.deepEqual((await logOf(main)).secondServer, {
    initialized: false,
    toolsListed: false,
    toolCalls: [],
  });
  await using second = await connect(serving.secondServer!.url);
  assert.deepEqual((await logOf(main)).secondServer, {
    initialized: true,
    toolsListed: false,
    toolCalls: [],
  });
  await second.listTools();
  await second.callTool({ name: "second_server_probe", arguments: { payload: "cross-1" } });
  const seen = (await logOf(main)).secondServer;
  assert.equal(seen?.initialized, true);
  assert.equal(seen?.toolsListed, true);
  assert.deepEqual(seen?.toolCalls.map(({ name, arguments: args }) => ({ name, args })), [
    { name: "second_server_probe", args: { payload: "cross-1" } },
  ]);
  // A server with no second server beside it says so, rather than "not connected".
  await using alone = await startConformanceServer({ appHtml: "x", controls: CONTROLS });
  await using client = await connect(alone.url);
  assert.equal((await logOf(client)).secondServer, null);
});

Deno.test("malformed JSON-RPC is answered with an error and the server keeps serving", async () => {
  await using server = await startConformanceServer({ appHtml: "x", controls: CONTROLS });
  const post = (body: string) =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
  for (const [body, code] of [["{not json", -32700], ['{"hello":1}', -32600], ["[]", -32600]] as const) {
    const response = await post(body);
    assert.equal(response.status, 400);
    const answer = await response.json();
    assert.equal(answer.error.code, code, `body ${body}`);
  }
  await using client = await connect(server.url);
  assert.ok((await client.listTools()).tools.length > 0);
});

Deno.test("requests with a foreign Host or Origin are refused (DNS rebinding)", async () => {
  await using server = await startConformanceServer({
    appHtml: "x",
    controls: CONTROLS,
    allowedOrigins: ["https://claude.ai"],
  });
  const init = (headers: Record<string, string>) =>
    fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
  // fetch() may not set Host, so the rebinding request goes over a raw socket.
  const rebound = await rawPost(server.url, `evil.test:${server.url.port}`);
  assert.match(rebound, /^HTTP\/1\.1 403/);
  assert.match(rebound, /Host "evil\.test:\d+" is not allowed/);
  const foreign = await init({ origin: "http://evil.test" });
  assert.equal(foreign.status, 403);
  assert.match(await foreign.text(), /Origin "http:\/\/evil\.test" is not allowed/);
  const listed = await init({ origin: "https://claude.ai" });
  assert.notEqual(listed.status, 403);
  await listed.body?.cancel();
  const loopbackPage = await init({ origin: "http://localhost:5173" });
  assert.notEqual(loopbackPage.status, 403);
  assert.equal(loopbackPage.headers.get("access-control-allow-origin"), "http://localhost:5173");
  await loopbackPage.body?.cancel();
});

async function rawPost(url: URL, host: string): Promise<string> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    await conn.write(new TextEncoder().encode(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ));
    return await new Response(conn.readable).text();
  } catch (error) {
    conn.close();
    throw error;
  }
}

Deno.test("serve() answers a real MCP client until its signal aborts", async () => {
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<URL>();
  const running = serve({ appHtml: () => "<p>suite</p>", signal: abort.signal, onListening: resolve });
  const url = await listening;
  try {
    await using client = await connect(url);
    const read = await client.readResource({ uri: RESOURCE_URIS.run_conformance });
    assert.equal((read.contents[0] as { text: string }).text, "<p>suite</p>");
  } finally {
    abort.abort();
    await running;
  }
  await assert.rejects(fetch(url, { method: "POST", body: "{}" }));
});

Deno.test("parseListen accepts HOST:PORT forms and names a bad value", () => {
  assert.deepEqual(parseListen("127.0.0.1:8765"), { hostname: "127.0.0.1", port: 8765 });
  assert.deepEqual(parseListen("8765"), { hostname: "127.0.0.1", port: 8765 });
  assert.deepEqual(parseListen("[::1]:80"), { hostname: "::1", port: 80 });
  assert.throws(() => parseListen("localhost:99999"), /Invalid --listen "localhost:99999"/);
});
