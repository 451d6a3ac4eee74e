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
  /** The session start. */
  kind: "init";
  /** The host's session id. */
  sessionId?: string;
  /** The model the host runs. */
  model?: string;
  /** The host's working folder. */
  cwd?: string;
  /** The host's own version string. */
  hostVersion?: string;
}

/** Assistant text; `delta` when the host streams fragments. */
export interface TextEvent extends EventBase {
  /** Assistant text. */
  kind: "text";
  /** The text. */
  text: string;
  /** `true`: a fragment of a longer text; `false`: the whole text. */
  delta: boolean;
}

/** The model asked for a tool. */
export interface ToolCallEvent extends EventBase {
  /** The model called a tool. */
  kind: "tool_call";
  /** The host's call id, to match its result. */
  id?: string;
  /** The tool's name. */
  name: string;
  /** The tool's input as the host sent it. */
  input: unknown;
}

/** A tool finished. */
export interface ToolResultEvent extends EventBase {
  /** A tool's answer. */
  kind: "tool_result";
  /** The call id it answers. */
  id?: string;
  /** The tool's name. */
  name?: string;
  /** What the tool returned. */
  output?: unknown;
  /** Whether the tool failed. */
  isError: boolean;
}

/** Token and cost figures. The harness sums `step` scopes and takes a `run` scope as final. */
export interface UsageEvent extends EventBase {
  /** Token use. */
  kind: "usage";
  /** Input tokens. */
  input: number;
  /** Output tokens. */
  output: number;
  /** Input tokens read from the cache. */
  cacheRead: number;
  /** Input tokens written to the cache. */
  cacheWrite: number;
  /** Reasoning tokens. */
  reasoning?: number;
  /** Cost in US dollars, when the host says. */
  costUsd?: number;
  /** `run`: totals for the run; `step`: one model call. */
  scope: "run" | "step";
}

/** A non-terminal retry notice. */
export interface RetryEvent extends EventBase {
  /** The host retries a failed model call. */
  kind: "retry";
  /** This attempt's number. */
  attempt?: number;
  /** How many attempts the host will make. */
  maxAttempts?: number;
  /** The wait before the attempt. */
  delayMs?: number;
  /** What failed. */
  message: string;
}

/** A non-terminal error; fatality is expressed only by `terminal.status`. */
export interface ErrorEvent extends EventBase {
  /** An error the host reported without ending. */
  kind: "error";
  /** The error text. */
  message: string;
  /** The host's error code. */
  code?: string;
}

/** How a run ended. Exactly one, and last. */
export type TerminalStatus = "success" | "error" | "cancelled" | "max_turns";

/** The end of the run. */
export interface TerminalEvent extends EventBase {
  /** The end of the run. */
  kind: "terminal";
  /** How the run ended. */
  status: TerminalStatus;
  /** Why, when it did not succeed. */
  reason?: string;
  /** The final answer text. */
  result?: string;
  /** The structured answer (blocking JSON, a schema). */
  structured?: unknown;
  /** The exit code the host reported in its stream. */
  exitCode?: number;
}

/** A line the normaliser could not place. A conforming stream has none outside the host's ignore list. */
export interface UnparsedEvent extends EventBase {
  /** A line the normaliser could not read as an event. */
  kind: "unparsed";
  /** `not_json`: not JSON at all; `unknown_kind`: JSON of a kind the dialect does not know. */
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
  /** The exit code, or `null` when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, or `null`. */
  signal: string | null;
  /** The end of its stderr. */
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
