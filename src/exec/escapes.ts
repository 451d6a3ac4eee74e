/**
 * Finding and ending the processes a host started that left its process group (`setsid`, a daemon's double
 * fork): the group kill cannot reach them, and without this they outlive the run and may hold its stdout open.
 *
 * Every spawn's environment carries a fresh random tag ({@linkcode SPAWN_TAG_ENV}); every process the host
 * starts inherits it unless it clears its environment. After the host exits, the processes whose environment
 * carries the tag and whose process group is not the host's are the escaped ones: they are signalled by pid,
 * SIGTERM and then SIGKILL, and only while a fresh scan still shows them with the tag.
 *
 * Why a tag found through `ps`: Deno refuses to read `/proc` under the harness's permission set (`--allow-all`
 * only), but `ps` is on its run list and reads `/proc/<pid>/environ` itself (`ps e`); a child subreaper
 * (`prctl(PR_SET_CHILD_SUBREAPER)`) is not reachable from Deno, and a cgroup needs privileges the harness
 * does not have. What it cannot see: a process that cleared or rewrote its environment, one of another user
 * (setuid), and on macOS whatever `ps -E` does not show. See docs/process-groups.md.
 *
 * @module
 */
import { ABORT_KILL_GRACE_MS, signalProcessAsync, trackEscaped } from "./process_group.ts";
import { freshListing, ps } from "./ps.ts";

/** The variable carrying a spawn's tag in the child's environment. Not a secret; unique per spawn. */
export const SPAWN_TAG_ENV = "CONFORMANCE_SPAWN_TAG";

/** A fresh tag for one spawn: 128 random bits, so no unrelated process can carry it. */
export function newSpawnTag(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/** A process found carrying a spawn's tag outside the host's group. */
export interface EscapedProcess {
  readonly pid: number;
  readonly pgid: number;
  /** Its command line (without its environment), cut to 200 characters. */
  readonly command: string;
}

/** The `ps` arguments that list every process with its group, state and environment, or `null` here. */
function scanArgs(): string[] | null {
  if (Deno.build.os === "linux") return ["-A", "-ww", "-o", "pid=,pgid=,stat=,args=", "e"];
  if (Deno.build.os === "darwin") return ["-A", "-ww", "-E", "-o", "pid=,pgid=,stat=,command="];
  return null;
}

/**
 * A listing of every process with its environment, taken after this call, shared by concurrent callers
 * (src/exec/ps.ts): a tier ends dozens of hosts at once, and each scan reads every process's environment.
 */
const listing = (() => {
  const args = scanArgs();
  return args === null ? () => Promise.resolve(null) : freshListing(args);
})();

/**
 * A listing of every process as `PID PGID STAT ARGS ENV…` lines, begun after this call (shared with concurrent
 * callers), or `null` where `ps` cannot show environments. One listing taken after the host's exit answers both
 * whether its group is gone (src/exec/process_group.ts `groupAlive`) and which processes escaped it
 * ({@linkcode EscapeHunt.sweep}): the executor's success path pays one `ps`, not two.
 */
export function processListing(): Promise<string | null> {
  return listing();
}

/**
 * The live processes outside group `pgid` whose environment carries `SPAWN_TAG_ENV=tag`, as `pid → pgid`;
 * zombies are gone. `null` when `ps` cannot be run or cannot show environments on this system.
 */
export async function taggedOutside(
  tag: string,
  pgid: number,
  taken?: Promise<string | null>,
): Promise<Map<number, number> | null> {
  const text = await (taken ?? listing());
  if (text === null) return null;
  const marker = `${SPAWN_TAG_ENV}=${tag}`;
  const found = new Map<number, number>();
  for (const line of text.split("\n")) {
    const at = line.indexOf(marker);
    if (at < 0) continue;
    const after = line[at + marker.length];
    if (line[at - 1] !== " " || (after !== undefined && after !== " ")) continue;
    const [pid, group, state] = line.trim().split(/\s+/, 3).map((field) => field ?? "");
    if (state!.startsWith("Z") || state!.startsWith("X")) continue;
    const id = Number(pid);
    if (Number.isSafeInteger(id) && id > 1 && id !== Deno.pid && Number(group) !== pgid) {
      found.set(id, Number(group));
    }
  }
  return found;
}

/** The command lines of `pids` (no environment), for the violation message. */
async function commandsOf(pids: readonly number[]): Promise<Map<number, string>> {
  const text = await ps(["-ww", "-o", "pid=,args=", "-p", pids.join(",")]) ?? "";
  const commands = new Map<number, string>();
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match) commands.set(Number(match[1]), match[2]!.slice(0, 200));
  }
  return commands;
}

/** Options of {@linkcode EscapeHunt}. Times are in milliseconds. */
export interface EscapeHuntOptions {
  /** Between SIGTERM and SIGKILL; 0 sends SIGKILL at once. */
  readonly graceMs: number;
  /** How long to wait for them to be gone after SIGKILL. */
  readonly verifyMs: number;
  /** The run's abort: once aborted, the grace is cut to `ABORT_KILL_GRACE_MS`. */
  readonly signal?: AbortSignal;
}

