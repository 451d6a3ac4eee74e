/**
 * The conformance MCP server: the app under test for MCP Apps hosts. Streamable HTTP through the v2 SDK's
 * `createMcpHandler` mounted in `Deno.serve`, loopback by default, with a DNS-rebinding guard, CORS for
 * browser-side clients, and a log of everything it saw (the server vantage).
 *
 * @module
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { corsHeaders, RequestGuard } from "./request_guard.ts";
import { ServerLogRecorder } from "./server_log.ts";
import { registerFixtures } from "./fixtures.ts";
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

/**
 * Starts a conformance MCP server.
 *
 * @example
 * ```ts
 * await using server = await startConformanceServer({
 *   appHtml: "<!doctype html><p>app</p>",
 *   controls: { a: "http://127.0.0.1:9001", b: "http://127.0.0.1:9002" },
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
  const listener = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    signal: abort.signal,
    onListen: (addr) => onListen(addr),
    onError: (error) => jsonRpcError(500, -32603, `Internal error: ${String(error)}`),
  }, (request) => serveRequest(request, { guard, handler: handler.fetch, log }));
  const addr = await listening;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const url = new URL(`http://${host}:${addr.port}${MCP_PATH}`);
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      abort.abort();
      await handler.close().catch(() => {});
      await listener.finished;
    })();
    return closed;
  };
  return { url, log, close, [Symbol.asyncDispose]: close };
}

interface ServeContext {
  readonly guard: RequestGuard;
  readonly handler: (request: Request) => Promise<Response>;
  readonly log: ServerLogRecorder;
}

async function serveRequest(request: Request, context: ServeContext): Promise<Response> {
  const verdict = context.guard.check(request);
  if (verdict !== null) return new Response(verdict.reason, { status: verdict.status });
  const cors = corsHeaders(request);
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
  const path = new URL(request.url).pathname;
  if (path !== MCP_PATH) {
    return withHeaders(new Response(`Not found: the MCP endpoint is ${MCP_PATH}`, { status: 404 }), cors);
  }
  let forwarded = request;
  if (request.method === "POST") {
    const text = await request.text();
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
