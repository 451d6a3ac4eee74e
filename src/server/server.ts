/**
 * The conformance MCP server: the app under test for MCP Apps hosts. Streamable HTTP through the v2 SDK's
 * `createMcpHandler` mounted in `Deno.serve`, loopback by default, with a DNS-rebinding guard, CORS for
 * browser-side clients, and a log of everything it saw (the server vantage).
 *
 * Bodies are read before the SDK sees them, so they are bounded here: a `Content-Length` past
 * {@linkcode MAX_BODY_BYTES} is answered 413 unread, a body without one is counted while it streams and cut
 * at the cap, and a body that takes longer than the read deadline (default {@linkcode BODY_READ_TIMEOUT_MS})
 * is answered 408. Nothing past the cap is buffered or logged. `Deno.serve` has no header-read or idle timeout
 * option (Deno 2.9: `ServeTcpOptions` offers port, hostname, reusePort, tcpBacklog, signal, onListen and
 * onError), and a connection that sends half its headers is held indefinitely, so clients connect to a front
 * door (src/server/front_door.ts) that requires each request head within a deadline, closes idle connections
 * and relays the rest to `Deno.serve` on an internal loopback port.
 *
 * @module
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { corsHeaders, RequestGuard } from "./request_guard.ts";
import { ServerLogRecorder } from "./server_log.ts";
import { registerFixtures } from "./fixtures.ts";
import { type FrontDoor, openFrontDoor } from "./front_door.ts";
import type { ControlOrigins } from "../fixtures.ts";

/** How to start a {@linkcode ConformanceServer}. */
export interface ConformanceServerOptions {
  /** Interface to bind; `127.0.0.1` unless a person asks for more. */
  readonly hostname?: string;
  /** Port to bind; `0` picks a free one. */
  readonly port?: number;
  /** The suite's self-contained HTML, served as every `ui://conformance/*` app resource. */
  readonly appHtml: string | (() => string | Promise<string>);
  /** The origins the launchers' CSP declares and the one they leave undeclared. */
  readonly controls: ControlOrigins;
  /** Extra `Host` names to answer (a tunnel's public name). */
  readonly allowedHosts?: readonly string[];
  /** Extra browser origins allowed to call. */
  readonly allowedOrigins?: readonly string[];
  /** Name the server gives itself at `initialize`; a second server for cross-server tests uses another. */
  readonly serverName?: string;
  /** `"second"` serves only the second server's fixtures (cross-server checks); `"main"` by default. */
  readonly role?: "main" | "second";
  /**
   * The log of a second server in this process: `conformance_server_log` then reports what it received
   * (`secondServer`), the server vantage of `visibility/cross-server-blocked`. Without it, `secondServer: null`.
   */
  readonly secondServerLog?: ServerLogRecorder;
  /** How long one request body may take to arrive; {@linkcode BODY_READ_TIMEOUT_MS} by default. */
  readonly bodyReadTimeoutMs?: number;
  /** How long a connection may take to send its request head; `HEADER_TIMEOUT_MS` (10 s) by default. */
  readonly headerTimeoutMs?: number;
  /** How long a connection may go without a byte either way; `IDLE_TIMEOUT_MS` (60 s) by default. */
  readonly idleTimeoutMs?: number;
}

/** A running conformance server; dispose it to stop listening. */
export interface ConformanceServer extends AsyncDisposable {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  /** Everything the server has received. */
  readonly log: ServerLogRecorder;
  /** Stops listening and waits until the listener is closed. */
  close(): Promise<void>;
}

/** The path of the MCP endpoint. */
export const MCP_PATH = "/mcp";

/** The largest request body read, the SDK's own limit (4 MiB); a longer one is answered 413. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** How long a request body may take to arrive before the request is answered 408. */
export const BODY_READ_TIMEOUT_MS = 30_000;

/**
 * Starts a conformance MCP server.
 *
 * @example
 * ```ts
 * await using server = await startConformanceServer({
 *   appHtml: "<!doctype html><p>app</p>",
 *   controls: { declared: "http://127.0.0.1:9001", undeclared: "http://127.0.0.1:9002" },
 * });
 * console.log(server.url.href);
 * ```
 */
