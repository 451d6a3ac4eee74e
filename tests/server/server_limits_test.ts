/**
 * What a hostile client can make the conformance server hold: bodies past the cap are answered 413 without
 * being buffered or logged, a slow body is answered 408 at the deadline, the log keeps a bounded tail with
 * long strings cut, and a peer that is not on loopback cannot pass the guard with a forged `Host`. Every
 * connection is to loopback; the remote peer is a fake `remoteAddr` given to the guard.
 */
import assert from "node:assert/strict";
import { MAX_BODY_BYTES, startConformanceServer } from "../../src/server/server.ts";
import { RequestGuard } from "../../src/server/request_guard.ts";
import { LOG_LIST_LIMIT, ServerLogRecorder, TRUNCATION_MARKER } from "../../src/server/server_log.ts";

const CONTROLS = { declared: "http://127.0.0.1:9", undeclared: "http://127.0.0.1:10" };
const MIB = 1024 * 1024;

/** The status line and headers the server answered, and how long it took, or `""` when it closed silently. */
interface Answer {
  readonly head: string;
  readonly ms: number;
}

/**
 * Sends `head` then whatever `body` writes over a raw socket while reading the answer, so a server that answers
 * before the body ends is seen at once; `write` returns false once the server answered or closed.
 */
async function exchange(
  url: URL,
  head: string,
  body: (write: (bytes: Uint8Array) => Promise<boolean>) => Promise<void>,
  deadlineMs = 20_000,
): Promise<Answer> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const started = performance.now();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    conn.close();
  };
  const timer = setTimeout(close, deadlineMs);
  let answered = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(16 * 1024);
    let text = "";
    try {
      while (!text.includes("\r\n\r\n")) {
        const read = await conn.read(buffer);
        if (read === null) break;
        text += decoder.decode(buffer.subarray(0, read));
      }
    } catch {
      // A reset after the answer (or instead of one) ends the exchange.
    }
    answered = true;
    return { head: text, ms: performance.now() - started };
  })();
  const write = async (bytes: Uint8Array) => {
    try {
      for (let offset = 0; offset < bytes.length && !answered;) {
        offset += await conn.write(bytes.subarray(offset));
      }
      return !answered;
    } catch {
      return false;
    }
  };
  const encoder = new TextEncoder();
  const writing = write(encoder.encode(head)).then((open) => open ? body(write) : undefined);
  const answer = await reading;
  clearTimeout(timer);
  close();
  await writing.catch(() => {});
  return answer;
}

function requestHead(url: URL, headers: string): string {
  return `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\n${headers}\r\n`;
}

Deno.test("a declared Content-Length past the cap is answered 413 before any of the body is sent", async () => {
  await using server = await startConformanceServer({ appHtml: "x", controls: CONTROLS });
  const answer = await exchange(
    server.url,
    requestHead(server.url, `Content-Length: ${20 * MIB}\r\n`),
    async () => {},
    5_000,
  );
  assert.match(answer.head, /^HTTP\/1\.1 413/, `answer: ${JSON.stringify(answer.head)}`);
  assert.deepEqual(server.log.snapshot().methods, []);
});

