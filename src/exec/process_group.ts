/**
 * Process-group signalling for children spawned with `detached: true` (pid == pgid). Every signal goes through
 * {@linkcode signalGroup}, which refuses a process group id ≤ 1: `kill(-1, …)` would signal every process the
 * harness may signal.
 *
 * @module
 */
import process from "node:process";
import { freshListing } from "./ps.ts";

/**
 * Sends `signal` to the whole group, synchronously. Returns false when the group is already gone. Throws on a
 * pgid ≤ 1. Under the harness's permission set this blocks for a `kill` process: the stop path uses
 * {@linkcode signalGroupAsync}.
 */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    return signalGroupDirect(pgid, signal);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return killOne(`-${pgid}`, signal);
    throw error;
  }
}

/**
 * Sends `signal` to the one process `pid`, by pid: for a process that left the group of the host that started
 * it (src/exec/escapes.ts). Returns false when it is already gone. Throws on a pid ≤ 1 or the harness's own.
 */
export function signalProcess(pid: number, signal: Deno.Signal): boolean {
  try {
    return signalProcessDirect(pid, signal);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return killOne(String(pid), signal);
    throw error;
  }
}

/**
 * Sends `signal` to the whole group without blocking: through `Deno.kill` when the permission set allows it,
 * else through the `kill` binary, one `kill` for every group and process signalled with the same signal in the
 * same turn of the event loop. Resolves to false when the group is already gone. Rejects on a pgid ≤ 1.
 */
export function signalGroupAsync(pgid: number, signal: Deno.Signal): Promise<boolean> {
  try {
    return Promise.resolve(signalGroupDirect(pgid, signal));
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return killLater(`-${pgid}`, signal);
    return Promise.reject(error);
  }
}

/** {@linkcode signalProcess} without blocking, batched like {@linkcode signalGroupAsync}. */
export function signalProcessAsync(pid: number, signal: Deno.Signal): Promise<boolean> {
  try {
    return Promise.resolve(signalProcessDirect(pid, signal));
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return killLater(String(pid), signal);
    return Promise.reject(error);
  }
}

/** `Deno.kill(-pgid)`; false when gone; throws `NotCapable` when the permission set refuses it. */
function signalGroupDirect(pgid: number, signal: Deno.Signal): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) {
    throw new RangeError(
      `Refusing to signal process group ${pgid}: only a child's own group (> 1) may be signalled`,
    );
  }
  return directKill(-pgid, signal);
}

function signalProcessDirect(pid: number, signal: Deno.Signal): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1 || pid === Deno.pid) {
    throw new RangeError(`Refusing to signal process ${pid}: only a process a host started may be signalled`);
  }
  return directKill(pid, signal);
}

function directKill(target: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(target, signal);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    if (error instanceof Deno.errors.NotFound) return false;
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return false;
    throw error;
  }
}

/** The arguments of `kill` for `signal` (0 only probes). */
function killArgs(signal: Deno.Signal | 0): string[] {
  return signal === 0 ? ["-0"] : ["-s", signal.replace(/^SIG/, "")];
}

function killCommand(signal: Deno.Signal | 0, targets: readonly string[]): Deno.Command {
  // Detached: a Ctrl-C to the harness's group must not kill the `kill` and make a live group look gone.
  return new Deno.Command("kill", {
    args: [...killArgs(signal), "--", ...targets],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    detached: true,
  });
}

/**
 * What became of each target of one `kill` run: `true` sent, `false` gone, or the failure message. procps'
 * `kill` names each target it could not signal (`kill: (-123): No such process`) and goes on with the rest;
 * `null` when its output names none (another `kill`, or it failed as a whole).
 */
function outcomes(targets: readonly string[], stderr: Uint8Array, signal: Deno.Signal | 0) {
  const failed = new Map<string, string>();
  for (const line of new TextDecoder().decode(stderr).split("\n")) {
    const match = /\((-?\d+)\):?\s*-?\s*(.*)$/.exec(line);
    if (match) failed.set(match[1]!, match[2]!.trim());
  }
  if (failed.size === 0) return null;
  return new Map(targets.map((target) => {
    const message = failed.get(target);
    if (message === undefined) return [target, true];
    return [target, signal === 0 || /No such process|ESRCH/i.test(message) ? false : message];
  }));
}

