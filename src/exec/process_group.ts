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
    if (error instanceof Deno.errors.NotFound) return false;
    // ESRCH surfaces differently across versions; anything else is a real failure.
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return false;
    throw error;
  }
}

/**
 * Whether any live member of the group remains. Zombies (exited, not yet reaped) count as gone. On Linux this
 * reads `/proc/<pid>/stat`; elsewhere it probes the group with signal 0.
 */
export function groupAlive(pgid: number): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false;
  if (Deno.build.os === "linux") return liveMembers(pgid).length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of live (non-zombie) processes whose process group is `pgid`, from /proc. */
export function liveMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!entry.isDirectory || !/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue; // exited while we looked
    }
    // Fields after the parenthesised command name: state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") {
      members.push(Number(entry.name));
    }
  }
  return members;
}

/** Polls until the group is gone or `timeoutMs` passes. Resolves to whether it is gone. */
export async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (let delay = 5;; delay = Math.min(delay * 2, 100)) {
    if (!groupAlive(pgid)) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Ends the whole group: SIGTERM, wait up to `graceMs` for it to go, then SIGKILL and wait again up to
 * `verifyMs`. Resolves to whether the group is gone. `graceMs` 0 sends SIGKILL at once.
 */
export async function killGroup(
  pgid: number,
  options: { graceMs: number; verifyMs: number },
): Promise<boolean> {
  if (options.graceMs > 0) {
    if (!signalGroup(pgid, "SIGTERM")) return await waitGroupGone(pgid, options.verifyMs);
    if (await waitGroupGone(pgid, options.graceMs)) return true;
  }
  signalGroup(pgid, "SIGKILL");
  return await waitGroupGone(pgid, options.verifyMs);
}
