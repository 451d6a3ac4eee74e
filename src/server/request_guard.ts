/**
 * The DNS-rebinding guard of the conformance MCP server: which `Host` and `Origin` headers it answers, and
 * the CORS headers a browser-side MCP client (the reference host page) needs.
 *
 * A page on `evil.test` that re-resolves to 127.0.0.1 reaches the server with `Host: evil.test:PORT` and
 * `Origin: http://evil.test`; both are refused. Non-browser clients send no `Origin` and pass that check.
 *
 * Headers are the caller's to forge, so the connection's remote address is checked too: a peer that is not on
 * loopback (reachable only with `serve --allow-remote`) passes on the names given with `--allow-host` and
 * `--allow-origin` alone, never on a `Host: 127.0.0.1` it wrote itself.
 *
 * @module
 */
import { isLoopback } from "./listen_address.ts";

/** Hostnames that always name this machine. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** What the guard lets through besides loopback. */
export interface RequestGuardOptions {
  /** Extra `Host` header hostnames to answer (e.g. a tunnel's public name). */
  readonly allowedHosts?: readonly string[];
  /** Extra exact origins (`https://claude.ai`) allowed to call from a browser. */
  readonly allowedOrigins?: readonly string[];
}

/** Why a request was refused, or `null` when it may pass. */
export type GuardVerdict = { readonly status: 403; readonly reason: string } | null;

/**
 * Decides whether a request's `Host` and `Origin` are allowed. Loopback names are always allowed, on any port.
 *
 * @example
 * ```ts
 * const guard = new RequestGuard({ allowedOrigins: ["https://claude.ai"] });
 * guard.check(new Request("http://127.0.0.1:8080/mcp")); // null
 * ```
 */
export class RequestGuard {
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;

  /** Builds a guard from the extra names it should accept. */
  constructor(options: RequestGuardOptions = {}) {
    this.#hosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
    this.#origins = new Set((options.allowedOrigins ?? []).map((origin) => new URL(origin).origin));
  }

  /**
   * Returns `null` when the request may pass, else the 403 verdict with its reason. `remoteAddr` is the
   * connection's peer (`info.remoteAddr` of `Deno.serve`); when it is not loopback, loopback names in `Host`
   * and `Origin` count for nothing.
   */
  check(request: Request, remoteAddr?: Deno.Addr): GuardVerdict {
    const localPeer = remoteAddr === undefined || !("hostname" in remoteAddr) ||
      isLoopback(remoteAddr.hostname);
    const host = request.headers.get("host") ?? new URL(request.url).host;
    const hostname = hostnameOf(host);
    if (hostname === null || !((localPeer && LOOPBACK_NAMES.has(hostname)) || this.#hosts.has(hostname))) {
      return { status: 403, reason: `Host "${host}" is not allowed: start the server with --allow-host` };
    }
    const origin = request.headers.get("origin");
    if (origin === null) return null;
    if (this.#origins.has(origin)) return null;
    const originHost = originHostname(origin);
    if (localPeer && originHost !== null && LOOPBACK_NAMES.has(originHost)) return null;
    return { status: 403, reason: `Origin "${origin}" is not allowed: start the server with --allow-origin` };
  }
}

/** CORS headers for an allowed browser caller. */
export function corsHeaders(request: Request): Headers {
  const headers = new Headers();
  const origin = request.headers.get("origin");
  if (origin !== null) {
    headers.set("access-control-allow-origin", origin);
    headers.set("vary", "origin");
  }
  headers.set("access-control-allow-methods", "GET, POST, DELETE, OPTIONS");
  headers.set(
    "access-control-allow-headers",
    request.headers.get("access-control-request-headers") ?? "content-type, mcp-protocol-version",
  );
  headers.set("access-control-expose-headers", "mcp-session-id, mcp-protocol-version, content-type");
  headers.set("access-control-max-age", "600");
  return headers;
}

function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function originHostname(origin: string): string | null {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return null;
  }
}
