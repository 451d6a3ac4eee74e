/**
 * The executor: the one place that runs host CLIs. It spawns an invocation in its own process group with
 * stdin closed and a projected environment, reads stdout and stderr as bounded lines, feeds stdout to the
 * host's normaliser and to callbacks, stops at the terminal event (then waits a grace period for exit),
 * enforces wall-clock and idle timeouts and aborts, kills the whole group (SIGTERM, then SIGKILL), verifies
 * the group is gone, and always removes the invocation's `cleanupPaths`.
 *
 * "Stops at the terminal event" means nothing after it is normalised or reported; the pipe is still drained
 * (and counted) until the host exits or the grace runs out, so a host that writes after its terminal (claude's
 * background tasks) never dies of a closed pipe, which would falsify its exit code.
 *
 * It sees hosts only as a {@linkcode HostInvocation}, a {@linkcode Normalizer} and a {@linkcode StreamShape}.
 *
 * Its parts: the process group (spawn, kill, verify gone, tracked until disposed) is src/exec/host_process.ts;
 * the deadlines (wall, idle, startup, abort → one stop reason) are src/exec/stop_clock.ts, their defaults
 * src/exec/deadlines.ts; what the output leaves in the observation (caps, line violations, stderr tail) is
 * src/exec/stream_collector.ts; escaped processes are src/exec/escapes.ts. This module wires them together.
 *
 * @module
 */
import type { DraftEvent, NormalizedEvent, Normalizer } from "../normalize/events.ts";
import type { HostInvocation, StreamShape } from "./host_runner.ts";
import { DEFAULT_MAX_LINE_BYTES, forEachLine, type Line } from "./line_reader.ts";
import type { Observation, Violation } from "./observation.ts";
import { describeEscapes, EscapeHunt, processListing, SPAWN_TAG_ENV } from "./escapes.ts";
import { HostProcess } from "./host_process.ts";
import { StopClock } from "./stop_clock.ts";
import { StreamCollector } from "./stream_collector.ts";
import { explainRefusal } from "../permissions.ts";
import { HarnessError } from "../errors.ts";
import { raceDelay } from "../time.ts";
import { CLI_DEADLINES } from "./deadlines.ts";

/** Handed to every callback: lets a caller stop the run from inside it. */
export interface RunControl {
  /** Stops the run: the group is killed and the observation says `stopped: "abort"`. */
  abort(): void;
}

/** Options of {@linkcode execute}. Times are in milliseconds. */
export interface ExecuteOptions {
  /** Host id stamped on every event. */
  readonly host: string;
  /** A fresh normaliser for this run. */
  readonly normalizer: Normalizer;
  /** Which events the stream must start and end with. */
  readonly streamShape: StreamShape;
  /** Longest the whole run may take. Default 30 000 (`CLI_DEADLINES`, src/exec/deadlines.ts, as all here). */
  readonly wallTimeoutMs?: number;
  /** Longest silence (no byte on stdout or stderr) allowed. Default: none. */
  readonly idleTimeoutMs?: number;
  /**
   * Longest silence allowed before the first byte, when a slow start should not count as idle. Default: the
   * idle timeout (silence from the spawn on counts as idle).
   */
  readonly startupTimeoutMs?: number;
  /**
   * After the terminal event or EOF, how long the process may take to exit before its group is killed.
   * Default 5 000.
   */
  readonly postStreamGraceMs?: number;
  /**
   * Between SIGTERM and SIGKILL. 0 sends SIGKILL at once. Default 1 000. Once {@linkcode signal} aborts, at
   * most `ABORT_KILL_GRACE_MS` (src/exec/process_group.ts), however long this is.
   */
  readonly killGraceMs?: number;
  /** How long to poll for the group to be gone after the last signal. Default 5 000. */
  readonly verifyGoneMs?: number;
  /** Longest stdout or stderr line accepted, in bytes. Default 8 MiB. */
  readonly maxLineBytes?: number;
  /**
   * Aborting it stops the run like {@linkcode RunControl.abort}, in every wait: before the terminal, in the
   * post-terminal grace and in the kill grace.
   */
  readonly signal?: AbortSignal;
  /** The parent environment to project from. Default: the variables the projection keeps ({@linkcode readEnv}). */
  readonly parentEnv?: Readonly<Record<string, string>>;
  /** Called with each normalised event as it arrives. */
  readonly onEvent?: (event: NormalizedEvent, control: RunControl) => void;
  /** Called with each raw stdout line before it is normalised. */
  readonly onStdoutLine?: (line: string, control: RunControl) => void;
  /** Called with each stderr line. */
  readonly onStderrLine?: (line: string, control: RunControl) => void;
  /**
   * Called as the run passes each {@linkcode ExecutorPhase}, with `performance.now()` at that moment: where a
   * run's fixed cost goes (the `executor-cost` bench group). Not called for a spawn that failed.
   */
  readonly onPhase?: (phase: ExecutorPhase, at: number) => void;
}

