/**
 * The shared event set every agent-CLI stream is normalised into. One raw stdout line may yield several
 * events; events a normaliser invents (a stand-in `init`, an EOF terminal) carry `synthetic: true`.
 *
 * @module
 */

/** Fields every normalised event has. */
export interface EventBase {
  /** The host id whose stream this came from. */
  host: string;
  /** 0-based position in the normalised stream. */
  seq: number;
  /** The exact stdout line the event came from, or `null` when invented at EOF. */
  raw: string | null;
  /** True when the normaliser inferred the event instead of translating a host event. */
  synthetic: boolean;
}

/** The session start. At most one, and first where the host's stream shape requires it. */
export interface InitEvent extends EventBase {
  kind: "init";
  sessionId?: string;
  model?: string;
  cwd?: string;
  hostVersion?: string;
}

/** Assistant text; `delta` when the host streams fragments. */
export interface TextEvent extends EventBase {
  kind: "text";
  text: string;
  delta: boolean;
}

/** The model asked for a tool. */
export interface ToolCallEvent extends EventBase {
  kind: "tool_call";
  id?: string;
  name: string;
  input: unknown;
}

/** A tool finished. */
export interface ToolResultEvent extends EventBase {
  kind: "tool_result";
  id?: string;
  name?: string;
  output?: unknown;
  isError: boolean;
}

/** Token and cost figures. The harness sums `step` scopes and takes a `run` scope as final. */
export interface UsageEvent extends EventBase {
  kind: "usage";
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning?: number;
  costUsd?: number;
  scope: "run" | "step";
}

/** A non-terminal retry notice. */
export interface RetryEvent extends EventBase {
  kind: "retry";
  attempt?: number;
  maxAttempts?: number;
  delayMs?: number;
  message: string;
}

/** A non-terminal error; fatality is expressed only by `terminal.status`. */
export interface ErrorEvent extends EventBase {
  kind: "error";
  message: string;
  code?: string;
}

/** How a run ended. Exactly one, and last. */
export type TerminalStatus = "success" | "error" | "cancelled" | "max_turns";

/** The end of the run. */
export interface TerminalEvent extends EventBase {
  kind: "terminal";
  status: TerminalStatus;
  reason?: string;
  result?: string;
  structured?: unknown;
  exitCode?: number;
}

/** A line the normaliser could not place. A conforming stream has none outside the host's ignore list. */
export interface UnparsedEvent extends EventBase {
  kind: "unparsed";
  why: "not_json" | "unknown_kind";
}

/** Any normalised event. */
export type NormalizedEvent =
  | InitEvent
  | TextEvent
  | ToolCallEvent
  | ToolResultEvent
  | UsageEvent
  | RetryEvent
  | ErrorEvent
  | TerminalEvent
  | UnparsedEvent;

/** The kind tag of a {@linkcode NormalizedEvent}. */
export type EventKind = NormalizedEvent["kind"];

/** An event before the normaliser session stamps `host` and `seq`. */
export type DraftEvent = NormalizedEvent extends infer E ? E extends NormalizedEvent ? Omit<E, "host" | "seq">
  : never
  : never;

/** What the process did at the end, for normalisers whose terminal rule depends on it (EOF-terminal hosts). */
export interface StreamEnd {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
}

/**
 * One dialect's translation from wire lines to events. Stateful per run: create one per stream with
 * {@linkcode NormalizerFactory}.
 */
export interface Normalizer {
  /** Translates one stdout line (without its newline). May return zero or more events. */
  line(raw: string): DraftEvent[];
  /** Called once at EOF; EOF-terminal dialects invent their terminal here. */
  end(end: StreamEnd): DraftEvent[];
}

/** Makes a fresh {@linkcode Normalizer} for one run. */
export type NormalizerFactory = (options: { argv: readonly string[] }) => Normalizer;
