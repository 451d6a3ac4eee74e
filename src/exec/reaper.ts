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
 * The harness also gives it the run's tag (src/exec/run_tag.ts) as its argument: at the pipe's end it SIGKILLs
 * every process whose environment carries it too, with its group when it leads one. The lines say what the
 * harness knew; the tag finds what it had no time to say (a host spawned a moment before a SIGKILL, whose
 * `+PGID` never reached the pipe) and what left its group while carrying the environment on.
 *
 * What it cannot do: end a process that cleared its environment after leaving its host's group
 * (src/exec/escapes.ts finds the others while the harness lives), or survive a signal sent to it directly.
 *
 * @module
 */
import { onGroupTracking, onLaunchTracking, signalGroup, signalProcess } from "./process_group.ts";
import { ps } from "./ps.ts";
import { carriesTag } from "./run_tag.ts";
import type { SelfCommand } from "./self.ts";
import { delay, raceDelay } from "../time.ts";

/** What the reaper does at the end; tests pass their own. */
export interface ReaperActions {
  /** SIGKILLs a whole group. */
  readonly killGroup: (pgid: number) => void;
  /** SIGKILLs one process. */
  readonly killProcess: (pid: number) => void;
  /**
   * Every process as `PID PGID ARGS…`, followed by its environment where the system shows it
   * (`ps -A -ww -o pid=,pgid=,args= e` on Linux), or null when it cannot be listed.
   */
  readonly list: () => Promise<string | null>;
  /** Waits between the two searches for launch markers. */
  readonly pause: (ms: number) => Promise<void>;
  /** Removes a launch's folder and what is in it; absent: folders are left. */
  readonly remove?: (path: string) => Promise<void>;
}

const ACTIONS: ReaperActions = {
  killGroup: (pgid) => killQuietly(() => signalGroup(pgid, "SIGKILL")),
  killProcess: (pid) => killQuietly(() => signalProcess(pid, "SIGKILL")),
  list: () => ps(listArgs()),
  pause: (ms) => delay(ms),
  remove: (path) => Deno.remove(path, { recursive: true }).catch(() => {}),
};

/** The `ps` arguments that list every process with its group and command line, and its environment if shown. */
function listArgs(): string[] {
  if (Deno.build.os === "linux") return ["-A", "-ww", "-o", "pid=,pgid=,args=", "e"];
  if (Deno.build.os === "darwin") return ["-A", "-ww", "-E", "-o", "pid=,pgid=,command="];
  return ["-A", "-o", "pid=,pgid=,args="];
}

/**
 * The pause between the two searches for a launch's marker: a launcher that forked but had not yet exec'd the
 * program (so its command line had no marker) at the first search has by the second.
 */
export const MARKER_SEARCH_GAP_MS = 250;

/** The line the harness sends when its run ended in order, before closing the pipe: no sweep by the tag. */
export const ORDERLY_END = "=end";

/** The longest line the reaper reads: a marker is a temporary folder's path. */
const MAX_LINE = 4_096;

/**
 * The reaper's side: reads `+PGID`/`-PGID` (a group) and `+@MARKER`/`-@MARKER` (a launch's unique folder,
 * found on the command lines of its processes: one not yet in a known group, or one that left it) lines until
 * EOF, then SIGKILLs what is left: every group listed, every process naming a listed marker and every process
 * whose environment carries the run's tag `tag` (each with its group when it leads one). Returns the exit code.
 */
export async function reaperMain(
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  actions: ReaperActions = ACTIONS,
  tag?: string,
): Promise<number> {
  const groups = new Set<number>();
  const markers = new Set<string>();
  const decoder = new TextDecoder();
  let pending = "";
  let orderly = false;
  const apply = (line: string) => {
    if (line.trim() === ORDERLY_END) {
      orderly = true;
      return;
    }
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
  // After an orderly end every host is gone, and another run in the same process may carry the same tag.
  const runTag = !orderly && tag !== undefined && /^[0-9a-f]{32}$/.test(tag) ? tag : null;
  if (markers.size > 0 || runTag !== null) {
    const profiles = new Set<string>();
    const found = await killMarked(markers, runTag, actions, profiles);
    // A second search for what was between fork and exec (no marker yet), or forked by a process killed alone.
    if (markers.size > 0 || found > 0) {
      await actions.pause(MARKER_SEARCH_GAP_MS);
      await killMarked(markers, runTag, actions, profiles);
    }
    // A marker is a temporary folder of the launch (its config, the browser's profile): with its processes
    // gone, nothing is left to clean it up but this. So is the throwaway profile of a browser killed here,
    // which Playwright made before the harness could list it.
    for (const folder of new Set([...markers, ...profiles])) await actions.remove?.(folder);
  }
  return 0;
}

/**
 * Kills every process whose command line names a listed marker as a path (the whole path, or a folder of a
 * path, anywhere in it: `--flag=MARKER`, `--database=MARKER/x`), or whose environment carries the run's tag: a
 * group leader with its group. Resolves to how many it killed.
 */
async function killMarked(
  markers: ReadonlySet<string>,
  tag: string | null,
  actions: ReaperActions,
  profiles: Set<string>,
): Promise<number> {
  const listing = await actions.list();
  if (listing === null) return 0;
  let killed = 0;
  for (const line of listing.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const id = Number(match[1]);
    if (!Number.isSafeInteger(id) || id <= 1 || id === Deno.pid) continue;
    const named = [...markers].some((marker) => namesPath(match[3]!, marker));
    if (!named && (tag === null || !carriesTag(match[3]!, tag))) continue;
    const pgid = match[2];
    if (Number(pgid) === id) actions.killGroup(id);
    else actions.killProcess(id);
    killed++;
    const profile = throwawayProfile(match[3]!);
    if (profile !== null) profiles.add(profile);
  }
  return killed;
}

/**
 * The `--user-data-dir` of a browser command line when it is a throwaway profile Playwright made in a temp
 * folder (`…/playwright_chromiumdev_profile-XXXXXX`), else null: a profile a user chose is never removed.
 */
export function throwawayProfile(commandLine: string): string | null {
  const match = /(?:^|\s)--user-data-dir=(\/\S*\/playwright_[a-z]+dev_profile-[A-Za-z0-9]+)(?=\s|$)/.exec(
    commandLine,
  );
  return match ? match[1]! : null;
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
   * The run is over, in order: stops telling the reaper and closes its pipe, so it ends whatever group is
   * still listed (without the sweep by the run's tag) and exits. Resolves when it has (at most
   * {@linkcode REAPER_CLOSE_MS} later). An interrupted run does not call it: its exit closes the pipe, so the
   * reaper outlives whatever the teardown was still ending.
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
  /** The run's tag (src/exec/run_tag.ts), passed as the reaper's argument: what carries it is swept too. */
  readonly tag?: string;
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
      args: [...options.command.args, ...(options.tag === undefined ? [] : [options.tag])],
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
    send(ORDERLY_END);
    await writer.close().catch(() => {});
    await raceDelay([child.status], REAPER_CLOSE_MS);
  };
  return { pid: child.pid, close };
}
