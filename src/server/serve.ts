/**
 * The engine of `conformance serve`, and of a YAML web host's `server:`: the conformance MCP server, the CSP
 * control origins its launchers name, and on request the second server that cross-server checks need, all
 * started together and stopped together.
 *
 * @module
 */
import { type ControlOrigins, PUBLIC_CONTROLS } from "../fixtures.ts";
import { startControlOrigins } from "./control_origins.ts";
import { parseListen } from "./listen_address.ts";
import { type ConformanceServer, startConformanceServer } from "./server.ts";

export { parseListen } from "./listen_address.ts";

/** Which CSP control origins the launchers name: served on loopback, or the public ones. */
export type CspOrigins = "local" | "public";

/** The values `--csp-origins` takes. */
export const CSP_ORIGINS: readonly CspOrigins[] = ["local", "public"];

/** What to start. */
export interface ServingOptions {
  /** `HOST:PORT`, `:PORT` or `PORT`; `127.0.0.1:0` (a free port on loopback) when absent. */
  readonly listen?: string;
  /** Where the second server listens (`visibility/cross-server-blocked`); no second server when absent. */
  readonly second?: string;
  /** `local` (default): two loopback listeners; `public`: {@linkcode PUBLIC_CONTROLS}. */
  readonly cspOrigins?: CspOrigins;
  /** Browser origins allowed besides loopback (`--allow-origin`). */
  readonly allowOrigins?: readonly string[];
  /** `Host` names allowed besides loopback (a tunnel's public name). */
  readonly allowHosts?: readonly string[];
  /** The suite HTML served as the app resource (`loadSuiteHtml` from suite/apps/build.ts). */
  readonly appHtml: () => string | Promise<string>;
  /** The field the listen addresses came from, for messages (`--listen`, `server.listen`). */
  readonly what?: { readonly listen: string; readonly second: string };
}

/** The servers while they run; dispose to stop them all. */
export interface Serving extends AsyncDisposable {
  readonly server: ConformanceServer;
  readonly secondServer: ConformanceServer | null;
  readonly controls: ControlOrigins;
  /** Whether the control origins are this process's loopback listeners. */
  readonly localControls: boolean;
  /** One URL per listener this process opened (servers and local control origins). */
  readonly endpoints: readonly string[];
  /** Stops every listener and waits until each is closed. */
  close(): Promise<void>;
}

/**
 * Starts the conformance server, its control origins and, when asked, the second server.
 *
 * @example
 * ```ts
 * import { startServing } from "./serve.ts";
 * await using serving = await startServing({ appHtml: () => "<p>suite</p>" });
 * console.log(serving.server.url.href, serving.controls.declared);
 * ```
 */
export async function startServing(options: ServingOptions): Promise<Serving> {
  const main = parseListen(options.listen ?? "127.0.0.1:0", options.what?.listen);
  const second = options.second === undefined ? null : parseListen(options.second, options.what?.second);
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(closers.splice(0).reverse().map((closer) => closer()));
  };
  try {
    const endpoints: string[] = [];
    let controls: ControlOrigins = PUBLIC_CONTROLS;
    const localControls = (options.cspOrigins ?? "local") === "local";
    if (localControls) {
      const origins = await startControlOrigins();
      closers.push(origins.close);
      controls = origins.controls;
      endpoints.push(controls.declared, controls.undeclared);
    }
    const shared = {
      appHtml: options.appHtml,
      controls,
      ...(options.allowOrigins ? { allowedOrigins: options.allowOrigins } : {}),
      ...(options.allowHosts ? { allowedHosts: options.allowHosts } : {}),
    };
    // The second server first: the main server's log tool reports what the second one received.
    let secondServer: ConformanceServer | null = null;
    if (second !== null) {
      secondServer = await startConformanceServer({
        ...shared,
        ...second,
        role: "second",
        serverName: "conformance-second",
      });
      closers.push(secondServer.close);
    }
    const server = await startConformanceServer({
      ...shared,
      ...main,
      ...(secondServer ? { secondServerLog: secondServer.log } : {}),
    });
    closers.push(server.close);
    endpoints.push(server.url.href, ...(secondServer ? [secondServer.url.href] : []));
    return { server, secondServer, controls, localControls, endpoints, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What `conformance serve` was asked for. */
export interface ServeOptions extends ServingOptions {
  /** Stops the servers. */
  readonly signal: AbortSignal;
  /** Told the endpoint (and everything else that listens) once it listens. */
  readonly onListening?: (url: URL, serving: Serving) => void;
}

/** Runs the servers until `options.signal` aborts; resolves once every listener is closed. */
export async function serve(options: ServeOptions): Promise<void> {
  await using serving = await startServing(options);
  options.onListening?.(serving.server.url, serving);
  if (options.signal.aborted) return;
  await new Promise<void>((resolve) =>
    options.signal.addEventListener("abort", () => resolve(), { once: true })
  );
}
