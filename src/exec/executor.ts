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
 * @module
 */
import type { DraftEvent, NormalizedEvent, Normalizer } from "../normalize/events.ts";
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "./env.ts";
import type { HostInvocation, StreamShape } from "./host_runner.ts";
import { DEFAULT_MAX_LINE_BYTES, forEachLine, type Line } from "./line_reader.ts";
import { KeptEvents } from "./kept_events.ts";
import type { Observation, StopReason, Violation } from "./observation.ts";
import { groupAlive, killGroup, trackGroup } from "./process_group.ts";
import { describeEscapes, EscapeHunt, newSpawnTag, SPAWN_TAG_ENV } from "./escapes.ts";
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
  readonly onEvent?: (event: NormalizedEvent, control: RunControl) => void;
  readonly onStdoutLine?: (line: string, control: RunControl) => void;
  readonly onStderrLine?: (line: string, control: RunControl) => void;
}

export { MAX_KEPT_EVENT_BYTES, MAX_KEPT_EVENTS, MAX_KEPT_RAW_BYTES } from "./kept_events.ts";

/**
 * Most stderr lines and violations an observation keeps. A hostile host can print millions of lines; past
 * these caps (and those of events and raw lines, src/exec/kept_events.ts) the executor still reads,
 * normalises and passes every line to the callbacks (and still stops at the terminal event), but keeps only
 * a count, so the harness's memory stays bounded.
 */