/**
 * The moments of a run, in order: the child `spawned`; the stream `ended` (terminal event, EOF or a stop) and,
 * when it had to be, the group killed; the host's `exited` status read; its output `drained`; the group
 * `proven-gone` (or killed and checked); the `escapes-swept` (the last `ps` listing of the spawn's tag); and
 * `done`, the observation built.
 */
export type ExecutorPhase =
  | "spawned"
  | "ended"
  | "exited"
  | "drained"
  | "proven-gone"
  | "escapes-swept"
  | "done";

export { MAX_KEPT_EVENT_BYTES, MAX_KEPT_EVENTS, MAX_KEPT_RAW_BYTES } from "./kept_events.ts";

export { MAX_KEPT_STDERR_LINES, MAX_KEPT_VIOLATIONS } from "./stream_collector.ts";

const DEFAULTS = { ...CLI_DEADLINES, maxLineBytes: DEFAULT_MAX_LINE_BYTES };

/**
 * Runs one invocation to the end and reports what happened. Never throws for anything the host does; a
 * spawn failure is an observation with `spawnError` set. Throws {@linkcode HarnessError} only when the
 * harness's own permission set refuses to start the program: that is not the host's fault, so the tiers
 * report it as ERROR.
 *
 * @example
 * ```ts
 * import { execute } from "./executor.ts";
 * import { NO_CAPABILITIES } from "./host_runner.ts";
 * import { normalizerFor } from "../normalize/mod.ts";
 * const observation = await execute(
 *   { binary: "echo", args: ["hi"], env: {}, envAllow: [], cleanupPaths: [], capabilities: NO_CAPABILITIES },
 *   {
 *     host: "echo",
 *     normalizer: normalizerFor("claude")({ argv: ["hi"] }),
 *     streamShape: { init: "none", terminal: "eof" },
 *     wallTimeoutMs: 5_000,
 *   },
 * );
 * observation.exitCode; // 0
 * observation.kinds; // ["unparsed"]: "hi" is not claude stream-json
 * ```
 */
export async function execute(invocation: HostInvocation, options: ExecuteOptions): Promise<Observation> {
  const started = performance.now();
  try {
    return await run(invocation, options, started);
  } finally {
    await Promise.all(
      invocation.cleanupPaths.map((path) => Deno.remove(path, { recursive: true }).catch(() => {})),
    );
  }
}

