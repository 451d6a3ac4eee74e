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
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "../../src/exec/env.ts";
import { ABORT_KILL_GRACE_MS, groupAlive, killGroup, trackGroup } from "../../src/exec/process_group.ts";
import { runTagEnv } from "../../src/exec/run_tag.ts";
import { settleWithin } from "../../src/runner/abort.ts";
import { dirname } from "node:path";
import { shimPath } from "../cli/_installed.ts";
import { resolveBinary } from "../cli/_real_host.ts";

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
export interface McpUseProcess extends AsyncDisposable {
  /** Its pid, which is also its process group id. */
  readonly pid: number;
  /** Its UI as it printed it, e.g. `http://localhost:41234/inspector`. */
  readonly uiUrl: URL;
  /** What it printed last. */
  output(): string;
  /** Ends the process group (SIGTERM, then SIGKILL), removes its HOME, resolves once the group is gone. */
  close(): Promise<void>;
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

const MAX_KEPT_OUTPUT = 16_384;
const BANNER = /MCP Inspector started at (http:\/\/\S+)/;

/** Starts it and waits for its banner; throws naming the program when it is missing or ends first. */
export async function startMcpUse(options: StartMcpUseOptions): Promise<McpUseProcess> {
  const binary = resolveBinary(MCP_USE_ID, MCP_USE_BINARY);
  const home = await Deno.makeTempDir({ prefix: "conformance-mcp-use-" });
  const env = projectEnv({ env: mcpUseEnv(home), envAllow: [] }, readEnv(BASELINE_ENV_ALLOW));
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(binary, {
      args: mcpUseArgs(options.serverUrl, options.port),
      cwd: home,
      // The run's tag: the reaper finds its processes by it after a SIGKILL (src/exec/run_tag.ts).
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
        `The mcp-use Inspector ("${binary}") was not found: install it with "deno task hosts:install --only ` +
          `mcp-use"; the compiled binary also needs its shim folder first on PATH ` +
          `(export PATH="${dirname(shimPath(MCP_USE_BINARY))}:$PATH")`,
      );
    }
    throw error;
  }
  const pid = child.pid;
  const untrack = trackGroup(pid);
  let text = "";
  const banner = Promise.withResolvers<void>();
  const drained = Promise.all([child.stdout, child.stderr].map(async (stream) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text = (text + chunk).slice(-MAX_KEPT_OUTPUT);
      if (BANNER.test(text)) banner.resolve();
    }
  })).catch(() => {});
  const status = child.status;
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      const { signal } = options;
      const gone = await killGroup(pid, { graceMs: 5_000, verifyMs: 10_000, ...(signal ? { signal } : {}) });
      await status;
      await settleWithin(drained, signal, ABORT_KILL_GRACE_MS);
      untrack();
      await Deno.remove(home, { recursive: true }).catch(() => {});
      if (!gone || await groupAlive(pid)) {
        throw new Error(`The mcp-use Inspector's process group ${pid} is still alive after SIGKILL`);
      }
    })();
    return closed;
  };
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const stopped = Promise.withResolvers<never>();
  const onAbort = () =>
    stopped.reject(new Error("Stopped waiting for the mcp-use Inspector: the run was aborted"));
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => stopped.reject(new Error(`The mcp-use Inspector printed no banner within ${timeoutMs / 1000} s`)),
    timeoutMs,
  );
  try {
    await Promise.race([
      banner.promise,
      stopped.promise,
      status.then((end) => {
        throw new Error(
          `The mcp-use Inspector ("${binary}") exited with code ${end.code} before it was ready`,
        );
      }),
    ]);
  } catch (error) {
    await close().catch(() => {});
    const tail = text.trim().split("\n").slice(-5).join(" | ");
    throw new Error(`${error instanceof Error ? error.message : String(error)}${tail ? `: ${tail}` : ""}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  const ui = BANNER.exec(text)?.[1] ?? "";
  return { pid, uiUrl: new URL(ui), output: () => text, close, [Symbol.asyncDispose]: close };
}