/**
 * Signals the group (or, given `target`, that process) through the `kill` binary, synchronously. `Deno.kill`
 * needs unrestricted run access, which the harness's permission set (src/permissions.ts) does not grant;
 * running `kill` does. Signal 0 only probes. Blocks the event loop for a process spawn: only for callers that
 * cannot wait ({@linkcode killLiveGroups} before `Deno.exit`, {@linkcode signalGroup}'s callers).
 */
function killBinary(targets: readonly string[], signal: Deno.Signal | 0): Map<string, boolean | string> {
  for (let attempt = 0;; attempt++) {
    const { success, stderr, signal: killedBy } = killCommand(signal, targets).outputSync();
    if (success) return new Map(targets.map((target) => [target, true]));
    if (killedBy !== null && attempt < 3) continue;
    const each = outcomes(targets, stderr, signal);
    if (each !== null) return each;
    const message = new TextDecoder().decode(stderr).trim();
    return new Map(targets.map((target) => [target, signal === 0 ? false : message]));
  }
}

/** {@linkcode killBinary} for one target: false when gone, throws on any other failure. */
function killOne(target: string, signal: Deno.Signal | 0): boolean {
  return settle(target, signal, killBinary([target], signal).get(target) ?? true);
}

function settle(target: string, signal: Deno.Signal | 0, outcome: boolean | string): boolean {
  if (typeof outcome === "boolean") return outcome;
  if (/No such process|ESRCH/i.test(outcome)) return false;
  throw new Error(`"kill -s ${signal} -- ${target}" failed: ${outcome}`);
}

/** The `kill` runs being gathered, by signal: each sends every target asked for before it starts. */
const gathering = new Map<Deno.Signal | 0, Map<string, PromiseWithResolvers<boolean>>>();

/**
 * Signals `target` through the `kill` binary without blocking: requests made in the same turn of the event loop
 * (a tier's dozens of hosts stopped by one abort) share one `kill` process.
 */
function killLater(target: string, signal: Deno.Signal | 0): Promise<boolean> {
  let batch = gathering.get(signal);
  if (!batch) {
    const gathered = batch = new Map();
    gathering.set(signal, gathered);
    setTimeout(() => {
      gathering.delete(signal);
      void sendBatch(signal, gathered);
    }, 0);
  }
  const waiting = batch.get(target) ?? Promise.withResolvers<boolean>();
  batch.set(target, waiting);
  return waiting.promise;
}

async function sendBatch(signal: Deno.Signal | 0, batch: Map<string, PromiseWithResolvers<boolean>>) {
  const targets = [...batch.keys()];
  try {
    for (let attempt = 0;; attempt++) {
      const { success, stderr, signal: killedBy } = await killCommand(signal, targets).output();
      if (success) {
        for (const waiting of batch.values()) waiting.resolve(true);
        return;
      }
      if (killedBy !== null && attempt < 3) continue;
      const each = outcomes(targets, stderr, signal);
      for (const [target, waiting] of batch) {
        try {
          // A `kill` that names none of its targets failed as a whole: each is asked on its own.
          waiting.resolve(
            each === null ? killOne(target, signal) : settle(target, signal, each.get(target)!),
          );
        } catch (error) {
          waiting.reject(error);
        }
      }
      return;
    }
  } catch (error) {
    for (const waiting of batch.values()) waiting.reject(error);
  }
}

const groupStates = freshListing(["-A", "-o", "pgid=,stat="]);

/**
 * Whether any live member of the group remains. Zombies (exited, not yet reaped) count as gone. With
 * `Deno.kill` allowed the group is probed with signal 0 first; the members' states come from one `ps`
 * listing shared by every caller polling at the time (orphans whose reaper never waits for them linger as
 * zombies; Deno forbids reading `/proc` without --allow-all). Never blocks the event loop.
 */
export async function groupAlive(pgid: number, listing?: () => Promise<string | null>): Promise<boolean> {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) return false;
  }
  const states = listing ? statesIn(await listing(), pgid) : await memberStates(pgid);
  if (states === null) return await killLater(`-${pgid}`, 0);
  return states.some((state) => !state.startsWith("Z") && !state.startsWith("X"));
}

