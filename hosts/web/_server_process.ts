/**
 * Starting a web host that is a local server program (the MCP Inspector, the mcp-use Inspector: Node programs
 * `deno task hosts:install` installs) in its own process group, with a throwaway HOME, the baseline variables
 * and the run's tag, and waiting until what it printed says it is ready; stopping it with proof that the whole
 * group is gone. Also a free loopback port to give it.
 *
 * @module
 */
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "../../src/exec/env.ts";
import { ABORT_KILL_GRACE_MS, groupAlive, killGroup, trackGroup } from "../../src/exec/process_group.ts";
import { runTagEnv } from "../../src/exec/run_tag.ts";
import { settleWithin } from "../../src/runner/abort.ts";
import { dirname } from "node:path";
import { shimPath } from "../installed.ts";

/** What to start, and how to tell it is ready. */
export interface ServerProcessSpec {
  /** Its name after "The" in messages, e.g. `MCP Inspector`. */
  readonly name: string;
  /** Its registry id, named in the install hint (`hosts:install --only ID`). */
  readonly id: string;
  /** The shim `hosts:install` writes, whose folder the compiled binary needs on PATH. */
  readonly shim: string;
  /** The program to run. */
  readonly binary: string;
  readonly args: readonly string[];
  /** Its own variables, given its throwaway HOME; beside them only the baseline ones are handed on. */
  readonly env: (home: string) => Record<string, string>;
  /** The prefix of its HOME folder's name. */
  readonly homePrefix: string;
  /** Whether what it printed so far (both streams, the last 16 KiB) says it is ready. */
  readonly ready: (output: string) => boolean;
  /** The error to throw for what it printed when it ended or was stopped before it was ready; null: the usual. */
  readonly refusal?: (output: string) => Error | null;
  /** How long to wait until it is ready; 60 s when absent. */
  readonly startTimeoutMs?: number;
  /** Stops waiting until it is ready (it is then stopped), and cuts the SIGTERM grace when it is closed. */
  readonly signal?: AbortSignal;
}

/** A running server program; disposing it ends its process group. */
export interface ServerProcess extends AsyncDisposable {
  /** Its pid, which is also its process group id. */
  readonly pid: number;
  /** What it printed last (for its URLs, and for messages when something went wrong). */
  output(): string;
  /** Ends the process group (SIGTERM, then SIGKILL), removes its HOME, and resolves once the group is gone. */
  close(): Promise<void>;
}

/**
 * A port on 127.0.0.1 that was free a moment ago (the MCP Inspector's UI port cannot be 0).
 *
 * @example
 * ```ts
 * import { freeLoopbackPort } from "./_server_process.ts";
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
 * Starts the program `spec` names and waits until it is ready. Throws an Error naming the program when it is
 * not installed, ends first, is stopped or prints nothing that says ready in time (or `spec.refusal`'s error).
 */
export async function startServerProcess(spec: ServerProcessSpec): Promise<ServerProcess> {
  const the = `The ${spec.name}`;
  const home = await Deno.makeTempDir({ prefix: spec.homePrefix });
  const env = projectEnv({ env: spec.env(home), envAllow: [] }, readEnv(BASELINE_ENV_ALLOW));
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(spec.binary, {
      args: [...spec.args],
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
        `${the} ("${spec.binary}") was not found: install it with "deno task hosts:install --only ` +
          `${spec.id}"; the compiled binary also needs its shim folder first on PATH ` +
          `(export PATH="${dirname(shimPath(spec.shim))}:$PATH")`,
      );
    }
    throw error;
  }
  const pid = child.pid;
  // A second Ctrl-C, or a teardown the abort cut short, finds the group in the registry.
  const untrack = trackGroup(pid);
  let text = "";
  const ready = Promise.withResolvers<void>();
  // Both pipes are read until the end, so a chatty program never blocks on a full pipe.
  const drained = Promise.all([child.stdout, child.stderr].map(async (stream) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text = (text + chunk).slice(-MAX_KEPT_OUTPUT);
      if (spec.ready(text)) ready.resolve();
    }
  })).catch(() => {});
  const status = child.status;
  const { signal } = spec;
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      // The run's abort cuts the SIGTERM grace to ABORT_KILL_GRACE_MS, and the pipes of a killed group are not
      // waited for long (a descendant that left the group may hold them).
      const gone = await killGroup(pid, { graceMs: 5_000, verifyMs: 10_000, ...(signal ? { signal } : {}) });
      await status;
      await settleWithin(drained, signal, ABORT_KILL_GRACE_MS);
      untrack();
      await Deno.remove(home, { recursive: true }).catch(() => {});
      if (!gone || await groupAlive(pid)) {
        throw new Error(`${the}'s process group ${pid} is still alive after SIGKILL`);
      }
    })();
    return closed;
  };
  const timeoutMs = spec.startTimeoutMs ?? 60_000;
  const stopped = Promise.withResolvers<never>();
  const onAbort = () =>
    stopped.reject(new Error(`Stopped waiting for the ${spec.name}: the run was aborted`));
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => stopped.reject(new Error(`${the} printed no banner within ${timeoutMs / 1000} s`)),
    timeoutMs,
  );
  try {
    await Promise.race([
      ready.promise,
      stopped.promise,
      status.then((end) => {
        throw new Error(`${the} ("${spec.binary}") exited with code ${end.code} before it was ready`);
      }),
    ]);
  } catch (error) {
    await close().catch(() => {});
    const refused = spec.refusal?.(text) ?? null;
    if (refused !== null) throw refused;
    const tail = text.trim().split("\n").slice(-5).join(" | ");
    throw new Error(`${error instanceof Error ? error.message : String(error)}${tail ? `: ${tail}` : ""}`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  return { pid, output: () => text, close, [Symbol.asyncDispose]: close };
}
