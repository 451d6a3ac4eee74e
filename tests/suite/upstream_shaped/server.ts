/**
 * A second conformance MCP server, in a process of its own and built apart from the harness's server (only
 * the SDKs are shared): it serves the upstream-shaped suite (tests/suite/upstream_shaped/view.ts) as the app
 * of its `run_conformance` launcher, under the name `upstream-shaped`, as a host vendor's own suite server
 * would. Its launcher takes no input (the MCP Inspector opens such a tool's app as soon as its card is
 * picked); `conformance_probe` is app-only (the suite checks the model does not see it). It prints
 * `upstream-shaped suite at <MCP URL>` once listening, and runs until SIGTERM or SIGINT. With `--no-suite`,
 * the View is a page without a suite.
 * tests/suite/suite_server_test.ts points `conformance run --suite-server` at it.
 *
 * ```sh
 * deno run --allow-read --allow-env --allow-run --allow-net=127.0.0.1 tests/suite/upstream_shaped/server.ts
 * ```
 *
 * @module
 */
import {
  registerAppResource,
  registerAppTool,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/server";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { viewHtml } from "../../runner/mini_suite_html.ts";

/** The line printed once the server listens; the URL follows it. */
export const BANNER = "upstream-shaped suite at ";

/** The launcher's app resource. */
const VIEW_URI = "ui://upstream-shaped/view.html";

/** A fresh MCP server per request (stateless), with the launcher, its View and an app-only tool. */
function suiteServer(html: string): McpServer {
  const server = new McpServer({ name: "upstream-shaped", version: "1.0.0" });
  registerAppTool(
    server,
    "run_conformance",
    {
      description: "Render the upstream-shaped conformance suite.",
      _meta: { ui: { resourceUri: VIEW_URI, visibility: ["model", "app"] } },
    },
    () => ({ content: [{ type: "text" as const, text: "The upstream-shaped suite is rendered." }] }),
  );
  registerAppTool(
    server,
    "conformance_probe",
    { description: "App-only echo.", _meta: { ui: { visibility: ["app"] } } },
    () => ({ content: [{ type: "text" as const, text: "conformance_probe" }] }),
  );
  registerAppResource(
    server,
    "upstream-shaped",
    VIEW_URI,
    { description: "The upstream-shaped suite." },
    () => ({
      contents: [{ uri: VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: html }],
    }),
  );
  return server;
}

/** CORS for a host page that calls from its own loopback origin (the reference host's). */
function cors(request: Request): Headers {
  return new Headers({
    "access-control-allow-origin": request.headers.get("origin") ?? "*",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": request.headers.get("access-control-request-headers") ??
      "content-type, mcp-protocol-version",
    "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, content-type",
  });
}

if (import.meta.main) {
  // `--no-suite`: the launcher's View is a page without a suite, which a listing waits for in vain.
  const html = Deno.args.includes("--no-suite")
    ? "<!doctype html><p>no suite here</p>"
    : await viewHtml(new URL("./view.ts", import.meta.url));
  const handler = createMcpHandler(() => suiteServer(html));
  const abort = new AbortController();
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const served = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: abort.signal,
    onListen: (addr) => listening.resolve(addr),
  }, async (request) => {
    const headers = cors(request);
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers });
    if (new URL(request.url).pathname !== "/mcp") return new Response("not found", { status: 404, headers });
    const response = await handler.fetch(request);
    const out = new Headers(response.headers);
    headers.forEach((value, key) => out.set(key, value));
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: out,
    });
  });
  const stop = () => {
    abort.abort();
    void served.finished.then(() => Deno.exit(0));
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  const { port } = await listening.promise;
  console.log(`${BANNER}http://127.0.0.1:${port}/mcp`);
}
