/**
 * What the conformance MCP server saw: the server vantage of the MCP Apps catalogue. The SDK handler builds a
 * fresh `McpServer` per request, so the log lives with the listener, not with a server instance.
 *
 * @module
 */
import type { SecondServerLog, ServerLog } from "../fixtures.ts";

/** One JSON-RPC message the server received. */
export interface ServerLogEntry {
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
  clientInfo: Record<string, unknown>[];
  /** Every JSON-RPC method received, in order. */
  methods: ServerLogEntry[];
}

/** The append-only record of one server's traffic. */
export class ServerLogRecorder {
  readonly #data: ServerLogSnapshot = {
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
      this.#data.clientCapabilities.push(isRecord(params.capabilities) ? params.capabilities : {});
      this.#data.clientInfo.push(isRecord(params.clientInfo) ? params.clientInfo : {});
    }
    let target: string | undefined;
    if (method === "resources/read" && typeof params.uri === "string") {
      target = params.uri;
      this.#data.resourcesRead.push({ uri: params.uri, at });
    }
    if (method === "tools/call" && typeof params.name === "string") {
      target = params.name;
      this.#data.toolCalls.push({
        name: params.name,
        arguments: isRecord(params.arguments) ? params.arguments : {},
        at,
      });
    }
    this.#data.methods.push(target === undefined ? { method, at } : { method, at, target });
  }

  /** Records a marker the View posted through the app-only log tool. */
  recordMarker(marker: string): void {
    this.#data.markers.push({ marker, at: Date.now() });
  }

  /** A deep copy of everything so far. */
  snapshot(): ServerLogSnapshot {
    return structuredClone(this.#data);
  }

  /** Forgets everything (between independent runs on one listener). */
  clear(): void {
    for (const list of Object.values(this.#data)) list.length = 0;
  }
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