/**
 * The states of the group's members in `text`, a listing whose lines start `PID PGID STAT` (the escape hunt's,
 * src/exec/escapes.ts), or `null` when there is no listing.
 */
function statesIn(text: string | null, pgid: number): string[] | null {
  if (text === null) return null;
  return text.split("\n").map((line) => line.trim().split(/\s+/, 3))
    .filter(([, group]) => Number(group) === pgid).map(([, , state]) => state ?? "");
}

/** The `ps` states of the group's members, or `null` when `ps` cannot be run. */
async function memberStates(pgid: number): Promise<string[] | null> {
  const text = await groupStates();
  if (text === null) return null;
  return text.split("\n").map((line) => line.trim().split(/\s+/))
    .filter(([group]) => Number(group) === pgid).map(([, state]) => state ?? "");
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
    if (!(await signalGroupAsync(pgid, "SIGTERM"))) return await waitGroupGone(pgid, options.verifyMs);
    if (await waitGroupGone(pgid, graceMs, options.signal)) return true;
  }
  await signalGroupAsync(pgid, "SIGKILL");
  return await waitGroupGone(pgid, options.verifyMs);
}

const liveGroups = new Set<number>();

/**
 * Records `pgid` as a group the harness started and has not yet seen gone, for {@linkcode killLiveGroups}.
 * Returns the function that forgets it again.
 */
export function trackGroup(pgid: number): () => void {
  liveGroups.add(pgid);
  for (const observer of trackingObservers) observer("+", pgid);
  return () => {
    const known = liveGroups.delete(pgid);
    if (known) { for (const observer of trackingObservers) observer("-", pgid); }
    return known;
  };
}

/** A change to the tracked groups: `+` a group started, `-` a group seen gone. */
export type GroupTrackingChange = "+" | "-";

const trackingObservers = new Set<(change: GroupTrackingChange, pgid: number) => void>();

/**
 * Calls `observer` on every change to the groups {@linkcode trackGroup} records (src/exec/reaper.ts keeps a
 * witness of them). Returns the function that stops it.
 */
export function onGroupTracking(observer: (change: GroupTrackingChange, pgid: number) => void): () => void {
  trackingObservers.add(observer);
  return () => trackingObservers.delete(observer);
}

const launchObservers = new Set<(change: GroupTrackingChange, marker: string) => void>();

/**
 * Records `marker`, a unique path on the command line of a program being launched whose group is not known
 * yet (a browser Playwright is starting) or of processes that leave its group (Chromium's crashpad daemons), so
 * the reaper (src/exec/reaper.ts) can find them by their command lines if the harness dies. Returns the
 * function that forgets it again. A marker is matched as a path: the whole path or a folder of one in an
 * argument. One with white space in it (a temp folder with a space) is not tracked: `ps` joins arguments with
 * spaces.
 */
export function trackLaunch(marker: string): () => void {
  if (marker.length < 8 || /\s/.test(marker)) return () => false;
  for (const observer of launchObservers) observer("+", marker);
  let known = true;
  return () => {
    if (known) { for (const observer of launchObservers) observer("-", marker); }
    const was = known;
    known = false;
    return was;
  };
}

