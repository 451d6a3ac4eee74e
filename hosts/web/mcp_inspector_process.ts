/**
 * Starting the MCP Inspector (`@modelcontextprotocol/inspector`, installed by `deno task hosts:install`) on
 * loopback, pointed at one MCP server, in its own process group; and stopping it with proof that the whole
 * group is gone. The built-in `mcp-inspector` host uses it at setup; a test that drives the Inspector through
 * a YAML description (the same launch steps, the Inspector started by hand) uses it too.
 *
 * What the Inspector 2.12.0 takes, from its web client's source: `CLIENT_PORT` (its UI; a fixed port, it
 * refuses 0), `MCP_SANDBOX_PORT` (the MCP Apps sandbox proxy; 0 picks a free one) and `MCP_APP_ORIGIN_PORT`
 * (the origin of apps declaring `_meta.ui.domain`; 0 likewise), `HOST` (the interface), and the banner it
 * prints once both listen: `MCP Inspector Web is up and running at: URL` and `Sandbox (MCP Apps): URL`.
 *
 * @module
 */
import { resolveBinary } from "../installed.ts";
import { type ServerProcess, startServerProcess } from "./_server_process.ts";

/** The registry id, and the name of the shim `hosts:install` writes. */
export const MCP_INSPECTOR_ID = "mcp-inspector";

/** The Inspector's default UI port (`CLIENT_PORT`); the YAML description uses it for a hand-started one. */
export const DEFAULT_INSPECTOR_UI_PORT = 6274;

/** How to start the Inspector. */
export interface StartInspectorOptions {
  /** The MCP server it connects to (Streamable HTTP), e.g. `http://127.0.0.1:8765/mcp`. */
  readonly serverUrl: string;
  /** Its UI port on 127.0.0.1 (`CLIENT_PORT`); the Inspector needs a fixed one. */
  readonly uiPort: number;
  /** Its sandbox proxy port (`MCP_SANDBOX_PORT`); 0 (a free port) when absent. */
  readonly sandboxPort?: number;
  /** The program; `CONFORMANCE_MCP_INSPECTOR_BIN`, else the `hosts:install` shim, else `mcp-inspector` on PATH. */
  readonly binary?: string;
  /** How long to wait for its banner (scale it by the timeout multiplier); 60 s when absent. */
  readonly startTimeoutMs?: number;
  /** Stops waiting for the banner (the Inspector is then stopped). */
  readonly signal?: AbortSignal;
}

/** A running Inspector; disposing it ends its process group. */
export interface InspectorProcess extends ServerProcess {
  /** The UI, e.g. `http://127.0.0.1:6274/`. */
  readonly uiUrl: URL;
  /** The sandbox proxy page its banner named. */
  readonly sandboxUrl: URL;
}

/** The Inspector could not listen where it was told (another process holds the port). */
export class InspectorPortInUse extends Error {
  /** The port it could not bind. */
  readonly port: number;
  /** `port` is the UI port the Inspector reported in use. */
  constructor(port: number) {
    super(
      `MCP Inspector could not listen on 127.0.0.1:${port}: the port is in use. Stop whatever holds it ` +
        `(e.g. an Inspector started by hand) or choose another port`,
    );
    this.name = "InspectorPortInUse";
    this.port = port;
  }
}

/**
 * The variables the Inspector is started with. `DANGEROUSLY_OMIT_AUTH` turns off its session token, which
 * guards its backend (able to spawn processes and dial servers) from other pages: acceptable only because it
 * binds loopback (`HOST=127.0.0.1`) and lives for one run with a throwaway `HOME`. The secret store is memory
 * (no OS keychain probe), and it opens no browser of its own.
 *
 * @example
 * ```ts
 * import { inspectorEnv } from "./mcp_inspector_process.ts";
 * inspectorEnv({ uiPort: 6274, sandboxPort: 0, home: "/tmp/h" }).CLIENT_PORT; // "6274"
 * ```
 */
export function inspectorEnv(
  options: { uiPort: number; sandboxPort: number; home: string },
): Record<string, string> {
  return {
    HOME: options.home,
    HOST: "127.0.0.1",
    CLIENT_PORT: String(options.uiPort),
    MCP_SANDBOX_PORT: String(options.sandboxPort),
    MCP_APP_ORIGIN_PORT: "0",
    MCP_AUTO_OPEN_ENABLED: "false",
    DANGEROUSLY_OMIT_AUTH: "true",
    MCP_INSPECTOR_SECRET_STORE: "memory",
  };
}

/**
 * The arguments of its launcher: the web UI, one ad-hoc Streamable HTTP server.
 *
 * @example
 * ```ts
 * import { inspectorArgs } from "./mcp_inspector_process.ts";
 * inspectorArgs("http://127.0.0.1:6280/mcp"); // ["--web", "--transport", "http", "--server-url", "http://…/mcp"]
 * ```
 */
export function inspectorArgs(serverUrl: string): string[] {
  return ["--web", "--transport", "http", "--server-url", serverUrl];
}

/**
 * Starts the Inspector and waits for its banner. Throws {@linkcode InspectorPortInUse} when its UI port is
 * taken, and an Error naming the program when it is not installed or ends before its banner.
 *
 * @example
 * ```ts ignore
 * await using inspector = await startInspector({ serverUrl: "http://127.0.0.1:8765/mcp", uiPort: 6274 });
 * console.log(inspector.uiUrl.href, inspector.sandboxUrl.href);
 * ```
 */
export async function startInspector(options: StartInspectorOptions): Promise<InspectorProcess> {
  const sandboxPort = options.sandboxPort ?? 0;
  const running = await startServerProcess({
    name: "MCP Inspector",
    id: MCP_INSPECTOR_ID,
    shim: MCP_INSPECTOR_ID,
    binary: options.binary ?? resolveBinary(MCP_INSPECTOR_ID, MCP_INSPECTOR_ID),
    args: inspectorArgs(options.serverUrl),
    env: (home) => inspectorEnv({ uiPort: options.uiPort, sandboxPort, home }),
    homePrefix: "conformance-inspector-",
    ready: (output) => /up and running at:/.test(output) && /Sandbox \(MCP Apps\): \S+\n|Auth: /.test(output),
    refusal: (output) => /PORT IS IN USE/.test(output) ? new InspectorPortInUse(options.uiPort) : null,
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = running.output();
  const ui = /up and running at:\s*(http:\/\/\S+)/.exec(text)?.[1];
  const sandbox = /Sandbox \(MCP Apps\): (http:\/\/\S+)/.exec(text)?.[1];
  if (ui === undefined || sandbox === undefined) {
    await running.close().catch(() => {});
    throw new Error(
      `The MCP Inspector started without ${
        ui === undefined ? "a UI URL" : "an MCP Apps sandbox"
      } in its banner`,
    );
  }
  return { ...running, uiUrl: new URL(ui), sandboxUrl: new URL(sandbox) };
}