export async function startConformanceServer(options: ConformanceServerOptions): Promise<ConformanceServer> {
  const log = new ServerLogRecorder();
  const guard = new RequestGuard({
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  });
  const appHtml = typeof options.appHtml === "string" ? () => options.appHtml as string : options.appHtml;
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: options.serverName ?? "conformance", version: "1.0.0" });
    registerFixtures(server, {
      log,
      appHtml,
      controls: options.controls,
      server: options.role ?? "main",
      ...(options.secondServerLog ? { secondServerLog: options.secondServerLog } : {}),
    });
    return server;
  });
  const abort = new AbortController();
  const { promise: listening, resolve: onListen } = Promise.withResolvers<Deno.NetAddr>();
  // The HTTP server listens on an internal loopback port; clients reach it through the front door, which holds
  // them to the header and idle deadlines and tells the guard who each client really is.
  let door: FrontDoor | null = null;
  const listener = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: abort.signal,
    onListen: (addr) => onListen(addr),
    onError: (error) => jsonRpcError(500, -32603, `Internal error: ${String(error)}`),
  }, (request, info) =>
    serveRequest(request, door?.peerOf(info.remoteAddr) ?? info.remoteAddr, {
      guard,
      handler: handler.fetch,
      log,
      bodyReadTimeoutMs: options.bodyReadTimeoutMs ?? BODY_READ_TIMEOUT_MS,
    }));
  const backend = await listening;
  const stopBackend = async () => {
    abort.abort();
    await handler.close().catch(() => {});
    await listener.finished;
  };
  try {
    door = openFrontDoor({
      hostname: options.hostname ?? "127.0.0.1",
      port: options.port ?? 0,
      backendPort: backend.port,
      ...(options.headerTimeoutMs === undefined ? {} : { headerTimeoutMs: options.headerTimeoutMs }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    });
  } catch (error) {
    await stopBackend();
    throw error;
  }
  const addr = door.addr;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const url = new URL(`http://${host}:${addr.port}${MCP_PATH}`);
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      await door?.close();
      await stopBackend();
    })();
    return closed;
  };
  return { url, log, close, [Symbol.asyncDispose]: close };
}

interface ServeContext {
  readonly guard: RequestGuard;
  readonly handler: (request: Request) => Promise<Response>;
  readonly log: ServerLogRecorder;
  readonly bodyReadTimeoutMs: number;
}

async function serveRequest(
  request: Request,
  remoteAddr: Deno.Addr,
  context: ServeContext,
): Promise<Response> {
  const verdict = context.guard.check(request, remoteAddr);
  if (verdict !== null) return new Response(verdict.reason, { status: verdict.status });
  const cors = corsHeaders(request);
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
  const path = new URL(request.url).pathname;
  if (path !== MCP_PATH) {
    return withHeaders(new Response(`Not found: the MCP endpoint is ${MCP_PATH}`, { status: 404 }), cors);
  }
  let forwarded = request;
  if (request.method === "POST") {
    const read = await readBody(request, context.bodyReadTimeoutMs);
    if (typeof read !== "string") return withHeaders(read, cors);
    const text = read;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return withHeaders(jsonRpcError(400, -32700, "Parse error: the body is not JSON"), cors);
    }
    if (!isJsonRpcShape(body)) {
      return withHeaders(jsonRpcError(400, -32600, "Invalid Request: expected a JSON-RPC 2.0 message"), cors);
    }
    for (const message of Array.isArray(body) ? body : [body]) context.log.recordMessage(message);
    forwarded = new Request(request.url, { method: "POST", headers: request.headers, body: text });
  }
  try {
    return withHeaders(await context.handler(forwarded), cors);
  } catch (error) {
    return withHeaders(jsonRpcError(500, -32603, `Internal error: ${String(error)}`), cors);
  }
}

/**
 * The body as text, or the error response when it is longer than {@linkcode MAX_BODY_BYTES} (413) or slower
 * than `timeoutMs` (408). The stream is cancelled at the first byte past the cap, so the rest is never held.
 */
async function readBody(request: Request, timeoutMs: number): Promise<string | Response> {
  const tooLarge = () =>
    jsonRpcError(413, -32600, `Payload too large: the body exceeds ${MAX_BODY_BYTES} bytes`);
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) return tooLarge();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (timedOut) break;
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value);
    }
  } catch {
    if (!timedOut) return jsonRpcError(400, -32700, "Parse error: the body could not be read");
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) {
    return jsonRpcError(408, -32600, `Request timeout: the body took longer than ${timeoutMs} ms to arrive`);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function isJsonRpcShape(body: unknown): boolean {
  const one = (message: unknown) =>
    typeof message === "object" && message !== null && !Array.isArray(message) &&
    (message as Record<string, unknown>).jsonrpc === "2.0";
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

function withHeaders(response: Response, headers: Headers): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of headers) merged.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}
