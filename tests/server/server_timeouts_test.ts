/**
 * Slow and idle clients of the conformance server: a connection that sends only part of its request head is
 * answered 408 and closed at the header deadline, however many there are, while a normal request is still
 * answered; a connection on which nothing moves is closed at the idle deadline; a kept-alive connection is
 * closed once its one answer is sent; and behind the front door the guard still sees each client's own
 * address. The real `conformance serve` command is held to its default 10 s header deadline too.
 */
import assert from "node:assert/strict";
import { startConformanceServer } from "../../src/server/server.ts";
import { HEADER_TIMEOUT_MS, openFrontDoor } from "../../src/server/front_door.ts";
import { spawnHarness } from "../robustness/_harness.ts";

const CONTROLS = { declared: "http://127.0.0.1:9", undeclared: "http://127.0.0.1:10" };
const encoder = new TextEncoder();
const SLOW_CLIENTS = 100;

/** When the server closed a connection, and the status line it answered first ("" when none). */
interface Closed {
  readonly ms: number;
  readonly status: string;
}

/** Reads `conn` until the server closes it (or `giveUpMs` passes: then `ms` is Infinity). */
async function closedBy(conn: Deno.Conn, started: number, giveUpMs: number): Promise<Closed> {
  const buffer = new Uint8Array(16 * 1024);
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), giveUpMs));
  try {
    for (;;) {
      const read = await Promise.race([conn.read(buffer).catch(() => null), late]);
      if (read === "late") return { ms: Infinity, status: text.split("\r\n")[0] ?? "" };
      if (read === null) return { ms: performance.now() - started, status: text.split("\r\n")[0] ?? "" };
      text += new TextDecoder().decode(buffer.subarray(0, read));
    }
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // Closed already.
    }
  }
}

async function openSlowClients(url: URL, count: number): Promise<Deno.Conn[]> {
  const partial = encoder.encode(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: appl`);
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < count; i++) {
    const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    // Half of them send part of a head, half send nothing at all.
    if (i % 2 === 0) await conn.write(partial);
    conns.push(conn);
  }
  return conns;
}

async function ping(url: URL): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  await response.body?.cancel();
  return response.status;
}

/** The 100 slow clients are all closed within `boundMs` of opening, and a normal request is answered meanwhile. */
async function assertSlowlorisBounded(url: URL, boundMs: number): Promise<void> {
  const started = performance.now();
  const conns = await openSlowClients(url, SLOW_CLIENTS);
  const closing = conns.map((conn) => closedBy(conn, started, boundMs + 10_000));
  assert.equal(await ping(url), 200, "a normal request is answered while the slow clients wait");
  const closed = await Promise.all(closing);
  const slowest = Math.max(...closed.map((one) => one.ms));
  assert.ok(slowest < boundMs, `the last slow client was closed after ${Math.round(slowest)} ms`);
  assert.ok(
    closed.every((one) => one.status === "HTTP/1.1 408 Request Timeout"),
    closed.map((one) => one.status).join(", "),
  );
}

Deno.test("100 slow clients are closed at the header deadline while a normal request is answered", async () => {
  await using server = await startConformanceServer({
    appHtml: "<p>app</p>",
    controls: CONTROLS,
    headerTimeoutMs: 1_000,
  });
  // Against a hang only: the 408s say the header deadline closed them; without it they would wait for good.
  await assertSlowlorisBounded(server.url, 15_000);
  assert.equal(await ping(server.url), 200, "the server still answers after the slow clients");
});

Deno.test("a connection on which nothing moves is closed at the idle deadline", async () => {
  await using server = await startConformanceServer({
    appHtml: "<p>app</p>",
    controls: CONTROLS,
    idleTimeoutMs: 500,
  });
  // A whole head announcing a body that never comes: past the head, only the idle deadline (not the 30 s
  // body deadline) ends it.
  const conn = await Deno.connect({ hostname: server.url.hostname, port: Number(server.url.port) });
  const started = performance.now();
  await conn.write(encoder.encode(
    `POST /mcp HTTP/1.1\r\nHost: ${server.url.host}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n`,
  ));
  const closed = await closedBy(conn, started, 25_000);
  // Against a hang only: the 30 s body deadline is the other that would end it.
  assert.ok(closed.ms < 15_000, `the idle connection was closed after ${Math.round(closed.ms)} ms`);
});

Deno.test("an event stream quiet past the idle deadline is not cut (server notifications may wait)", async () => {
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const backend = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: abort.signal, onListen: resolve },
    () => {
      // One event now, one after three idle deadlines.
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode("data: first\n\n"));
          await new Promise((done) => setTimeout(done, 900));
          controller.enqueue(encoder.encode("data: late\n\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  );
  const door = openFrontDoor({
    hostname: "127.0.0.1",
    port: 0,
    backendPort: (await listening).port,
    idleTimeoutMs: 300,
  });
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: door.addr.port });
    await conn.write(encoder.encode(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${door.addr.port}\r\n\r\n`));
    const text = await new Response(conn.readable).text();
    assert.match(text, /data: first/);
    assert.match(text, /data: late/, "the stream was cut at the idle deadline");
  } finally {
    await door.close();
    abort.abort();
    await backend.finished;
  }
});

Deno.test("a kept-alive connection is closed once its answer is sent", async () => {
  await using server = await startConformanceServer({ appHtml: "<p>app</p>", controls: CONTROLS });
  const conn = await Deno.connect({ hostname: server.url.hostname, port: Number(server.url.port) });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const started = performance.now();
  await conn.write(encoder.encode(
    `POST /mcp HTTP/1.1\r\nHost: ${server.url.host}\r\nConnection: keep-alive\r\n` +
      `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body}`,
  ));
  const closed = await closedBy(conn, started, 25_000);
  assert.equal(closed.status, "HTTP/1.1 200 OK");
  // Against a hang only: a connection kept alive would be closed at the idle deadline (60 s by default).
  assert.ok(closed.ms < 15_000, `the kept-alive connection stayed open ${Math.round(closed.ms)} ms`);
});

Deno.test("behind the front door, the HTTP server is told each client's own address", async () => {
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const seen: Deno.Addr[] = [];
  let door: ReturnType<typeof openFrontDoor> | null = null;
  const backend = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: abort.signal, onListen: resolve },
    (_request, info) => {
      seen.push(door!.peerOf(info.remoteAddr));
      return new Response("ok");
    },
  );
  try {
    door = openFrontDoor({ hostname: "127.0.0.1", port: 0, backendPort: (await listening).port });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: door.addr.port });
    const client = conn.localAddr;
    await conn.write(encoder.encode(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${door.addr.port}\r\n\r\n`));
    const closed = await closedBy(conn, performance.now(), 10_000);
    assert.equal(closed.status, "HTTP/1.1 200 OK");
    assert.deepEqual(seen, [client], "the peer is the client's socket, not the front door's");
  } finally {
    await door?.close();
    abort.abort();
    await backend.finished;
  }
});

Deno.test("conformance serve closes 100 slow clients at its 10 s header deadline", async () => {
  await using serve = spawnHarness(["serve"]);
  // Against a hang only (the start took over 60 s at load 30).
  const deadline = Date.now() + 180_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /listening on (http:\/\/\S+)/.exec(serve.stdoutSoFar())) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(match, `conformance serve printed no URL: ${serve.stdoutSoFar()}`);
  // The 408s say the header deadline closed them; the margin only guards against a hang.
  await assertSlowlorisBounded(new URL(match[1]!), HEADER_TIMEOUT_MS + 15_000);
});
