/**
 * Process-group signalling for children spawned with `detached: true` (pid == pgid). Every signal goes through
 * {@linkcode signalGroup}, which refuses a process group id ≤ 1: `kill(-1, …)` would signal every process the
 * harness may signal.
 *
 * @module
 */
import process from "node:process";

/** Sends `signal` to the whole group. Returns false when the group is already gone. Throws on a pgid ≤ 1. */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) {
    throw new RangeError(
      `Refusing to signal process group ${pgid}: only a child's own group (> 1) may be signalled`,
    );
  }
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return killBinary(pgid, signal);
    if (error instanceof Deno.errors.NotFound) return false;
    // ESRCH surfaces differently across versions; anything else is a real failure.
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return false;
    throw error;
  }
}

/**
 * Sends `signal` to the one process `pid`, by pid: for a process that left the group of the host that started
 * it (src/exec/escapes.ts). Returns false when it is already gone. Throws on a pid ≤ 1 or the harness's own.
 */
export function signalProcess(pid: number, signal: Deno.Signal): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1 || pid === Deno.pid) {
    throw new RangeError(`Refusing to signal process ${pid}: only a process a host started may be signalled`);
  }
  try {
    Deno.kill(pid, signal);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return killBinary(pid, signal, String(pid));
    if (error instanceof Deno.errors.NotFound) return false;
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return false;
    throw error;
  }
}

/**
 * Signals the group (or, given `target`, that process) through the `kill` binary. `Deno.kill` needs
 * unrestricted run access, which the harness's permission set (src/permissions.ts) does not grant; running
 * `kill` does. Signal 0 only probes.
 */
function killBinary(pgid: number, signal: Deno.Signal | 0, target = `-${pgid}`): boolean {
  const args = signal === 0 ? ["-0"] : ["-s", signal.replace(/^SIG/, "")];
  for (let attempt = 0;; attempt++) {
    // Detached: a Ctrl-C to the harness's group must not kill the probe and make a live group look gone.
    const { success, stderr, signal: killedBy } = new Deno.Command("kill", {
      args: [...args, "--", target],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      detached: true,
    }).outputSync();
    if (success) return true;
    if (killedBy !== null && attempt < 3) continue;
    return killFailed(target, signal, new TextDecoder().decode(stderr).trim());
  }
}

function killFailed(target: string, signal: Deno.Signal | 0, message: string): boolean {
  if (signal === 0 || /No such process|ESRCH/i.test(message)) return false;
  throw new Error(`"kill -s ${signal} -- ${target}" failed: ${message}`);
}

/**
 * Whether any live member of the group remains. Zombies (exited, not yet reaped) count as gone. The group is
 * probed with signal 0; only when that finds members does it ask `ps` whether they are all zombies (orphans
 * whose reaper never waits for them linger as zombies; Deno forbids reading `/proc` without --allow-all).
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable) || !killBinary(pgid, 0)) return false;
  }
  const states = await memberStates(pgid);
  return states === null || states.some((state) => !state.startsWith("Z") && !state.startsWith("X"));
}

/** The `ps` states of the group's members, or `null` when `ps` cannot be run. */
async function memberStates(pgid: number): Promise<string[] | null> {
  try {
    const { stdout, success } = await new Deno.Command("ps", {
      args: ["-A", "-o", "pgid=,stat="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      detached: true,
    }).output();
    if (!success) return null;
    return new TextDecoder().decode(stdout).split("\n").map((line) => line.trim().split(/\s+/))
      .filter(([group]) => Number(group) === pgid).map(([, state]) => state ?? "");
  } catch {
    return null;
  }
}

/**
 * Between SIGTERM and SIGKILL once the run is aborted (Ctrl-C, SIGTERM): short and never scaled by
 * `--timeout-multiplier`, so an interrupt ends every host within a second however patient the run was.
 */
export const ABORT_KILL_GRACE_MS = 200;

/**
 * Polls until the group is gone or `timeoutMs` passes. Resolves to whether it is gone. Once `signal` aborts,
 * at most {@linkcode ABORT_KILL_GRACE_MS} more is waited.
 */
export async function waitGroupGone(pgid: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  let deadline = performance.now() + timeoutMs;
  const shorten = () => deadline = Math.min(deadline, performance.now() + ABORT_KILL_GRACE_MS);
  if (signal?.aborted) shorten();
  signal?.addEventListener("abort", shorten, { once: true });
  try {
    for (let delay = 5;; delay = Math.min(delay * 2, 100)) {
      if (!(await groupAlive(pgid))) return true;
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, deadline - performance.now())));
    }
  } finally {
    signal?.removeEventListener("abort", shorten);
  }
}

/** Options of {@linkcode killGroup}. Times are in milliseconds. */
export interface KillGroupOptions {
  /** Between SIGTERM and SIGKILL; 0 sends SIGKILL at once. */
  readonly graceMs: number;
  /** How long to poll for the group to be gone after SIGKILL. */
  readonly verifyMs: number;
  /** The run's abort: once aborted, the grace is cut to {@linkcode ABORT_KILL_GRACE_MS}. */
  readonly signal?: AbortSignal;
}

/**
 * Ends the whole group: SIGTERM, wait up to `graceMs` for it to go, then SIGKILL and wait again up to
 * `verifyMs`. Resolves to whether the group is gone. `graceMs` 0 sends SIGKILL at once.
 */
export async function killGroup(pgid: number, options: KillGroupOptions): Promise<boolean> {
  const graceMs = options.signal?.aborted ? Math.min(options.graceMs, ABORT_KILL_GRACE_MS) : options.graceMs;
  if (graceMs > 0) {
    if (!signalGroup(pgid, "SIGTERM")) return await waitGroupGone(pgid, options.verifyMs);
    if (await waitGroupGone(pgid, graceMs, options.signal)) return true;
  }
  signalGroup(pgid, "SIGKILL");
  return await waitGroupGone(pgid, options.verifyMs);
}

const liveGroups = new Set<number>();

/**
 * Records `pgid` as a group the harness started and has not yet seen gone, for {@linkcode killLiveGroups}.
 * Returns the function that forgets it again.
 */
export function trackGroup(pgid: number): () => void {
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}

const liveEscapes = new Set<number>();

/**
 * Records `pid` as a process that escaped a host's group and is being ended (src/exec/escapes.ts), for
 * {@linkcode killLiveGroups}. Returns the function that forgets it again.
 */
export function trackEscaped(pid: number): () => void {
  liveEscapes.add(pid);
  return () => liveEscapes.delete(pid);
}

/**
 * SIGKILLs every group recorded by {@linkcode trackGroup} and every escaped process being ended
 * ({@linkcode trackEscaped}), synchronously: a second Ctrl-C ends the harness at once, and must not leave a
 * host behind it.
 */
export function killLiveGroups(): void {
  for (const pgid of liveGroups) {
    try {
      signalGroup(pgid, "SIGKILL");
    } catch {
      // Already gone, or not ours to signal any more: nothing left to do for it.
    }
  }
  liveGroups.clear();
  for (const pid of liveEscapes) {
    try {
      signalProcess(pid, "SIGKILL");
    } catch {
      // As above.
    }
  }
  liveEscapes.clear();
}
