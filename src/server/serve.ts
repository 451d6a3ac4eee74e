/**
 * The engine of `conformance serve`: runs the conformance MCP server until the signal aborts, for adding to a
 * real MCP Apps host as a connector. The launchers' CSP names the public control origins.
 *
 * @module
 */
import { type ControlOrigins, PUBLIC_CONTROLS } from "../fixtures.ts";
import { startConformanceServer } from "./server.ts";

/** What `conformance serve` was asked for. */
export interface ServeOptions {
  /** `HOST:PORT`, `:PORT` or `PORT`; `127.0.0.1:0` (a free port on loopback) when absent. */
  readonly listen?: string;
  /** Browser origins allowed besides loopback (`--allow-origin`). */
  readonly allowOrigins?: readonly string[];
  /** `Host` names allowed besides loopback (a tunnel's public name). */
  readonly allowHosts?: readonly string[];
  /** The suite HTML served as the app resource (`buildSuiteHtml` from suite/apps/build.ts). */
  readonly appHtml: () => string | Promise<string>;
  /** The CSP control origins; the public ones by default. */
  readonly controls?: ControlOrigins;
  /** Stops the server. */
  readonly signal: AbortSignal;
  /** Told the endpoint once it listens. */
  readonly onListening?: (url: URL) => void;
}

/**
 * Parses a `--listen` value.
 *
 * @example
 * ```ts
 * import { parseListen } from "./serve.ts";
 * parseListen("127.0.0.1:8765"); // { hostname: "127.0.0.1", port: 8765 }
 * ```
 */
export function parseListen(value: string): { hostname: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[\w.-]*):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new RangeError(`Invalid --listen "${value}": use HOST:PORT, e.g. 127.0.0.1:8765`);
  }
  const host = match[1] || "127.0.0.1";
  return { hostname: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

/** Runs the server until `options.signal` aborts; resolves once the listener is closed. */
export async function serve(options: ServeOptions): Promise<void> {
  const { hostname, port } = parseListen(options.listen ?? "127.0.0.1:0");
  await using server = await startConformanceServer({
    hostname,
    port,
    appHtml: options.appHtml,
    controls: options.controls ?? PUBLIC_CONTROLS,
    ...(options.allowOrigins ? { allowedOrigins: options.allowOrigins } : {}),
    ...(options.allowHosts ? { allowedHosts: options.allowHosts } : {}),
  });
  options.onListening?.(server.url);
  if (options.signal.aborted) return;
  await new Promise<void>((resolve) =>
    options.signal.addEventListener("abort", () => resolve(), { once: true })
  );
}
