/**
 * The `mcp-ui` host's loopback listeners, all in this process: the host page on `127.0.0.1`, the sandbox proxy
 * on `localhost` (a distinct origin and site, as the reference host has it), the two CSP probe origins, and
 * the conformance MCP server that declares them.
 *
 * @module
 */
import type { ControlOrigins } from "../../../src/fixtures.ts";
import { startControlOrigins } from "../../../src/server/control_origins.ts";
import { listenLoopback } from "../../../src/server/loopback_listener.ts";
import { type ConformanceServer, startConformanceServer } from "../../../src/server/server.ts";
import { mcpUiPageHtml, mcpUiPageScript } from "./bundle.ts";
import { SANDBOX_PROXY_PATH, sandboxProxyHtml } from "./sandbox_proxy.ts";

/** Everything one `mcp-ui` host run listens on. */
export interface McpUiListeners extends AsyncDisposable {
  readonly hostPageUrl: URL;
  readonly server: ConformanceServer;
  readonly controls: ControlOrigins;
  /** One URL per listener (host page, sandbox proxy, controls, the MCP server). */
  readonly endpoints: readonly string[];
  close(): Promise<void>;
}

function html(body: string): Response {
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** Starts every listener; dispose the result to stop them all. */
export async function startMcpUiListeners(
  options: { readonly appHtml: () => string | Promise<string> },
): Promise<McpUiListeners> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(closers.splice(0).reverse().map((closer) => closer()));
  };
  try {
    const origins = await startControlOrigins();
    closers.push(origins.close);
    const controls = origins.controls;
    const sandbox = await listenLoopback((request) =>
      new URL(request.url).pathname === SANDBOX_PROXY_PATH
        ? html(sandboxProxyHtml())
        : new Response("not found", { status: 404 })
    );
    closers.push(sandbox.close);
    const script = await mcpUiPageScript();
    let pageHtml = "";
    const page = await listenLoopback((request) =>
      new URL(request.url).pathname === "/" ? html(pageHtml) : new Response("not found", { status: 404 })
    );
    closers.push(page.close);
    const hostPageOrigin = `http://127.0.0.1:${page.port}`;
    const server = await startConformanceServer({
      appHtml: options.appHtml,
      controls,
      allowedOrigins: [hostPageOrigin],
    });
    closers.push(server.close);
    const sandboxUrl = `http://localhost:${sandbox.port}${SANDBOX_PROXY_PATH}`;
    pageHtml = mcpUiPageHtml(script, { mcpUrl: server.url.href, sandboxUrl });
    return {
      hostPageUrl: new URL(`${hostPageOrigin}/`),
      server,
      controls,
      endpoints: [
        hostPageOrigin,
        `http://127.0.0.1:${sandbox.port}`,
        controls.declared,
        controls.undeclared,
        server.url.href,
      ],
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
