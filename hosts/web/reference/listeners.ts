/**
 * The reference host's loopback listeners, all in this process: the host page on
 * `127.0.0.1`, the sandbox proxy on `localhost` (a distinct origin and site), and the two CSP control
 * origins, plus the two conformance MCP servers (the second one for cross-server checks).
 *
 * @module
 */
import type { ControlOrigins, DeclaredCsp } from "../../../src/fixtures.ts";
import { startControlOrigins } from "../../../src/server/control_origins.ts";
import { listenLoopback } from "../../../src/server/loopback_listener.ts";
import { startConformanceServer } from "../../../src/server/server.ts";
import type { ConformanceServer } from "../../../src/server/server.ts";
import { buildCsp, cspFlawsOf } from "./csp.ts";
import { sandboxProxyHtml } from "./sandbox_page.ts";
import { hostPageHtml, hostPageScript } from "./bundle.ts";
import { cacheResourcesFromEarlierServer, readEveryResource } from "./resource_cache.ts";
import type { HostPageConfig } from "./page_state.ts";
import { type VariantName, variantNamed } from "./variants.ts";

/** Everything one reference host run listens on. */
export interface ReferenceListeners extends AsyncDisposable {
  readonly hostPageUrl: URL;
  readonly server: ConformanceServer;
  readonly secondServer: ConformanceServer;
  readonly controls: ControlOrigins;
  /** One URL per listener (host page, sandbox proxy, controls, both MCP servers). */
  readonly endpoints: readonly string[];
  close(): Promise<void>;
}

/** What to start. */
export interface ReferenceListenerOptions {
  readonly appHtml: () => string | Promise<string>;
  readonly variant: VariantName | null;
  /**
   * Declare a control origin nothing listens on (a closed loopback port), as a dead network would leave it:
   * the CSP tests' positive controls cannot load, which must read as "not testable", never as the host's FAIL.
   */
  readonly unreachableDeclaredControl?: boolean;
  /**
   * MCP endpoints the host page connects to instead of this run's own servers (which still start): a test of
   * a YAML host whose `server:` the harness starts points the page at that one.
   */
  readonly mcpUrls?: { readonly main: string; readonly second: string };
  /**
   * Each View in a panel with its own close and cancel buttons and consent dialogs (see `HostPageConfig`),
   * so a page shows several Views' controls at once, as a chat thread does.
   */
  readonly panels?: boolean;
  /**
   * Another conformance MCP server (`--suite-server`): the host page's main client connects there (its second
   * client keeps this run's second server, whose fixtures only our catalogue asks for).
   */
  readonly suiteServer?: string;
}

function sandboxResponse(request: Request): Response {
  const url = new URL(request.url);
  const raw = url.searchParams.get("csp");
  let declared: DeclaredCsp | undefined;
  try {
    declared = raw === null ? undefined : JSON.parse(raw) as DeclaredCsp;
  } catch {
    return new Response(`Invalid csp parameter "${raw}"`, { status: 400 });
  }
  const variant = variantNamed(url.searchParams.get("variant"));
  const headers = new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  if (variant !== "no-csp") headers.set("content-security-policy", buildCsp(declared, cspFlawsOf(variant)));
  return new Response(sandboxProxyHtml(), { headers });
}

/**
 * An origin every load from fails, as from a dead network: a loopback port that closes each connection before
 * a byte of answer. It stays bound while it serves, so no other listener can take the port: a port bound and
 * then let go was handed out again under load (to the listeners of a run beside this one), and the "dead"
 * origin answered.
 */
function deadOrigin(): { origin: string; close: () => Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  const accepting = (async () => {
    try {
      for await (const connection of listener) connection.close();
    } catch (error) {
      if (!(error instanceof Deno.errors.BadResource)) throw error;
    }
  })();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      try {
        listener.close();
      } catch (error) {
        if (!(error instanceof Deno.errors.BadResource)) throw error;
      }
      await accepting;
    },
  };
}

/** Starts every listener; dispose the result to stop them all. */
export async function startReferenceListeners(
  options: ReferenceListenerOptions,
): Promise<ReferenceListeners> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(closers.splice(0).reverse().map((closer) => closer()));
  };
  try {
    const origins = await startControlOrigins();
    closers.push(origins.close);
    const dead = options.unreachableDeclaredControl ? deadOrigin() : null;
    if (dead !== null) closers.push(dead.close);
    const controls = dead !== null ? { ...origins.controls, declared: dead.origin } : origins.controls;
    const sameOrigin = options.variant === "same-origin-proxy" ||
      options.variant === "same-origin-proxy-opaque-view";
    const sandbox = await listenLoopback((request) =>
      new URL(request.url).pathname === "/sandbox.html"
        ? sandboxResponse(request)
        : new Response("not found", { status: 404 })
    );
    closers.push(sandbox.close);
    const script = await hostPageScript();
    let resourceCache = options.variant === "stale-resource-cache"
      ? JSON.stringify(await cacheResourcesFromEarlierServer({ appHtml: options.appHtml, controls }))
      : null;
    let pageConfig = "";
    const page = await listenLoopback((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/") {
        return new Response(pageConfig, { headers: { "content-type": "text/html; charset=utf-8" } });
      }
      if (path === "/resource-cache.json" && resourceCache !== null) {
        return new Response(resourceCache, { headers: { "content-type": "application/json" } });
      }
      if (path === "/sandbox.html") return sandboxResponse(request);
      return new Response("not found", { status: 404 });
    });
    closers.push(page.close);
    const hostPageOrigin = page.origin("127.0.0.1");
    const allowedOrigins = [hostPageOrigin];
    const secondServer = await startConformanceServer({
      appHtml: options.appHtml,
      controls,
      allowedOrigins,
      role: "second",
      serverName: "conformance-second",
    });
    closers.push(secondServer.close);
    // The main server's log tool reports what the second one received (cross-server-blocked's server vantage).
    const server = await startConformanceServer({
      appHtml: options.appHtml,
      controls,
      allowedOrigins,
      secondServerLog: secondServer.log,
    });
    closers.push(server.close);
    if (options.variant === "connect-time-resource-cache") {
      // The host's backend reads every resource once, when the connector is added: the same server process.
      resourceCache = JSON.stringify(await readEveryResource(server.url));
    }
    const config: HostPageConfig = {
      mcpUrl: options.mcpUrls?.main ?? options.suiteServer ?? server.url.href,
      secondMcpUrl: options.mcpUrls?.second ?? secondServer.url.href,
      sandboxUrl: sameOrigin
        ? `${hostPageOrigin}/sandbox.html`
        : `${sandbox.origin("localhost")}/sandbox.html`,
      variant: options.variant,
      ...(options.panels ? { panels: true } : {}),
    };
    pageConfig = hostPageHtml(script, JSON.stringify(config), { panels: options.panels ?? false });
    return {
      hostPageUrl: new URL(`${hostPageOrigin}/`),
      server,
      secondServer,
      controls,
      endpoints: [
        hostPageOrigin,
        sandbox.origin("127.0.0.1"),
        ...Object.values(origins.controls),
        server.url.href,
        secondServer.url.href,
      ],
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
