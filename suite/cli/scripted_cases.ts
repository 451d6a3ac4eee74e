/**
 * The `cli/scripted/*` table: each row is a fake-host script, the run options, and the observation the
 * executor must report. The first eight are the little-loops seed cases; the
 * rest reproduce failure shapes seen from real CLIs (retry storms, reconnects, max-turns, several agent ends).
 *
 * @module
 */
import type { GoldenPath, StreamShape } from "../../src/exec/host_runner.ts";
import type { StopReason, Violation } from "../../src/exec/observation.ts";
import type { EventKind, TerminalStatus } from "../../src/normalize/events.ts";
import type { ObserveLimits } from "./observe.ts";

/** What a row expects; every field given must match exactly. */
export interface ExpectedObservation {
  readonly kinds: readonly EventKind[];
  readonly text?: readonly string[];
  /** Host stderr plus the executor's `[result]` marker lines. */
  readonly stderr?: readonly string[];
  readonly exitCode?: number | null;
  readonly signal?: Deno.Signal | null;
  readonly resultSeen: boolean | null;
  readonly stopped?: StopReason | null;
  readonly killed?: boolean;
  readonly terminalStatus?: TerminalStatus;
  readonly violations?: readonly Violation["kind"][];
  /** At least this many stdout bytes were read. */
  readonly minStdoutBytes?: number;
}

/** One row of the table. */
export interface ScriptedCase {
  /** The case name: the test id is `cli/scripted/<name>`. */
  readonly name: string;
  /** What the case checks, in words: the test's title in reports. */
  readonly title: string;
  /** Directive lines (without the `@@fake` fence). */
  readonly script: readonly string[];
  readonly path?: GoldenPath;
  readonly limits?: ObserveLimits;
  /** The fake speaks another host's wire (`init dialect=…`): read it with that dialect and stream shape. */
  readonly speaks?: { readonly dialect: string; readonly streamShape: StreamShape };
  /** Abort the run from inside the event callback when a text event has exactly this text. */
  readonly abortOnText?: string;
  readonly expect: ExpectedObservation;
}

const INIT = "init model=m session=s";
const STOPPED = { resultSeen: null, killed: true, exitCode: null } as const;
const RESULT_LINE = (extra: string) =>
  `raw {"type":"result","subtype":"success","is_error":false,"result":"${extra}","usage":{"input_tokens":1,"output_tokens":1}}`;

