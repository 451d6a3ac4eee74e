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
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "../../src/exec/env.ts";
import { ABORT_KILL_GRACE_MS, groupAlive, killGroup, trackGroup } from "../../src/exec/process_group.ts";
import { runTagEnv } from "../../src/exec/run_tag.ts";
import { settleWithin } from "../../src/runner/abort.ts";
import { dirname } from "node:path";
import { shimPath } from "../cli/_installed.ts";
import { resolveBinary } from "../cli/_real_host.ts";

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
export interface InspectorProcess extends AsyncDisposable {
  /** Its pid, which is also its process group id. */
  readonly pid: number;
  /** The UI, e.g. `http://127.0.0.1:6274/`. */
  readonly uiUrl: URL;
  /** The sandbox proxy page its banner named. */
  readonly sandboxUrl: URL;
  /** The last lines it printed (for messages when something went wrong). */
  output(): string;
  /** Ends the process group (SIGTERM, then SIGKILL), removes its HOME, and resolves once the group is gone. */
  close(): Promise<void>;
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
 * A port on 127.0.0.1 that was free a moment ago (the Inspector's UI port cannot be 0).
 *
 * @example
 * ```ts
 * import { freeLoopbackPort } from "./mcp_inspector_process.ts";
 * const port = freeLoopbackPort(); // e.g. 41873
 * ```
 */
export function freeLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    return (listener.addr as Deno.NetAddr).port;
  } finally {
    listener.close();
  }
}

const MAX_KEPT_OUTPUT = 16_384;

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
  const binary = options.binary ?? resolveBinary(MCP_INSPECTOR_ID, MCP_INSPECTOR_ID);
  const home = await Deno.makeTempDir({ prefix: "conformance-inspector-" });
  const env = projectEnv(
    {
      env: inspectorEnv({ uiPort: options.uiPort, sandboxPort: options.sandboxPort ?? 0, home }),
      envAllow: [],
    },
    readEnv(BASELINE_ENV_ALLOW),
  );
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(binary, {
      args: inspectorArgs(options.serverUrl),
      cwd: home,
      // The run's tag: the reaper finds the Inspector's processes by it (src/exec/run_tag.ts).
      env: { ...env, ...runTagEnv() },
      clearEnv: true,
      detached: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    await Deno.remove(home, { recursive: true }).catch(() => {});
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        `The MCP Inspector ("${binary}") was not found: install it with "deno task hosts:install --only ` +
          `mcp-inspector"; the compiled binary also needs its shim folder first on PATH ` +
          `(export PATH="${dirname(shimPath(MCP_INSPECTOR_ID))}:$PATH")`,
      );
    }
    throw error;
  }
  const pid = child.pid;
  // A second Ctrl-C, or a teardown the abort cut short, finds the group in the registry.
  const untrack = trackGroup(pid);
  let text = "";
  const banner = Promise.withResolvers<void>();
  const keep = (chunk: string) => {
    text = (text + chunk).slice(-MAX_KEPT_OUTPUT);
    if (/up and running at:/.test(text) && /Sandbox \(MCP Apps\): \S+\n|Auth: /.test(text)) banner.resolve();
  };
  // Both pipes are read until the end, so a chatty Inspector never blocks on a full pipe.
  const drained = Promise.all([child.stdout, child.stderr].map(async (stream) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) keep(chunk);
  })).catch(() => {});
  const status = child.status;
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      // The run's abort cuts the SIGTERM grace to ABORT_KILL_GRACE_MS, and the pipes of a killed group are not
      // waited for long (a descendant that left the group may hold them).
      const { signal } = options;
      const gone = await killGroup(pid, { graceMs: 5_000, verifyMs: 10_000, ...(signal ? { signal } : {}) });
      await status;
      await settleWithin(drained, signal, ABORT_KILL_GRACE_MS);
      untrack();
      await Deno.remove(home, { recursive: true }).catch(() => {});
      if (!gone || await groupAlive(pid)) {
        throw new Error(`The MCP Inspector's process group ${pid} is still alive after SIGKILL`);
      }
    })();
    return closed;
  };
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const stopped = Promise.withResolvers<never>();
  const onAbort = () =>
    stopped.reject(new Error("Stopped waiting for the MCP Inspector: the run was aborted"));
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => stopped.reject(new Error(`The MCP Inspector printed no banner within ${timeoutMs / 1000} s`)),
    timeoutMs,
  );
  try {
    await Promise.race([
      banner.promise,
      stopped.promise,
      status.then((end) => {
        throw new Error(`The MCP Inspector ("${binary}") exited with code ${end.code} before it was ready`);
      }),
    ]);
  } catch (error) {
    await close().catch(() => {});
    if (/PORT IS IN USE/.test(text)) throw new InspectorPortInUse(options.uiPort);
    const tail = text.trim().split("\n").slice(-5).join(" | ");
    throw new Error(`${error instanceof Error ? error.message : String(error)}${tail ? `: ${tail}` : ""}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  const ui = /up and running at:\s*(http:\/\/\S+)/.exec(text)?.[1];
  const sandbox = /Sandbox \(MCP Apps\): (http:\/\/\S+)/.exec(text)?.[1];
  if (ui === undefined || sandbox === undefined) {
    await close().catch(() => {});
    throw new Error(
      `The MCP Inspector started without ${
        ui === undefined ? "a UI URL" : "an MCP Apps sandbox"
      } in its banner`,
    );
  }
  return {
    pid,
    uiUrl: new URL(ui),
    sandboxUrl: new URL(sandbox),
    output: () => text,
    close,
    [Symbol.asyncDispose]: close,
  };
}
