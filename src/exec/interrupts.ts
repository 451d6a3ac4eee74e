/**
 * A run's interrupts as one disposable: the SIGINT and SIGTERM listeners, the second-signal exit and the reaper.
 * The first signal starts every tracked host group's end and aborts the run's {@linkcode Interrupts.signal};
 * a second one SIGKILLs every group and exits at once; a SIGKILL, which runs no handler, is the reaper's to
 * answer (src/exec/reaper.ts).
 *
 * @example
 * ```ts
 * import { trapInterrupts } from "./interrupts.ts";
 * await using interrupts = trapInterrupts();
 * try {
 *   // run, racing interrupts.signal
 * } finally {
 *   interrupts.settle();
 * }
 * // write the reports; interrupts.exitCode is the first signal's exit code, or null
 * ```
 *
 * @module
 */
import { EXIT } from "../errors.ts";
import { readableEnv } from "./env.ts";
import {
  ABORT_KILL_DEADLINE_MS,
  killLiveGroups,
  killLiveGroupsAfter,
  terminateLiveGroups,
  waitKilledGone,
} from "./process_group.ts";
import { reaperEnv, type ReaperOptions, startReaper } from "./reaper.ts";
import { RUN_TAG } from "./run_tag.ts";
import { selfCommand } from "./self.ts";

/**
 * Against a hang only: how long an interrupted run waits, before its exit, for the groups it SIGKILLed to leave
 * the process table; what is still there after it is the reaper's.
 */
const KILLED_GONE_MS = 5_000;

/** The exit code of a run each signal ended. */
const SIGNAL_EXITS = [["SIGINT", EXIT.interrupted], ["SIGTERM", EXIT.terminated]] as const;

/** A run's interrupts, from {@linkcode trapInterrupts}. */
export interface Interrupts extends AsyncDisposable {
  /** Aborted by the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The exit code of the first signal (130 for SIGINT, 143 for SIGTERM), or null while none came. */
  readonly exitCode: number | null;
  /**
   * The run's work is over (call it in a `finally`): stops listening. An interrupted run then SIGKILLs every
   * group a driver's bounded teardown had no time to end, before the reports are written, and keeps its
   * reaper to the end (a teardown may still be ending a browser while the reports are written, and a
   * supervisor's SIGKILL must find the reaper there; the exit closes its pipe). Otherwise the reaper starts
   * closing. Called again, it does nothing. Disposing an interrupted run waits (at most 5 s) until the groups
   * it SIGKILLed have left the process table, so that the exit means they are gone.
   */
  settle(): void;
}

/** What {@linkcode trapInterrupts} starts beside the listeners. */
export interface TrapOptions {
  /** The reaper; null: none. By default `conformance __reaper` with the run's tag and the reaper's variables. */
  readonly reaper?: ReaperOptions | null;
}

/**
 * Listens for SIGINT and SIGTERM, then starts the reaper. Disposing settles (see
 * {@linkcode Interrupts.settle}) and, unless a signal came, waits for the reaper to exit.
 */
export function trapInterrupts(options: TrapOptions = {}): Interrupts {
  const controller = new AbortController();
  let exitCode: number | null = null;
  const onSignal = (code: number) => () => {
    if (exitCode !== null) {
      // A second signal is the user's "now": every host group goes at once, and the reports written so far stand.
      killLiveGroups();
      Deno.exit(exitCode);
    }
    exitCode = code;
    terminateLiveGroups();
    controller.abort();
    // Whatever host group the teardown has not ended by then goes at once, before a supervisor's SIGKILL.
    killLiveGroupsAfter(ABORT_KILL_DEADLINE_MS);
  };
  const listeners = SIGNAL_EXITS.map(([signal, code]) => [signal, onSignal(code)] as const);
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  // A SIGKILL runs no handler: the reaper, a process of its own, ends the hosts' groups then.
  const reaperOptions = options.reaper === undefined
    ? { command: selfCommand("__reaper"), env: reaperEnv(readableEnv()), tag: RUN_TAG }
    : options.reaper;
  const reaper = reaperOptions === null ? null : startReaper(reaperOptions);
  let settled = false;
  let reaperClosed: Promise<void> | undefined;
  const settle = () => {
    if (settled) return;
    settled = true;
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
    if (exitCode === null) reaperClosed = reaper?.close();
    else killLiveGroups();
  };
  return {
    signal: controller.signal,
    get exitCode() {
      return exitCode;
    },
    settle,
    async [Symbol.asyncDispose]() {
      settle();
      // An interrupted run's exit must mean its hosts are gone, not only sent SIGKILL.
      if (exitCode !== null) await waitKilledGone(KILLED_GONE_MS);
      await reaperClosed;
    },
  };
}
