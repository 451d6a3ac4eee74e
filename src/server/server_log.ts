/**
 * What the conformance MCP server saw: the server vantage of the MCP Apps catalogue. The SDK handler builds a
 * fresh `McpServer` per request, so the log lives with the listener, not with a server instance.
 *
 * The log is bounded, since anyone who reaches the server writes to it: each list keeps its last
 * {@linkcode LOG_LIST_LIMIT} entries (`dropped` counts the rest), and strings in recorded arguments,
 * capabilities and client infos are cut at {@linkcode LOG_STRING_LIMIT} characters with a marker. A suite run
 * sends a few hundred messages with short nonces, so its verdicts read the same entries as before.
 *
 * @module
 */
import type { SecondServerLog, ServerLog } from "../fixtures.ts";

/** Entries each list of the log keeps; older ones are dropped and counted. */
export const LOG_LIST_LIMIT = 1000;

/** Characters a recorded string keeps; the rest becomes {@linkcode TRUNCATION_MARKER} and a count. */
export const LOG_STRING_LIMIT = 4096;

/** What replaces the cut end of a long string: `…[truncated 123 characters]`. */
export const TRUNCATION_MARKER = "…[truncated";

/** Array items and object keys a recorded value keeps, and how deep it is copied. */
const LOG_ITEMS_LIMIT = 256;
const LOG_DEPTH_LIMIT = 16;

/** The `_meta` key of a stateless request's client capabilities (MCP 2026-07-28). */
const STATELESS_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/** The `_meta` key of a stateless request's client info (MCP 2026-07-28). */
const STATELESS_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/** One JSON-RPC message the server received. */
export interface ServerLogEntry {
  /** The JSON-RPC method. */
  readonly method: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** Tool name for `tools/call`, URI for `resources/read`. */
  readonly target?: string;
}

/**
 * A JSON snapshot of the log, as `conformance_server_log` returns it: the fixture spec's `ServerLog`
 * (src/fixtures.ts) plus the `initialize` client infos and every method received.
 */
export interface ServerLogSnapshot extends ServerLog {
  /** The `clientInfo` of every `initialize`, in order. */
  clientInfo: Record<string, unknown>[];
  /** Every JSON-RPC method received, in order. */
  methods: ServerLogEntry[];
  /** Entries dropped from the front of the lists above once they reached {@linkcode LOG_LIST_LIMIT}. */
  dropped: number;
}

type LogLists = Required<Omit<ServerLogSnapshot, "dropped" | "secondServer">>;