/** Every scripted case, in run order. */
export const SCRIPTED_CASES: readonly ScriptedCase[] = [
  {
    name: "ordering",
    title: "Events arrive in stream order: init, text, tool call, text, usage, terminal",
    script: [INIT, "text a", 'tool T {"k":1}', "text b", "result in=1 out=2"],
    expect: {
      kinds: ["init", "text", "tool_call", "text", "usage", "terminal"],
      text: ["a", "b"],
      stderr: [],
      resultSeen: true,
      exitCode: 0,
      terminalStatus: "success",
    },
  },
  {
    name: "result-error",
    title: "An error result ends the stream as an error terminal, its message on stderr",
    script: [INIT, "result error=boom in=1 out=1"],
    expect: {
      kinds: ["init", "usage", "terminal"],
      stderr: ["[result] boom"],
      resultSeen: true,
      exitCode: 0,
      terminalStatus: "error",
    },
  },
  {
    name: "exit-before-terminal",
    title: "A host that exits before its terminal event is reported as such, with its exit code",
    script: [INIT, "text a", "exit 3"],
    expect: { kinds: ["init", "text"], text: ["a"], resultSeen: false, exitCode: 3, stderr: [] },
  },
  {
    name: "failed-start",
    title: "A host that fails at once (stderr only, exit 1) yields no events, its stderr kept",
    script: ["stderr no auth", "exit 1"],
    expect: { kinds: [], stderr: ["no auth"], resultSeen: false, exitCode: 1 },
  },
  {
    name: "idle-timeout",
    title: "A host that goes silent is stopped by the idle timeout and its group killed",
    script: [INIT, "text working", "sleep 30", "result in=1 out=1"],
    // The start gets its own allowance so that a slow start on a loaded machine cannot pass for idleness.
    limits: { idleTimeoutMs: 500, startupTimeoutMs: 20_000 },
    expect: { kinds: ["init", "text"], text: ["working"], stopped: "idle", ...STOPPED },
  },
  {
    name: "abort-from-callback",
    title: "An abort from inside the event callback stops the run and kills the group",
    script: [INIT, "text working", "sleep 30", "result in=1 out=1"],
    abortOnText: "working",
    expect: { kinds: ["init", "text"], text: ["working"], stopped: "abort", ...STOPPED },
  },
  {
    name: "wall-clock-hang",
    title: "A host that never prints is stopped by the wall clock",
    // A host that never prints: whatever the machine's load, only the wall clock can end it.
    script: ["hang"],
    limits: { wallTimeoutMs: 800 },
    expect: { kinds: [], stopped: "wall", ...STOPPED },
  },
  {
    name: "result-then-hang",
    title: "A host that hangs after its result is killed once the grace period ends",
    script: [INIT, "result in=1 out=1", "hang"],
    limits: { postStreamGraceMs: 300 },
    expect: {
      kinds: ["init", "usage", "terminal"],
      resultSeen: true,
      stopped: null,
      killed: true,
      exitCode: null,
      signal: "SIGTERM",
      terminalStatus: "success",
    },
  },
  {
    // Early in the table: the longest row starts first, so it overlaps the rest when cases run concurrently.
    name: "flood-100mb",
    title: "A 100 MB flood is read through to the result, with no violation",
    script: [INIT, "flood 100000000", "text OK", "result"],
    // A bound against a hang, under the tier's (suite/cli/scripted.ts): reading 100 MB took over the default
    // 30 s beside the CLI variant table's other hosts at load 50 (fresh-clone CI of 2026-12-06).
    limits: { wallTimeoutMs: 110_000 },
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      violations: [],
      resultSeen: true,
      exitCode: 0,
      minStdoutBytes: 100_000_000,
    },
  },
  {
    // claude pairs an error result with exit 1 (a failed login): both must be reported as they are.
    name: "error-result-exit-1",
    title: "An error result with exit code 1 is reported with both (claude's failed login)",
    script: [INIT, "text Not logged in · Please run /login", "result error=authentication_failed", "exit 1"],
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      stderr: ["[result] authentication_failed"],
      resultSeen: true,
      exitCode: 1,
      terminalStatus: "error",
    },
  },
  {
    name: "retry-storm",
    title: "A storm of retries stays non-terminal until the one result",
    script: [
      INIT,
      ...Array.from({ length: 8 }, (_, i) => `retry message=overloaded attempt=${i + 1} max=10`),
      "text OK",
      "result",
    ],
    expect: {
      kinds: ["init", ...Array<EventKind>(8).fill("retry"), "text", "usage", "terminal"],
      resultSeen: true,
      exitCode: 0,
      stderr: [],
      terminalStatus: "success",
    },
  },
  {
    // pi ends every retry attempt with its own `agent_end`; an event-terminal host's first terminal ends the
    // stream and later ones are drained unread, so they can neither duplicate nor reorder the terminal.
    name: "repeated-terminals",
    title: "Only the first terminal event of an event-terminal host counts",
    script: [INIT, "text a", "result error=attempt 1 failed", RESULT_LINE("second"), RESULT_LINE("third")],
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      resultSeen: true,
      exitCode: 0,
      terminalStatus: "error",
      stderr: ["[result] attempt 1 failed"],
    },
  },
  {
    // claude's background tasks can write after `result`: the run ends at the result all the same.
    name: "output-after-terminal",
    title: "Output after the terminal event is drained unread",
    script: [
      INIT,
      "result in=1 out=1",
      'raw {"type":"assistant","message":{"content":[{"type":"text","text":"late"}]}}',
      "raw not json",
      "stderr late noise",
    ],
    expect: {
      kinds: ["init", "usage", "terminal"],
      resultSeen: true,
      exitCode: 0,
      terminalStatus: "success",
    },
  },
  {
    // codex blocks forever reading an open stdin; the executor closes it, so a reading host sees EOF.
    name: "reads-stdin",
    title: "A host reading stdin sees EOF, not a blocking pipe",
    script: [INIT, "stdin", "text OK", "result in=1 out=1"],
    limits: { wallTimeoutMs: 10_000 },
    expect: { kinds: ["init", "text", "usage", "terminal"], resultSeen: true, exitCode: 0, stderr: [] },
  },
  {
    // gemini's authentication failure: nothing on stdout, a typed exit code.
    name: "empty-stdout-exit-41",
    title: "Nothing on stdout and a typed exit code (gemini’s auth failure)",
    script: ["stderr Please set an Auth method in your settings.json", "exit 41"],
    expect: {
      kinds: [],
      resultSeen: false,
      exitCode: 41,
      stderr: ["Please set an Auth method in your settings.json"],
    },
  },
  {
    name: "malformed-json",
    title: "A malformed JSON line is unparsed, and the stream goes on",
    script: [INIT, 'raw {"type":"assistant",', "raw plain text", 'raw {"no_type":1}', "text OK", "result"],
    expect: {
      kinds: ["init", "unparsed", "unparsed", "unparsed", "text", "usage", "terminal"],
      resultSeen: true,
      exitCode: 0,
      terminalStatus: "success",
    },
  },
  {
    // A line over the limit is a contract violation, not a crash; the stream goes on after it.
    name: "line-over-limit",
    title: "A line over the byte limit is a violation, not a crash",
    script: [INIT, "flood 1048576", "text OK", "result"],
    limits: { maxLineBytes: 64 * 1024 },
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      violations: ["line_too_long"],
      resultSeen: true,
      exitCode: 0,
    },
  },
  {
    name: "invalid-utf8",
    title: "Invalid UTF-8 is a violation, the bad bytes replaced",
    // {"type":"assistant","message":{"content":[{"type":"text","text":"caf\xff"}]}}
    script: [
      INIT,
      `bytes ${hex('{"type":"assistant","message":{"content":[{"type":"text","text":"caf')}ff${hex('"}]}}')}`,
      "result",
    ],
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      text: ["caf\uFFFD"],
      violations: ["invalid_utf8"],
      resultSeen: true,
      exitCode: 0,
    },
  },
  {
    name: "max-turns",
    title: "A max-turns result ends the stream with the max_turns status",
    script: [
      INIT,
      'raw {"type":"result","subtype":"error_max_turns","is_error":true,"usage":{"input_tokens":1,"output_tokens":1}}',
    ],
    expect: {
      kinds: ["init", "usage", "terminal"],
      terminalStatus: "max_turns",
      stderr: ["[result] error_max_turns"],
      resultSeen: true,
      exitCode: 0,
    },
  },
  {
    // pi on retry: every failed attempt ends with its own `agent_end`; read as pi, exactly one terminal
    // results, the confirmed last one, and the failed attempts are non-terminal errors and retries.
    name: "pi-retries-several-agent-ends",
    title: "pi’s retries end in exactly one terminal, the last one",
    speaks: { dialect: "pi", streamShape: { init: "required", terminal: "eof" } },
    script: [
      "init dialect=pi",
      "text working",
      "retry message=Connection error. attempt=1 max=3",
      "retry message=Connection error. attempt=2 max=3",
      "text OK",
      "result in=1 out=1",
    ],
    expect: {
      kinds: ["init", "text", "error", "retry", "error", "retry", "text", "usage", "terminal"],
      resultSeen: false,
      exitCode: 0,
      stderr: [],
      terminalStatus: "success",
    },
  },
  {
    // codex offline: non-terminal `error` reconnect notices, no init of its own (a synthetic one stands in).
    name: "codex-reconnect-storm",
    title: "codex’s reconnect notices are non-terminal errors behind a synthetic init",
    speaks: { dialect: "codex", streamShape: { init: "synthetic", terminal: "event" } },
    script: [
      "init dialect=codex",
      ...[1, 2, 3, 4, 5].map((n) => `retry message=stream disconnected attempt=${n} max=5`),
      "text OK",
      "result in=1 out=1",
    ],
    expect: {
      kinds: ["init", "retry", "retry", "retry", "retry", "retry", "text", "usage", "terminal"],
      resultSeen: true,
      exitCode: 0,
      stderr: [],
      terminalStatus: "success",
    },
  },
  {
    // An event-terminal stream that simply ends: EOF is reached, no terminal is invented.
    name: "eof-without-terminal",
    title: "An event-terminal stream that just ends gets no invented terminal",
    script: [INIT, "text a"],
    expect: { kinds: ["init", "text"], resultSeen: false, exitCode: 0, stderr: [] },
  },
  {
    name: "stderr-noise-on-success",
    title: "Noise on stderr does not spoil a successful run",
    script: [INIT, "stderr YOLO mode is enabled.", "text OK", "result"],
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      stderr: ["YOLO mode is enabled."],
      resultSeen: true,
      exitCode: 0,
      terminalStatus: "success",
    },
  },
];

function hex(text: string): string {
  return Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
