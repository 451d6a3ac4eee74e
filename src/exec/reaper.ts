/**
 * The reaper: a small process of the harness's own that ends every host group the harness still had when the
 * harness dies without running its handlers — a supervisor's SIGKILL (`timeout -k`, a CI runner cancelling a
 * job), the kernel's OOM killer. No signal handler runs then, and Linux's "kill my children when I die"
 * (`PR_SET_PDEATHSIG`, a subreaper) is out of Deno's reach, so the harness keeps a witness instead.
 *
 * The reaper is the harness program itself (`conformance __reaper`), started in a process group of its own so
 * a terminal's Ctrl-C and a supervisor's signal to the harness's group do not reach it. Its stdin is a pipe
 * from the harness: `+PGID` when the harness starts a group ({@linkcode trackGroup}), `-PGID` when it has seen
 * the group gone. The pipe's end — the harness exited, however — makes the reaper SIGKILL every group still
 * listed and exit. After an orderly run nothing is listed and it exits at once.
 *
 * What it cannot do: end a process that left its host's group (src/exec/escapes.ts finds those while the
 * harness lives), or survive a signal sent to it directly.
 *
 * @module
 */
import { onGroupTracking, signalGroup } from "./process_group.ts";
import type { SelfCommand } from "./self.ts";
import { raceDelay } from "../time.ts";

/** The reaper's side: reads `+PGID`/`-PGID` lines until EOF, then SIGKILLs what is left. Returns the exit code. */
export async function reaperMain(
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  kill: (pgid: number) => void = killQuietly,
): Promise<number> {
  const groups = new Set<number>();
  const decoder = new TextDecoder();
  let pending = "";
  const apply = (line: string) => {
    const match = /^([+-])(\d+)$/.exec(line.trim());
    if (!match) return;
    const pgid = Number(match[2]);
    if (!Number.isSafeInteger(pgid) || pgid <= 1) return;
    if (match[1] === "+") groups.add(pgid);
    else groups.delete(pgid);
  };
  try {
    for await (const chunk of input) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) apply(line);
      // A harness gone mad must not grow the reaper without bound: a line is a few bytes.
      if (pending.length > 64) pending = "";
    }
  } catch {
    // A broken pipe is the harness's end too.
  }
  apply(pending);
  for (const pgid of groups) kill(pgid);
  return 0;
}

function killQuietly(pgid: number): void {
  try {
    signalGroup(pgid, "SIGKILL");
  } catch {
    // Not ours any more, or gone: nothing to do.
  }
}

/** The harness's side: a running reaper, told of every group the harness tracks. */
export interface Reaper {
  /** The reaper's pid (its own group). */
  readonly pid: number;
  /**
   * The run is over: stops telling the reaper and closes its pipe, so it ends whatever group is still listed
   * and exits. Resolves when it has (at most {@linkcode REAPER_CLOSE_MS} later).
   */
  readonly close: () => Promise<void>;
}

/** The variables the reaper keeps: `kill` is found on PATH, and Deno finds its cache through the rest. */
export const REAPER_ENV_NAMES = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"] as const;

/** The reaper's environment, from the harness's: only {@linkcode REAPER_ENV_NAMES}. */
export function reaperEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    REAPER_ENV_NAMES.flatMap((name) => env[name] === undefined ? [] : [[name, env[name]!]]),
  );
}

/** Longest {@linkcode Reaper.close} waits for the reaper to exit. */
export const REAPER_CLOSE_MS = 1_000;

/** What {@linkcode startReaper} needs: the command that starts `conformance __reaper`, and its environment. */
export interface ReaperOptions {
  readonly command: SelfCommand;
  /** The reaper's whole environment (it needs only PATH, to find `kill`, and what starts Deno). */
  readonly env: Record<string, string>;
}

/**
 * Starts the reaper and tells it of every group tracked from now on. The child is unref'd: it never keeps the
 * harness alive, and its stdin closes with the harness. Returns null when it cannot start (the run goes on
 * without the witness; its handlers still end every group on a catchable signal).
 */
export function startReaper(options: ReaperOptions): Reaper | null {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(options.command.binary, {
      args: [...options.command.args],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
      detached: true,
      clearEnv: true,
      env: options.env,
    }).spawn();
  } catch {
    return null;
  }
  child.unref();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const send = (line: string) => void writer.write(encoder.encode(`${line}\n`)).catch(() => {});
  const detach = onGroupTracking((change, pgid) => send(`${change}${pgid}`));
  const close = async () => {
    detach();
    await writer.close().catch(() => {});
    await raceDelay([child.status], REAPER_CLOSE_MS);
  };
  return { pid: child.pid, close };
}