/** Calls `observer` on every launch {@linkcode trackLaunch} records and forgets. Returns the function that stops it. */
export function onLaunchTracking(
  observer: (change: GroupTrackingChange, marker: string) => void,
): () => void {
  launchObservers.add(observer);
  return () => launchObservers.delete(observer);
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
 * After an interrupt, how long the orderly teardown (TERM, a {@linkcode ABORT_KILL_GRACE_MS} grace, KILL) may
 * take before {@linkcode killLiveGroupsAfter} SIGKILLs whatever is still tracked: well inside the second a
 * supervisor may give before its own SIGKILL, which would leave every host group behind.
 */
export const ABORT_KILL_DEADLINE_MS = 500;

/**
 * Sends SIGTERM to every group recorded by {@linkcode trackGroup} at once, without blocking (one `kill` for all
 * where `Deno.kill` is refused): an interrupt starts every host's end at the signal, not when its driver's
 * teardown reaches it. The executors' own kills follow (a KILL after the grace) and verify each group gone.
 */
export function terminateLiveGroups(): void {
  for (const pgid of liveGroups) void signalGroupAsync(pgid, "SIGTERM").catch(() => false);
}

/**
 * Schedules {@linkcode killLiveGroups} `ms` from now, on a timer that does not keep the program alive: the
 * interrupted run's backstop for a teardown slower than the signal's deadline (a loaded machine, a driver still
 * closing its browser). Returns the function that cancels it.
 */
export function killLiveGroupsAfter(ms: number): () => void {
  const timer = setTimeout(killLiveGroups, ms);
  Deno.unrefTimer(timer);
  return () => clearTimeout(timer);
}

/**
 * SIGKILLs every group recorded by {@linkcode trackGroup} and every escaped process being ended
 * ({@linkcode trackEscaped}), synchronously: a second Ctrl-C ends the harness at once, and must not leave a
 * host behind it.
 */
export function killLiveGroups(): void {
  const targets = [
    ...[...liveGroups].map((pgid) => ({
      target: `-${pgid}`,
      send: () => signalGroupDirect(pgid, "SIGKILL"),
    })),
    ...[...liveEscapes].map((pid) => ({
      target: String(pid),
      send: () => signalProcessDirect(pid, "SIGKILL"),
    })),
  ];
  for (const pgid of liveGroups) killedGroups.add(pgid);
  for (const pid of liveEscapes) killedEscapes.add(pid);
  liveGroups.clear();
  liveEscapes.clear();
  const refused: string[] = [];
  for (const { target, send } of targets) {
    try {
      send();
    } catch (error) {
      // Gone, or not ours to signal any more, leaves nothing to do; Deno.kill refused goes to one `kill`.
      if (error instanceof Deno.errors.NotCapable) refused.push(target);
    }
  }
  // One `kill` for them all: this runs right before Deno.exit, with no event loop to wait on.
  if (refused.length > 0) killBinary(refused, "SIGKILL");
}

/** What {@linkcode killLiveGroups} SIGKILLed and {@linkcode waitKilledGone} has not yet seen gone. */
const killedGroups = new Set<number>();
const killedEscapes = new Set<number>();

const pidGroupStates = freshListing(["-A", "-o", "pid=,pgid=,stat="]);

/**
 * Waits until every group and escaped process that {@linkcode killLiveGroups} SIGKILLed has left the process
 * table (a zombie counts as gone), polling one `ps` listing at a time, for at most `timeoutMs`. A SIGKILL is
 * not a death: a killed process stays listed, running, while the kernel tears down its memory, which for a
 * browser's zygotes on a loaded machine outlasted the harness's exit (fresh-clone CI of 2026-12-06, two
 * zygotes counted by the interrupt soak). An interrupted run awaits this before it exits, so that its exit
 * means its hosts are gone. Resolves to whether they all are; `listing` replaces `ps -A -o pid=,pgid=,stat=`.
 */
export async function waitKilledGone(
  timeoutMs: number,
  listing: () => Promise<string | null> = pidGroupStates,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (let delay = 5;; delay = Math.min(delay * 2, 50)) {
    const text = await listing();
    // Without a listing nothing can be proven here: the groups' own waits and the reaper remain.
    if (text === null) return false;
    const live = liveInListing(text);
    for (const pgid of [...killedGroups]) if (!live.groups.has(pgid)) killedGroups.delete(pgid);
    for (const pid of [...killedEscapes]) if (!live.pids.has(pid)) killedEscapes.delete(pid);
    if (killedGroups.size === 0 && killedEscapes.size === 0) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, deadline - performance.now())));
  }
}

/** The pids and groups of the live (neither zombie nor dead) processes in a `PID PGID STAT` listing. */
function liveInListing(text: string): { pids: Set<number>; groups: Set<number> } {
  const pids = new Set<number>();
  const groups = new Set<number>();
  for (const line of text.split("\n")) {
    const [pid, pgid, state = ""] = line.trim().split(/\s+/);
    if (pid === undefined || pid === "" || /^[ZX]/.test(state)) continue;
    pids.add(Number(pid));
    groups.add(Number(pgid));
  }
  return { pids, groups };
}