async function run(
  invocation: HostInvocation,
  options: ExecuteOptions,
  started: number,
): Promise<Observation> {
  const limits = { ...DEFAULTS, ...definedOnly(options) };
  const collector = new StreamCollector(limits.maxLineBytes);
  let host: HostProcess;
  try {
    host = HostProcess.spawn(invocation, options.parentEnv);
  } catch (error) {
    // The harness's own permission set refusing the program is the harness's limit, not the host's fault.
    const refusal = explainRefusal(error);
    if (refusal !== null) throw new HarnessError(refusal, { cause: error });
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Subprocess spawn failed: ${reason}`;
    collector.violations.push({ kind: "spawn_failed", stream: "process", message });
    return collector.observation(options.host, started, {
      exitCode: null,
      signal: null,
      resultSeen: null,
      stopped: null,
      killed: false,
      pgid: null,
      groupGone: true,
      spawnError: message,
    });
  }
  // The group stays tracked for a second Ctrl-C until the run is over.
  using tracked = host;
  options.onPhase?.("spawned", performance.now());
  return await watch(tracked, options, { limits, collector, started });
}

/** What {@linkcode watch} needs of the run that spawned the host. */
interface Watched {
  readonly limits: typeof DEFAULTS;
  readonly collector: StreamCollector;
  readonly started: number;
}

/** Reads, times and ends a spawned host. */
async function watch(
  host: HostProcess,
  options: ExecuteOptions,
  { limits, collector, started }: Watched,
): Promise<Observation> {
  const { child, pgid } = host;
  const clock = new StopClock({
    wallTimeoutMs: limits.wallTimeoutMs,
    idleTimeoutMs: limits.idleTimeoutMs,
    ...(options.startupTimeoutMs === undefined ? {} : { startupTimeoutMs: options.startupTimeoutMs }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const control: RunControl = { abort: () => clock.stop("abort") };

  const readers = new AbortController();
  let seq = 0;
  let terminalSeen = false;
  let signalTerminal!: () => void;
  const terminalReached = new Promise<"terminal">((resolve) => signalTerminal = () => resolve("terminal"));
  const stamp = (draft: DraftEvent) => ({ ...draft, host: options.host, seq: seq++ }) as NormalizedEvent;
  const accept = (event: NormalizedEvent) => {
    collector.keep(event);
    options.onEvent?.(event, control);
  };

  const readOptions = {
    maxLineBytes: limits.maxLineBytes,
    onBytes: () => clock.onBytes(),
    signal: readers.signal,
  };
  const onStdout = (line: Line) => {
    collector.countStdout(line);
    // After the terminal (or a stop) the rest is drained unread, so a writing host never meets a closed pipe.
    if (terminalSeen || clock.reason !== null) return;
    if (!collector.checkStdout(line)) return;
    options.onStdoutLine?.(line.text, control);
    collector.kept.beginLine(line.bytes);
    for (const draft of options.normalizer.line(line.text)) {
      const event = stamp(draft);
      accept(event);
      if (event.kind === "terminal" && options.streamShape.terminal === "event" && !event.synthetic) {
        terminalSeen = true;
        signalTerminal();
        break;
      }
      if (clock.reason !== null) break;
    }
  };
  // Line by line as each chunk is cut (forEachLine): one await per chunk, and no list of a flood's lines.
  const stdoutDone = forEachLine(child.stdout, onStdout, readOptions).then(() => "eof" as const);
  const onStderr = (line: Line) => {
    collector.stderrLine(line);
    if (clock.reason === null) options.onStderrLine?.(line.text, control);
  };
  const stderrDone = forEachLine(child.stderr, onStderr, readOptions);
  const output = watchOutput(child, Promise.all([stdoutDone, stderrDone]));
  const killOptions = {
    killGraceMs: limits.killGraceMs,
    verifyGoneMs: limits.verifyGoneMs,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  // Processes that left the group are beyond the group kill: they are hunted by the spawn's tag when the
  // host exits with its output still open (an escaped writer holding it), and once more at the end.
  const hunt = new EscapeHunt(host.tag, pgid, {
    graceMs: limits.killGraceMs,
    verifyMs: limits.verifyGoneMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const exitHunt = child.status.then(async () => {
    if (await raceDelay([output.closed], OPEN_AFTER_EXIT_MS) === "late") await hunt.sweep();
  });

  {
    using _ = clock;
    const first = await Promise.race([terminalReached, stdoutDone, clock.requested]);
    if (first !== "stop") {
      clock.streamEnded();
      // The stream is over; the process gets a grace period to exit on its own.
      const exited = await raceDelay(
        [child.status.then(() => "exited" as const), clock.requested],
        limits.postStreamGraceMs,
      );
      if (exited !== "exited") await host.kill(killOptions);
    } else {
      await host.kill(killOptions);
    }
  }
  const phase = (name: ExecutorPhase) => options.onPhase?.(name, performance.now());
  phase("ended");

  const status = await raceDelay([child.status], limits.verifyGoneMs);
  phase("exited");
  // Output still held open by a process outside the group must not hold the run: stop reading it.
  const drained = await raceDelay([output.closed], DRAIN_MS);
  // Whether the group still held the output when reading stopped (else something outside it did).
  const groupHeldOutput = drained !== "late"
    ? false
    : host.killed
    ? !host.groupGone
    : !(await host.checkGone());
  if (drained === "late") readers.abort();
  await output.closed;
  phase("drained");

  // Where the group cannot be probed by a signal (the harness's permission set), the listing that shows it
  // gone also serves the escape hunt below: one `ps` on the success path, not two.
  let listed: Promise<string | null> | undefined;
  const listing = () => listed ??= processListing();
  if (!host.killed && !(await host.checkGone(listing))) {
    listed = undefined; // taken while the group lived: the hunt needs one taken after the kill
    collector.violations.push({
      kind: "group_survived",
      stream: "process",
      message: `processes of group ${pgid} outlived the host's exit; the executor killed them`,
    });
    await host.kill(killOptions);
  }
  phase("proven-gone");
  if (status !== "late") await exitHunt; // else the host never exited, and that hunt never starts
  await hunt.sweep(listed);
  phase("escapes-swept");
  const escape = escapeViolation(hunt, { drainCut: drained === "late", groupHeldOutput, ...output.times });
  if (escape) collector.violations.push(escape);
  const exitCode = status === "late" || status.signal !== null ? null : status.code;
  const signal = status === "late" ? null : status.signal;
  const stopped = clock.reason;
  if (stopped === null) {
    collector.kept.beginLine(0);
    for (const draft of options.normalizer.end({ exitCode, signal, stderrTail: collector.stderrTail() })) {
      accept(stamp(draft));
    }
  }
  const observation = collector.observation(options.host, started, {
    exitCode,
    signal,
    resultSeen: stopped === null ? terminalSeen : null,
    stopped,
    killed: host.killed,
    pgid,
    groupGone: host.groupGone,
    spawnError: null,
  });
  phase("done");
  return observation;
}

