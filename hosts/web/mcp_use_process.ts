/**
 * Starting the mcp-use Inspector (`@mcp-use/inspector` 20.3.10, installed by `deno task hosts:install`) on
 * loopback, pointed at one MCP server, in its own process group with its telemetry off; and stopping it with
 * proof that the whole group is gone.
 *
 * What its `dist/cli.js` takes: `--url` (the server it auto-connects to), `--port` (its UI; when that port is
 * taken it silently tries the next ones, so the port it prints is the one to use), `--no-open`;
 * `MCP_USE_ANONYMIZED_TELEMETRY=false` turns its telemetry off and `INSPECTOR_ALLOW_LOOPBACK=true` lets its
 * proxy dial a loopback server whatever `NODE_ENV` says. It prints `MCP Inspector started at URL` once it
 * listens. It binds every interface (it has no host option): the harness gives it a free port and a short life.
 *
 * @module
 */
import { resolveBinary } from "../installed.ts";
import { type ServerProcess, startServerProcess } from "./_server_process.ts";

/** The registry id, and the name of the shim `hosts:install` writes. */
export const MCP_USE_ID = "mcp-use";

/** The shim's name. */
export const MCP_USE_BINARY = "mcp-use-inspector";

/** How to start it. */
export interface StartMcpUseOptions {
  /** The MCP server it auto-connects to (Streamable HTTP). */
  readonly serverUrl: string;
  /** The UI port it should try first. */
  readonly port: number;
  /** How long to wait for its banner; 60 s when absent. */
  readonly startTimeoutMs?: number;
  /** Stops waiting for the banner (the process is then stopped). */
  readonly signal?: AbortSignal;
}

/** A running mcp-use Inspector; disposing it ends its process group. */
export interface McpUseProcess extends ServerProcess {
  /** Its UI as it printed it, e.g. `http://localhost:41234/inspector`. */
  readonly uiUrl: URL;
}

/**
 * Its variables: telemetry off, loopback servers allowed, a throwaway HOME.
 *
 * @example
 * ```ts
 * import { mcpUseEnv } from "./mcp_use_process.ts";
 * mcpUseEnv("/tmp/h").MCP_USE_ANONYMIZED_TELEMETRY; // "false"
 * ```
 */
export function mcpUseEnv(home: string): Record<string, string> {
  return { HOME: home, MCP_USE_ANONYMIZED_TELEMETRY: "false", INSPECTOR_ALLOW_LOOPBACK: "true" };
}

/**
 * Its arguments.
 *
 * @example
 * ```ts
 * import { mcpUseArgs } from "./mcp_use_process.ts";
 * mcpUseArgs("http://127.0.0.1:6280/mcp", 6275); // ["--url", "http://127.0.0.1:6280/mcp", "--port", "6275", "--no-open"]
 * ```
 */
export function mcpUseArgs(serverUrl: string, port: number): string[] {
  return ["--url", serverUrl, "--port", String(port), "--no-open"];
}

const BANNER = /MCP Inspector started at (http:\/\/\S+)/;

/** Starts it and waits for its banner; throws naming the program when it is missing or ends first. */
export async function startMcpUse(options: StartMcpUseOptions): Promise<McpUseProcess> {
  const running = await startServerProcess({
    name: "mcp-use Inspector",
    id: MCP_USE_ID,
    shim: MCP_USE_BINARY,
    binary: resolveBinary(MCP_USE_ID, MCP_USE_BINARY),
    args: mcpUseArgs(options.serverUrl, options.port),
    env: mcpUseEnv,
    homePrefix: "conformance-mcp-use-",
    ready: (output) => BANNER.test(output),
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const ui = BANNER.exec(running.output())?.[1] ?? "";
  return { ...running, uiUrl: new URL(ui) };
}