/** The record of one server's traffic: append-only, up to {@linkcode LOG_LIST_LIMIT} entries per list. */
export class ServerLogRecorder {
  #dropped = 0;
  readonly #data: LogLists = {
    clientCapabilities: [],
    clientInfo: [],
    resourcesRead: [],
    toolCalls: [],
    markers: [],
    methods: [],
  };

  /** Records one JSON-RPC message (a request or notification body element). */
  recordMessage(message: unknown): void {
    if (!isRecord(message) || typeof message.method !== "string") return;
    const at = Date.now();
    const params = isRecord(message.params) ? message.params : {};
    const method = message.method;
    if (method === "initialize") {
      this.#push(
        this.#data.clientCapabilities,
        isRecord(params.capabilities) ? bounded(params.capabilities) : {},
      );
      this.#push(this.#data.clientInfo, isRecord(params.clientInfo) ? bounded(params.clientInfo) : {});
    } else {
      this.#recordStateless(method, isRecord(params._meta) ? params._meta : {});
    }
    let target: string | undefined;
    if (method === "resources/read" && typeof params.uri === "string") {
      target = truncated(params.uri);
      this.#push(this.#data.resourcesRead, { uri: target, at });
    }
    if (method === "tools/call" && typeof params.name === "string") {
      target = truncated(params.name);
      this.#push(this.#data.toolCalls, {
        name: target,
        arguments: isRecord(params.arguments) ? bounded(params.arguments) : {},
        at,
      });
    }
    const name = truncated(method);
    this.#push(
      this.#data.methods,
      target === undefined ? { method: name, at } : { method: name, at, target },
    );
  }

  /**
   * A client of the stateless protocol (2026-07-28: `server/discover`, no `initialize`) sends its capabilities
   * and client info in every request's `_meta`: they are recorded as an `initialize` would be, at
   * `server/discover` and whenever they change, not once per request.
   */
  #recordStateless(method: string, meta: Record<string, unknown>): void {
    const capabilities = meta[STATELESS_CAPABILITIES];
    if (!isRecord(capabilities)) return;
    const kept = bounded(capabilities);
    const info = meta[STATELESS_CLIENT_INFO];
    const last = this.#data.clientCapabilities.at(-1);
    if (method !== "server/discover" && last !== undefined && JSON.stringify(last) === JSON.stringify(kept)) {
      return;
    }
    this.#push(this.#data.clientCapabilities, kept);
    this.#push(this.#data.clientInfo, isRecord(info) ? bounded(info) : {});
  }

  /** Records a marker the View posted through the app-only log tool. */
  recordMarker(marker: string): void {
    this.#push(this.#data.markers, { marker: truncated(marker), at: Date.now() });
  }

  /** A deep copy of everything kept so far, with the count of entries dropped. */
  snapshot(): ServerLogSnapshot {
    return { ...structuredClone(this.#data), dropped: this.#dropped };
  }

  /** Forgets everything (between independent runs on one listener). */
  clear(): void {
    for (const list of Object.values(this.#data)) list.length = 0;
    this.#dropped = 0;
  }

  #push<T>(list: T[], entry: T): void {
    list.push(entry);
    if (list.length > LOG_LIST_LIMIT) {
      list.splice(0, list.length - LOG_LIST_LIMIT);
      this.#dropped++;
    }
  }
}

function truncated(text: string): string {
  return text.length <= LOG_STRING_LIMIT
    ? text
    : `${text.slice(0, LOG_STRING_LIMIT)}${TRUNCATION_MARKER} ${text.length - LOG_STRING_LIMIT} characters]`;
}

/** A copy of a JSON value with long strings cut and wide or deep parts elided, so one entry stays small. */
function bounded<T>(value: T, depth = 0): T {
  if (typeof value === "string") return truncated(value) as T;
  if (typeof value !== "object" || value === null) return value;
  if (depth >= LOG_DEPTH_LIMIT) return `${TRUNCATION_MARKER} nesting]` as T;
  if (Array.isArray(value)) {
    const kept = value.slice(0, LOG_ITEMS_LIMIT).map((item) => bounded(item, depth + 1));
    if (value.length > LOG_ITEMS_LIMIT) {
      kept.push(`${TRUNCATION_MARKER} ${value.length - LOG_ITEMS_LIMIT} items]`);
    }
    return kept as T;
  }
  const entries = Object.entries(value);
  const kept = Object.fromEntries(
    entries.slice(0, LOG_ITEMS_LIMIT).map(([key, item]) => [key, bounded(item, depth + 1)]),
  );
  if (entries.length > LOG_ITEMS_LIMIT) kept[TRUNCATION_MARKER] = `${entries.length - LOG_ITEMS_LIMIT} keys]`;
  return kept as T;
}

/**
 * What a second server's log tells the main server's `conformance_server_log` answer: whether a client sent it
 * `initialize` and `tools/list`, and every `tools/call` it received.
 *
 * @example
 * ```ts
 * import { ServerLogRecorder, secondServerLogOf } from "./server_log.ts";
 * const second = new ServerLogRecorder();
 * second.recordMessage({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
 * console.log(secondServerLogOf(second.snapshot())); // { initialized: true, toolsListed: false, toolCalls: [] }
 * ```
 */
export function secondServerLogOf(log: ServerLogSnapshot): SecondServerLog {
  return {
    initialized: log.methods.some((entry) => entry.method === "initialize"),
    toolsListed: log.methods.some((entry) => entry.method === "tools/list"),
    toolCalls: log.toolCalls,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