/**
 * How long the host's output may stay open after its exit before the escaped processes are hunted: a host's
 * own last writes land within it.
 */
const OPEN_AFTER_EXIT_MS = 50;
/** How long the output is drained after the host is gone before reading stops: never scaled. */
export const DRAIN_MS = 1_000;

/** When the host exited and when its output closed (ms since the time origin), as far as known yet. */
interface OutputTimes {
  exitedAt?: number;
  closedAt?: number;
}

/** `closed` resolves once stdout and stderr have ended (or been cut); `times` notes when, and the host's exit. */
function watchOutput(child: Deno.ChildProcess, ended: Promise<unknown>) {
  const times: OutputTimes = {};
  void child.status.then(() => times.exitedAt = performance.now(), () => {});
  const closed = ended.then(() => {
    times.closedAt = performance.now();
  });
  return { closed, times };
}

/**
 * The `group_escaped` violation, or `null`: processes found carrying the spawn's tag outside its group (ended
 * by the hunt), or else output held open after the host and its group were gone, until reading stopped.
 */
function escapeViolation(
  hunt: EscapeHunt,
  seen: OutputTimes & { drainCut: boolean; groupHeldOutput: boolean },
): Violation | null {
  const heldMs = seen.exitedAt === undefined || seen.closedAt === undefined
    ? null
    : Math.round(seen.closedAt - seen.exitedAt);
  const held = seen.drainCut
    ? `; the host's output stayed open after its exit, and the executor stopped reading it after ${DRAIN_MS} ms`
    : heldMs !== null && heldMs > OPEN_AFTER_EXIT_MS
    ? `; the host's output was held open ${heldMs} ms after its exit`
    : "";
  if (hunt.found.length > 0) {
    return {
      kind: "group_escaped",
      stream: "process",
      message: describeEscapes(hunt.found, hunt.allGone) + held,
    };
  }
  if (!seen.drainCut || seen.groupHeldOutput) return null;
  return {
    kind: "group_escaped",
    stream: "process",
    message: `a process outside the host's group (not found by its ${SPAWN_TAG_ENV} tag: it cleared its ` +
      `environment, or processes' environments cannot be listed here) held the host's output open after the ` +
      `host and its group were gone; the executor stopped reading it after ${DRAIN_MS} ms`,
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