export const MAX_KEPT_STDERR_LINES = 2_000;
/** See {@linkcode MAX_KEPT_STDERR_LINES}. */
export const MAX_KEPT_VIOLATIONS = 100;

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
  const kept = new KeptEvents();
  const stderr: string[] = [];
  const hostStderr: string[] = [];
  const violations: Violation[] = [];
  const dropped = { stderrLines: 0, violations: 0 };
  const violate = (violation: Violation) => {
    if (violations.length < MAX_KEPT_VIOLATIONS) violations.push(violation);
    else dropped.violations++;
  };
  const base = {
    host: options.host,
    kept,
    stderr,
    hostStderr,
    violations,
    dropped,
  };
  let child: Deno.ChildProcess;
  // Every process the host starts inherits the tag: how those that leave its group are found (escapes.ts).
  const tag = newSpawnTag();
  try {
    child = new Deno.Command(invocation.binary, {
      args: [...invocation.args],
      env: {
        ...projectEnv(
          invocation,
          options.parentEnv ?? readEnv([...BASELINE_ENV_ALLOW, ...invocation.envAllow]),
        ),
        [SPAWN_TAG_ENV]: tag,
      },
      clearEnv: true,
      ...(invocation.cwd === undefined ? {} : { cwd: invocation.cwd }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    // The harness's own permission set refusing the program is the harness's limit, not the host's fault.
    const refusal = explainRefusal(error);
    if (refusal !== null) throw new HarnessError(refusal, { cause: error });
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Subprocess spawn failed: ${reason}`;
    violations.push({ kind: "spawn_failed", stream: "process", message });
    return finish({ ...base, started, stdoutLines: 0, stdoutBytes: 0, exitCode: null, signal: null }, {
      resultSeen: null,
      stopped: null,
      killed: false,
      pgid: null,
      groupGone: true,
      spawnError: message,
    });
  }
  const pgid = child.pid;
  const untrack = trackGroup(pgid);
  try {
    return await watch(child, options, { limits, base, violate, started, tag });
  } finally {
    untrack();
  }
}

/** What {@linkcode watch} needs of the run that spawned the child. */
interface Watched {
  readonly limits: typeof DEFAULTS;
  readonly base: Omit<Collected, "started" | "stdoutLines" | "stdoutBytes" | "exitCode" | "signal">;
  readonly violate: (violation: Violation) => void;
  readonly started: number;
  /** The spawn's tag ({@linkcode SPAWN_TAG_ENV}). */
  readonly tag: string;
}

/** Reads, times and ends a spawned host; the group stays tracked for a second Ctrl-C until this returns. */
async function watch(
  child: Deno.ChildProcess,
  options: ExecuteOptions,
  { limits, base, violate, started, tag }: Watched,
): Promise<Observation> {
  const { kept, stderr, hostStderr, violations, dropped } = base;
  const pgid = child.pid;

  let stopped: StopReason | null = null;
  let streamDone = false;
  let signalStop!: () => void;
  const stopRequested = new Promise<"stop">((resolve) => signalStop = () => resolve("stop"));
  const stop = (why: StopReason) => {
    // After the stream, only an abort still counts: it cuts the post-terminal grace short.
    if (stopped !== null || (streamDone && why !== "abort")) return;
    stopped = why;
    signalStop();
  };
  const control: RunControl = { abort: () => stop("abort") };
  const onAbort = () => stop("abort");
  if (options.signal?.aborted) stop("abort");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const wallTimer = setTimeout(() => stop("wall"), limits.wallTimeoutMs);
  let lastByte = performance.now();
  let anyByte = false;
  const onBytes = () => {
    lastByte = performance.now();
    anyByte = true;
  };
  const startupMs = options.startupTimeoutMs ?? limits.idleTimeoutMs;
  const idleTimer = Number.isFinite(limits.idleTimeoutMs)
    ? setInterval(() => {
      if (performance.now() - lastByte > (anyByte ? limits.idleTimeoutMs : startupMs)) stop("idle");
    }, Math.max(10, Math.min(200, limits.idleTimeoutMs / 5)))
    : undefined;

  const readers = new AbortController();
  let seq = 0;
  let stdoutLines = 0;
  let stdoutBytes = 0;
  let terminalSeen = false;
  let signalTerminal!: () => void;
  const terminalReached = new Promise<"terminal">((resolve) => signalTerminal = () => resolve("terminal"));
  const stamp = (draft: DraftEvent) => ({ ...draft, host: options.host, seq: seq++ }) as NormalizedEvent;
  const accept = (event: NormalizedEvent) => {
    kept.add(event);
    if (event.kind === "terminal" && event.status !== "success") {
      stderr.push(`[result] ${event.result || event.reason || event.status}`);
    }
    options.onEvent?.(event, control);
  };

  const readOptions = { maxLineBytes: limits.maxLineBytes, onBytes, signal: readers.signal };
  const onStdout = (line: Line) => {
    stdoutLines++;
    stdoutBytes += line.bytes + 1;
    // After the terminal (or a stop) the rest is drained unread, so a writing host never meets a closed pipe.
    if (terminalSeen || stopped !== null) return;
    if (line.tooLong) {
      violate({
        kind: "line_too_long",
        stream: "stdout",
        line: stdoutLines,
        message:
          `stdout line ${stdoutLines} is ${line.bytes} bytes, over the ${limits.maxLineBytes}-byte limit`,
      });
      return;
    }
    if (line.invalidUtf8) {
      violate({
        kind: "invalid_utf8",
        stream: "stdout",
        line: stdoutLines,
        message: `stdout line ${stdoutLines} is not valid UTF-8 (bad bytes replaced with U+FFFD)`,
      });
    }
    options.onStdoutLine?.(line.text, control);
    kept.beginLine(line.bytes);
    for (const draft of options.normalizer.line(line.text)) {
      const event = stamp(draft);
      accept(event);
      if (event.kind === "terminal" && options.streamShape.terminal === "event" && !event.synthetic) {
        terminalSeen = true;
        signalTerminal();
        break;
      }
      if (stopped !== null) break;
    }
  };
  // Line by line as each chunk is cut (forEachLine): one await per chunk, and no list of a flood's lines.
  const stdoutDone = forEachLine(child.stdout, onStdout, readOptions).then(() => "eof" as const);

  let stderrLines = 0;
  let stderrTail: string[] = [];
  const onStderr = (line: Line) => {
    const number = ++stderrLines;
    if (line.tooLong || line.invalidUtf8) {
      violate({
        kind: line.tooLong ? "line_too_long" : "invalid_utf8",
        stream: "stderr",
        line: number,
        message: line.tooLong
          ? `stderr line ${number} is ${line.bytes} bytes, over the ${limits.maxLineBytes}-byte limit`
          : `stderr line ${number} is not valid UTF-8 (bad bytes replaced with U+FFFD)`,
      });
    }
    if (hostStderr.length < MAX_KEPT_STDERR_LINES) {
      hostStderr.push(line.text);
      stderr.push(line.text);
    } else {
      dropped.stderrLines++;
      stderrTail.push(line.text);
      if (stderrTail.length > 40) stderrTail = stderrTail.slice(-20);
    }
    if (stopped === null) options.onStderrLine?.(line.text, control);
  };
  const stderrDone = forEachLine(child.stderr, onStderr, readOptions);
  const output = watchOutput(child, Promise.all([stdoutDone, stderrDone]));
  // Processes that left the group are beyond the group kill: they are hunted by the spawn's tag when the
  // host exits with its output still open (an escaped writer holding it), and once more at the end.
  const hunt = new EscapeHunt(tag, pgid, {
    graceMs: limits.killGraceMs,
    verifyMs: limits.verifyGoneMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const exitHunt = child.status.then(async () => {
    if (await raceDelay([output.closed], OPEN_AFTER_EXIT_MS) === "late") await hunt.sweep();
  });

  let killed = false;
  let groupGone = false;
  const kill = async () => {
    killed = true;
    groupGone = await killGroup(pgid, {
      graceMs: limits.killGraceMs,
      verifyMs: limits.verifyGoneMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };

  const first = await Promise.race([terminalReached, stdoutDone, stopRequested]);
  if (first !== "stop") {
    streamDone = true;
    // The stream is over; the process gets a grace period to exit on its own.
    const exited = await raceDelay(
      [child.status.then(() => "exited" as const), stopRequested],
      limits.postStreamGraceMs,
    );
    if (exited !== "exited") await kill();
  } else {
    await kill();
  }
  clearTimeout(wallTimer);
  clearInterval(idleTimer);
  options.signal?.removeEventListener("abort", onAbort);

  const status = await raceDelay([child.status], limits.verifyGoneMs);
  // Output still held open by a process outside the group must not hold the run: stop reading it.
  const drained = await raceDelay([output.closed], DRAIN_MS);
  // Whether the group still held the output when reading stopped (else something outside it did).
  const groupHeldOutput = drained !== "late" ? false : killed ? !groupGone : await groupAlive(pgid);
  if (drained === "late") readers.abort();
  await output.closed;

  if (!killed) {
    groupGone = !(await groupAlive(pgid));
    if (!groupGone) {
      violations.push({
        kind: "group_survived",
        stream: "process",
        message: `processes of group ${pgid} outlived the host's exit; the executor killed them`,
      });
      await kill();
    }
  }
  if (status !== "late") await exitHunt; // else the host never exited, and that hunt never starts
  await hunt.sweep();
  const escape = escapeViolation(hunt, { drainCut: drained === "late", groupHeldOutput, ...output.times });
  if (escape) violations.push(escape);
  const exitCode = status === "late" || status.signal !== null ? null : status.code;
  const signal = status === "late" ? null : status.signal;
  if (stopped === null) {
    const tail = dropped.stderrLines > 0 ? stderrTail : hostStderr;
    const end = { exitCode, signal, stderrTail: tail.slice(-20).join("\n") };
    kept.beginLine(0);
    for (const draft of options.normalizer.end(end)) accept(stamp(draft));
  }
  return finish({ ...base, started, stdoutLines, stdoutBytes, exitCode, signal }, {
    resultSeen: stopped === null ? terminalSeen : null,
    stopped,
    killed,
    pgid,
    groupGone,
    spawnError: null,
  });
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

interface Collected {
  host: string;
  kept: KeptEvents;
  stderr: string[];
  hostStderr: string[];
  violations: Violation[];
  /** Stderr lines and violations not kept; the events' counts are `kept`'s. */
  dropped: { stderrLines: number; violations: number };
  started: number;
  stdoutLines: number;
  stdoutBytes: number;
  exitCode: number | null;
  signal: Deno.Signal | null;
}

function finish(
  collected: Collected,
  outcome: Pick<Observation, "resultSeen" | "stopped" | "killed" | "pgid" | "groupGone" | "spawnError">,
): Observation {
  const { started, kept, dropped, ...rest } = collected;
  const events = kept.events;
  const text = events.flatMap((event) => event.kind === "text" ? [event.text] : []).join("\n");
  return {
    ...rest,
    ...outcome,
    events,
    dropped: { events: kept.dropped, rawLines: kept.rawDropped, ...dropped },
    kinds: events.map((event) => event.kind),
    text: text === "" ? [] : text.split("\n"),
    durationMs: Math.round(performance.now() - started),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
