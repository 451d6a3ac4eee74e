/**
 * The reaper: a small process of the harness's own that ends every host group the harness still had when the
 * harness dies without running its handlers — a supervisor's SIGKILL (`timeout -k`, a CI runner cancelling a
 * job), the kernel's OOM killer. No signal handler runs then, and Linux's "kill my children when I die"
 * (`PR_SET_PDEATHSIG`, a subreaper) is out of Deno's reach, so the harness keeps a witness instead.
 *
 * The reaper is the harness program itself (`conformance __reaper`), started in a process group of its own so
 * a terminal's Ctrl-C and a supervisor's signal to the harness's group do not reach it. Its stdin is a pipe
 * from the harness: `+PGID` when the harness starts a group ({@linkcode trackGroup}), `-PGID` when it has seen
 * the group gone; `+@MARKER`/`-@MARKER` around a launch, MARKER being its unique folder (src/runner/chromium.ts:
 * Chromium while Playwright starts it, before its pid is known, and its crashpad daemons, which leave its
 * group), found then by that folder on their command lines. The pipe's end — the harness exited, however —
 * makes the reaper SIGKILL every group still listed and every process naming a listed folder, remove those
 * folders, and exit. After an orderly run nothing is listed and it exits at once.
 *
 * What it cannot do: end a process that left its host's group (src/exec/escapes.ts finds those while the
 * harness lives), or survive a signal sent to it directly.
 *
 * @module
 */
import { onGroupTracking, onLaunchTracking, signalGroup, signalProcess } from "./process_group.ts";
import { ps } from "./ps.ts";
import type { SelfCommand } from "./self.ts";
import { delay, raceDelay } from "../time.ts";

/** What the reaper does at the end; tests pass their own. */
export interface ReaperActions {
  /** SIGKILLs a whole group. */
  readonly killGroup: (pgid: number) => void;
  /** SIGKILLs one process. */
  readonly killProcess: (pid: number) => void;
  /** `ps -A -o pid=,pgid=,args=`, or null when it cannot be listed. */
  readonly list: () => Promise<string | null>;
  /** Waits between the two searches for launch markers. */
  readonly pause: (ms: number) => Promise<void>;
  /** Removes a launch's folder and what is in it; absent: folders are left. */
  readonly remove?: (path: string) => Promise<void>;
}

const ACTIONS: ReaperActions = {
  killGroup: (pgid) => killQuietly(() => signalGroup(pgid, "SIGKILL")),
  killProcess: (pid) => killQuietly(() => signalProcess(pid, "SIGKILL")),
  list: () => ps(["-A", "-o", "pid=,pgid=,args="]),
  pause: (ms) => delay(ms),
  remove: (path) => Deno.remove(path, { recursive: true }).catch(() => {}),
};

/**
 * The pause between the two searches for a launch's marker: a launcher that forked but had not yet exec'd the
 * program (so its command line had no marker) at the first search has by the second.
 */
export const MARKER_SEARCH_GAP_MS = 250;

/** The longest line the reaper reads: a marker is a temporary folder's path. */
const MAX_LINE = 4_096;

/**
 * The reaper's side: reads `+PGID`/`-PGID` (a group) and `+@MARKER`/`-@MARKER` (a launch's unique folder,
 * found on the command lines of its processes: one not yet in a known group, or one that left it) lines until
 * EOF, then SIGKILLs what is left: every group listed, and every process naming a listed marker (with its group
 * when it leads one). Returns the exit code.
 */
export async function reaperMain(
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  actions: ReaperActions = ACTIONS,
): Promise<number> {
  const groups = new Set<number>();
  const markers = new Set<string>();
  const decoder = new TextDecoder();
  let pending = "";
  const apply = (line: string) => {
    const launch = /^([+-])@(\S+)$/.exec(line.trim());
    if (launch) {
      const marker = launch[2]!;
      if (launch[1] === "+") markers.add(marker);
      else markers.delete(marker);
      return;
    }
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
      // A harness gone mad must not grow the reaper without bound: a line is a pid or a path.
      if (pending.length > MAX_LINE) pending = "";
    }
  } catch {
    // A broken pipe is the harness's end too.
  }
  apply(pending);
  for (const pgid of groups) actions.killGroup(pgid);
  if (markers.size > 0) {
    await killMarked(markers, actions);
    await actions.pause(MARKER_SEARCH_GAP_MS);
    await killMarked(markers, actions);
    // A marker is a temporary folder of the launch (its config, the browser's profile): with its processes
    // gone, nothing is left to clean it up but this.
    for (const marker of markers) await actions.remove?.(marker);
  }
  return 0;
}

/**
 * Kills every process whose command line names a listed marker as a path (the whole path, or a folder of a
 * path, anywhere in it: `--flag=MARKER`, `--database=MARKER/x`): a group leader with its group.
 */
async function killMarked(markers: ReadonlySet<string>, actions: ReaperActions): Promise<void> {
  const listing = await actions.list();
  if (listing === null) return;
  for (const line of listing.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const id = Number(match[1]);
    if (!Number.isSafeInteger(id) || id <= 1 || id === Deno.pid) continue;
    if (![...markers].some((marker) => namesPath(match[3]!, marker))) continue;
    const pgid = match[2];
    if (Number(pgid) === id) actions.killGroup(id);
    else actions.killProcess(id);
  }
}

/** Whether `commandLine` names `path` itself or something in it: a match not followed by more of a name. */
export function namesPath(commandLine: string, path: string): boolean {
  for (let at = commandLine.indexOf(path); at >= 0; at = commandLine.indexOf(path, at + 1)) {
    const next = commandLine[at + path.length];
    if (next === undefined || next === "/" || /\s/.test(next)) return true;
  }
  return false;
}

function killQuietly(kill: () => void): void {
  try {
    kill();
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
  const detachGroups = onGroupTracking((change, pgid) => send(`${change}${pgid}`));
  const detachLaunches = onLaunchTracking((change, marker) => send(`${change}@${marker}`));
  const close = async () => {
    detachGroups();
    detachLaunches();
    await writer.close().catch(() => {});
    await raceDelay([child.status], REAPER_CLOSE_MS);
  };
  return { pid: child.pid, close };
}