/** Hunts one spawn's escaped processes; each {@linkcode sweep} finds and ends those alive now. */
export class EscapeHunt {
  readonly #tag: string;
  readonly #pgid: number;
  readonly #options: EscapeHuntOptions;
  readonly #found = new Map<number, EscapedProcess>();
  #running: Promise<void> = Promise.resolve();
  /** Forgets the pids signalled in this sweep: until it ends, a second Ctrl-C SIGKILLs them (killLiveGroups). */
  readonly #tracked: (() => void)[] = [];
  /** Whether every process found was seen gone; `false` also when `ps` could not tell. */
  allGone = true;
  /** Whether `ps` could not list environments here (nothing can be found). */
  blind = false;

  constructor(tag: string, pgid: number, options: EscapeHuntOptions) {
    this.#tag = tag;
    this.#pgid = pgid;
    this.#options = options;
  }

  /** Every escaped process found so far, in the order found. */
  get found(): readonly EscapedProcess[] {
    return [...this.#found.values()];
  }

  /**
   * Finds the escaped processes alive now and ends them; sweeps run one after another. `taken`, a
   * {@linkcode processListing} begun when the host's group was already gone, serves as the first scan: no
   * process can join the escaped ones after it but by a process it shows (which is then hunted, and the hunt
   * rescans until none is left).
   */
  sweep(taken?: Promise<string | null>): Promise<void> {
    this.#running = this.#running.then(() => this.#sweep(taken));
    return this.#running;
  }

  async #scan(taken?: Promise<string | null>): Promise<Map<number, number>> {
    const alive = await taggedOutside(this.#tag, this.#pgid, taken);
    if (alive === null) {
      this.blind = true;
      return new Map();
    }
    const fresh = [...alive.keys()].filter((pid) => !this.#found.has(pid));
    if (fresh.length > 0) {
      const commands = await commandsOf(fresh);
      for (const pid of fresh) {
        this.#found.set(pid, { pid, pgid: alive.get(pid)!, command: commands.get(pid) ?? "?" });
      }
    }
    return alive;
  }

  async #sweep(taken?: Promise<string | null>): Promise<void> {
    const alive = await this.#scan(taken);
    if (alive.size === 0) return;
    try {
      await this.#end(alive);
    } finally {
      for (const forget of this.#tracked.splice(0)) forget();
    }
  }

  async #end(alive: Map<number, number>): Promise<void> {
    const { graceMs, verifyMs, signal } = this.#options;
    const grace = signal?.aborted ? Math.min(graceMs, ABORT_KILL_GRACE_MS) : graceMs;
    if (grace > 0) {
      alive = await this.#signalUntilGone(alive, "SIGTERM", grace);
      if (alive.size === 0 && !this.blind) return;
    }
    alive = await this.#signalUntilGone(alive, "SIGKILL", verifyMs);
    // A listing that failed midway proves nothing gone.
    if (alive.size > 0 || this.blind) this.allGone = false;
  }

  /**
   * Sends `sig` to each process of `alive`, then rescans until none is left or `ms` passes, signalling any
   * newcomer too; only pids the latest scan showed with the tag are signalled. Returns those still alive.
   */
  async #signalUntilGone(
    alive: Map<number, number>,
    sig: Deno.Signal,
    ms: number,
  ): Promise<Map<number, number>> {
    const signalled = new Set<number>();
    const abort = this.#options.signal;
    let deadline = performance.now() + ms;
    for (let pause = 10;; pause = Math.min(pause * 2, 100)) {
      if (sig === "SIGTERM" && abort?.aborted) {
        deadline = Math.min(deadline, performance.now() + ABORT_KILL_GRACE_MS);
      }
      const sending = [...alive.keys()].filter((pid) => !signalled.has(pid)).map((pid) => {
        signalled.add(pid);
        this.#tracked.push(trackEscaped(pid));
        // Not ours to signal after all (another user's): it stays in `alive`, and so not all gone.
        return signalProcessAsync(pid, sig).catch(() => false);
      });
      // All at once, in one `kill` where Deno.kill is refused (src/exec/process_group.ts).
      await Promise.all(sending);
      if (performance.now() >= deadline) return alive;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline - performance.now())));
      alive = await this.#scan();
      if (alive.size === 0) return alive;
    }
  }
}

/** One line saying which escaped processes were found and what became of them. */
export function describeEscapes(found: readonly EscapedProcess[], allGone: boolean): string {
  const shown = found.slice(0, 5).map((process) => `pid ${process.pid} (${process.command})`).join(", ");
  const more = found.length > 5 ? ` and ${found.length - 5} more` : "";
  const end = allGone ? "the executor killed them" : "the executor could not kill them all";
  return `${found.length} process(es) the host started left its process group and outlived it: ${shown}${more}; ` +
    end;
}