Deno.test("ten 20 MB chunked tools/call bodies are answered 413 and neither logged nor held in memory", async () => {
  await using server = await startConformanceServer({ appHtml: "x", controls: CONTROLS });
  const encoder = new TextEncoder();
  const filler = encoder.encode("a".repeat(64 * 1024));
  const chunk = (bytes: Uint8Array) =>
    [encoder.encode(`${bytes.length.toString(16)}\r\n`), bytes, encoder.encode("\r\n")] as const;
  const bodyMiB = 20;
  const send = () =>
    exchange(server.url, requestHead(server.url, "Transfer-Encoding: chunked\r\n"), async (write) => {
      const open = encoder.encode(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"conformance_probe","arguments":{"x":"',
      );
      for (const part of chunk(open)) if (!await write(part)) return;
      for (let sent = 0; sent < bodyMiB * MIB; sent += filler.length) {
        for (const part of chunk(filler)) if (!await write(part)) return;
      }
      for (const part of chunk(encoder.encode('"}}}'))) if (!await write(part)) return;
      await write(encoder.encode("0\r\n\r\n"));
    });
  await send(); // warms up the listener and the SDK, so the baseline is not the first request's cost
  const before = Deno.memoryUsage().rss;
  for (let i = 0; i < 10; i++) {
    const answer = await send();
    assert.match(answer.head, /^HTTP\/1\.1 413/, `request ${i}: ${JSON.stringify(answer.head)}`);
  }
  const grownMiB = (Deno.memoryUsage().rss - before) / MIB;
  assert.ok(grownMiB < 5 * bodyMiB, `RSS grew ${grownMiB.toFixed(0)} MiB over ten ${bodyMiB} MiB bodies`);
  assert.deepEqual(server.log.snapshot().toolCalls, []);
  assert.ok(MAX_BODY_BYTES < bodyMiB * MIB);
});

Deno.test("a body that stalls is answered 408 at the read deadline", async () => {
  await using server = await startConformanceServer({
    appHtml: "x",
    controls: CONTROLS,
    bodyReadTimeoutMs: 300,
  });
  const answer = await exchange(
    server.url,
    requestHead(server.url, "Content-Length: 100\r\n"),
    async (write) => void await write(new TextEncoder().encode('{"jsonrpc"')),
    25_000,
  );
  assert.match(answer.head, /^HTTP\/1\.1 408/, `answer: ${JSON.stringify(answer.head)}`);
  // Against a hang only: the 408 says which deadline answered; the other would take 30 s.
  assert.ok(answer.ms < 15_000, `answered after ${answer.ms.toFixed(0)} ms`);
});

Deno.test("the server log keeps its last entries, counts the dropped ones and cuts long strings", () => {
  const log = new ServerLogRecorder();
  const long = "x".repeat(MIB);
  const calls = LOG_LIST_LIMIT + 500;
  for (let id = 0; id < calls; id++) {
    log.recordMessage({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "conformance_probe", arguments: { payload: long, id } },
    });
  }
  const snapshot = log.snapshot();
  assert.equal(snapshot.toolCalls.length, LOG_LIST_LIMIT);
  assert.equal(snapshot.methods.length, LOG_LIST_LIMIT);
  assert.equal(snapshot.dropped, 2 * (calls - LOG_LIST_LIMIT));
  const last = snapshot.toolCalls.at(-1)!.arguments as { payload: string; id: number };
  assert.equal(last.id, calls - 1);
  assert.ok(last.payload.length < 8 * 1024, `payload kept ${last.payload.length} characters`);
  assert.ok(last.payload.includes(TRUNCATION_MARKER));
  // What a suite run sends stays whole.
  log.clear();
  log.recordMessage({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "error_probe", arguments: { payload: "nonce-error-1234" } },
  });
  assert.deepEqual(log.snapshot().toolCalls.map((call) => call.arguments), [{ payload: "nonce-error-1234" }]);
  assert.equal(log.snapshot().dropped, 0);
});

Deno.test("a peer not on loopback is refused whatever Host and Origin it forges", () => {
  const guard = new RequestGuard({ allowedHosts: ["tunnel.example.net"] });
  const remote: Deno.NetAddr = { transport: "tcp", hostname: "192.0.2.7", port: 51234 };
  const local: Deno.NetAddr = { transport: "tcp", hostname: "127.0.0.1", port: 51234 };
  const request = (host: string, origin?: string) =>
    new Request("http://127.0.0.1:8765/mcp", {
      method: "POST",
      headers: origin === undefined ? { host } : { host, origin },
    });
  assert.equal(guard.check(request("127.0.0.1:8765"), local), null);
  assert.equal(guard.check(request("127.0.0.1:8765"), { ...local, hostname: "::ffff:127.0.0.1" }), null);
  assert.match(guard.check(request("127.0.0.1:8765"), remote)?.reason ?? "", /Host "127\.0\.0\.1:8765"/);
  assert.match(guard.check(request("localhost:8765"), remote)?.reason ?? "", /is not allowed/);
  assert.equal(guard.check(request("tunnel.example.net"), remote), null);
  assert.match(
    guard.check(request("tunnel.example.net", "http://127.0.0.1:8765"), remote)?.reason ?? "",
    /Origin "http:\/\/127\.0\.0\.1:8765" is not allowed/,
  );
});
