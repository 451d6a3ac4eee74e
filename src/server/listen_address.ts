/**
 * Listen addresses (`127.0.0.1:8765`), as `conformance serve --listen` and a YAML host's `server.listen` give
 * them. Kept apart from the server so the config file can check one without loading the MCP SDK.
 *
 * @module
 */

/** Where a listener binds. */
export interface ListenAddress {
  readonly hostname: string;
  readonly port: number;
}

/**
 * Parses `HOST:PORT`, `:PORT` or `PORT` (`127.0.0.1` when no host is given; `[::1]:PORT` for IPv6). A bad
 * value is a RangeError that names `what` (the flag or field it came from).
 *
 * @example
 * ```ts
 * import { parseListen } from "./listen_address.ts";
 * parseListen("127.0.0.1:8765"); // { hostname: "127.0.0.1", port: 8765 }
 * ```
 */
export function parseListen(value: string, what = "--listen"): ListenAddress {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[\w.-]*):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new RangeError(`Invalid ${what} "${value}": use HOST:PORT, e.g. 127.0.0.1:8765`);
  }
  const host = match[1] || "127.0.0.1";
  return { hostname: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

/**
 * Whether a hostname or IP address names this machine's loopback: `localhost`, `127.0.0.0/8`, `::1`, or
 * `::ffff:127.x.y.z` (an IPv4 loopback peer on a dual-stack socket).
 *
 * @example
 * ```ts
 * import { isLoopback } from "./listen_address.ts";
 * isLoopback("127.0.0.1"); // true
 * isLoopback("0.0.0.0"); // false
 * ```
 */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === "::1" || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(name);
}
