/**
 * An Agent Client Protocol client connection: the agent spawned like every host (its own process group, a
 * projected environment, the spawn's escape tag, tracked for a second Ctrl-C) but with stdin piped, since ACP
 * is JSON-RPC 2.0 over the agent's stdio, one message a line. Every line either way is kept in a
 * {@linkcode TranscriptEntry} (direction, time since spawn, the raw line), so ordering and stray stdout text
 * stay observable; the framing is written here rather than taken from `@agentclientprotocol/sdk`, whose
 * client parses lines away before a test could see them.
 *
 * @module
 */
import { runTagEnv } from "../exec/run_tag.ts";
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "../exec/env.ts";
import type { HostInvocation } from "../exec/host_runner.ts";
import { forEachLine } from "../exec/line_reader.ts";
import { groupAlive, killGroup, trackGroup } from "../exec/process_group.ts";
import { newSpawnTag, SPAWN_TAG_ENV } from "../exec/escapes.ts";
import { raceDelay } from "../time.ts";

/** Where a transcript line went: to the agent's stdin, from its stdout, or from its stderr. */
export type Direction = "send" | "recv" | "stderr";

/** A JSON-RPC 2.0 message as parsed from a line (request, notification or response). */
export interface JsonRpcMessage {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown };
}

/** One line of the conversation, in the order the harness saw it. */
export interface TranscriptEntry {
  /** Which way it went. */
  readonly dir: Direction;
  /** Milliseconds since the spawn. */
  readonly at: number;
  /** The line as written or read, without its newline. */
  readonly raw: string;
  /** The line as a JSON-RPC 2.0 message, or `null` when it is not one (stderr lines are always `null`). */
  readonly message: JsonRpcMessage | null;
}

/** The client's answer to one of the agent's requests: a result or a JSON-RPC error. */
export type AgentAnswer = { result: unknown } | { error: { code: number; message: string } };

/**
 * How the client answers a request the agent sends (`session/request_permission`, `fs/*`, …). A promise keeps
 * the request pending until it settles, as a user deciding would: a test cancels the turn meanwhile and then
 * answers `cancelled`.
 */
export type AgentRequestHandler = (message: JsonRpcMessage) => AgentAnswer | Promise<AgentAnswer>;

/** Parses a line as a JSON-RPC 2.0 message: an object with `jsonrpc: "2.0"` and a method or an id. */
export function parseMessage(raw: string): JsonRpcMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const message = value as JsonRpcMessage;
  if (message.jsonrpc !== "2.0") return null;
  if (!("method" in message) && !("id" in message)) return null;
  return message;
}

/** Whether a message is a response (no method, an id, a result or an error). */
export function isResponse(message: JsonRpcMessage): boolean {
  return message.method === undefined && message.id !== undefined &&
    ("result" in message || "error" in message);
}

/** Answers every agent request with `-32601` except the ones the client advertised (none by default). */
export const REFUSE_AGENT_REQUESTS: AgentRequestHandler = (message) => ({
  error: { code: -32601, message: `Method not found: ${String(message.method)}` },
});

/** Options of {@linkcode AcpConnection.spawn}. */
export interface AcpSpawnOptions {
  /** The parent environment to project from; default the variables the projection keeps. */
  readonly parentEnv?: Readonly<Record<string, string>>;
  /** Answers the agent's own requests; default {@linkcode REFUSE_AGENT_REQUESTS}. */
  readonly onAgentRequest?: AgentRequestHandler;
}

/** A live ACP agent process and its transcript. Dispose to end its group (and prove it gone). */
export class AcpConnection implements AsyncDisposable {
  /** Every line either way, in arrival order. */
  readonly transcript: TranscriptEntry[] = [];
  /** The agent's exit status once it has exited. */
  readonly exited: Promise<Deno.CommandStatus>;
  /** The process group id (the agent's pid). */
  readonly pgid: number;
  /** Whether the group was seen gone after {@linkcode stop} or {@linkcode checkGone}. */
  groupGone = false;
  /** Resolves when stdout and stderr have both ended. */
  readonly outputClosed: Promise<void>;
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #started = performance.now();
  readonly #untrack: () => void;
  #onAgentRequest: AgentRequestHandler;
  readonly #waiters = new Set<() => void>();
  #nextId = 1;
  #stdinClosed = false;

  private constructor(child: Deno.ChildProcess, onAgentRequest: AgentRequestHandler) {
    this.#child = child;
    this.pgid = child.pid;
    this.#untrack = trackGroup(child.pid);
    this.#onAgentRequest = onAgentRequest;
    this.#writer = child.stdin.getWriter();
    this.exited = child.status;
    const stdout = forEachLine(child.stdout, (line) => this.#received("recv", line.text));
    const stderr = forEachLine(child.stderr, (line) => this.#received("stderr", line.text));
    this.outputClosed = Promise.all([stdout, stderr]).then(() => this.#wake(), () => this.#wake());
    void this.exited.then(() => this.#wake());
  }

  /**
   * Spawns the invocation's program in its own process group, stdin, stdout and stderr piped. Throws what
   * `Deno.Command.spawn` throws.
   */
  static spawn(invocation: HostInvocation, options: AcpSpawnOptions = {}): AcpConnection {
    const child = new Deno.Command(invocation.binary, {
      args: [...invocation.args],
      env: {
        ...projectEnv(
          invocation,
          options.parentEnv ?? readEnv([...BASELINE_ENV_ALLOW, ...invocation.envAllow]),
        ),
        [SPAWN_TAG_ENV]: newSpawnTag(),
        // The run's tag: the reaper finds the agent's processes by it after a SIGKILL (src/exec/run_tag.ts).
        ...runTagEnv(),
      },
      clearEnv: true,
      ...(invocation.cwd === undefined ? {} : { cwd: invocation.cwd }),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    return new AcpConnection(child, options.onAgentRequest ?? REFUSE_AGENT_REQUESTS);
  }

  #now(): number {
    return Math.round(performance.now() - this.#started);
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #received(dir: Direction, raw: string): void {
    const message = dir === "recv" ? parseMessage(raw) : null;
    this.transcript.push({ dir, at: this.#now(), raw, message });
    if (message && message.method !== undefined && message.id !== undefined) {
      void this.#answer(message);
    }
    this.#wake();
  }

  async #answer(message: JsonRpcMessage): Promise<void> {
    const answer = await this.#onAgentRequest(message);
    await this.sendMessage({ jsonrpc: "2.0", id: message.id, ...answer }).catch(() => {});
  }

  /** Answers the agent's requests from now on with `handler` (a permission choice, a client `fs/*` method). */
  answerAgentRequests(handler: AgentRequestHandler): void {
    this.#onAgentRequest = handler;
  }

  /** Writes one raw line (a newline is added). Resolves `false` when stdin is closed or broken. */
  async sendRaw(raw: string): Promise<boolean> {
    if (this.#stdinClosed) return false;
    this.transcript.push({ dir: "send", at: this.#now(), raw, message: parseMessage(raw) });
    try {
      await this.#writer.write(new TextEncoder().encode(raw + "\n"));
      return true;
    } catch {
      return false;
    }
  }

  /** Writes one message as a line. */
  sendMessage(message: Record<string, unknown>): Promise<boolean> {
    return this.sendRaw(JSON.stringify(message));
  }

  /** Sends a notification. */
  notify(method: string, params: unknown): Promise<boolean> {
    return this.sendMessage({ jsonrpc: "2.0", method, params });
  }

  /**
   * Sends a request and waits up to `timeoutMs` for the response with its id. Resolves to the response, or to
   * `"timeout"`, or to `"exited"` when the agent's output ended first.
   */
  async request(
    method: string,
    params: unknown,
    timeoutMs: number,
  ): Promise<{ id: number; response: JsonRpcMessage | "timeout" | "exited" }> {
    const id = this.#nextId++;
    await this.sendMessage({ jsonrpc: "2.0", id, method, params });
    return { id, response: await this.response(id, timeoutMs) };
  }

  /** Starts a request without waiting: its id, and the wait for its response. */
  async start(method: string, params: unknown, timeoutMs: number): Promise<{
    id: number;
    response: Promise<JsonRpcMessage | "timeout" | "exited">;
  }> {
    const id = this.#nextId++;
    await this.sendMessage({ jsonrpc: "2.0", id, method, params });
    return { id, response: this.response(id, timeoutMs) };
  }

  /** Waits up to `timeoutMs` for the first response with `id`. */
  async response(id: unknown, timeoutMs: number): Promise<JsonRpcMessage | "timeout" | "exited"> {
    const found = await this.waitFor((entry) => {
      const message = entry.message;
      return message !== null && isResponse(message) && message.id === id;
    }, timeoutMs);
    return found === "timeout" || found === "exited" ? found : found.message!;
  }

  /** A fresh request id that no other request of this connection uses. */
  freshId(): number {
    return this.#nextId++;
  }

  /**
   * Waits up to `timeoutMs` for a received line matching `match` (looking at the whole transcript, so a line
   * already received counts). `"exited"` when the agent's output ended without one.
   */
  waitFor(
    match: (entry: TranscriptEntry) => boolean,
    timeoutMs: number,
  ): Promise<TranscriptEntry | "timeout" | "exited"> {
    return new Promise((resolve) => {
      let closed = false;
      void this.outputClosed.then(() => closed = true);
      const check = () => {
        const found = this.transcript.find((entry) => entry.dir === "recv" && match(entry));
        if (found) return done(found);
        if (closed) return done("exited");
      };
      const timer = setTimeout(() => done("timeout"), timeoutMs);
      const done = (value: TranscriptEntry | "timeout" | "exited") => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(value);
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Waits `ms` so late lines (an update after a response) have a chance to arrive. */
  async settle(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Closes the agent's stdin (ACP's end of the conversation). */
  async closeStdin(): Promise<void> {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    await this.#writer.close().catch(() => {});
  }

  /** Waits up to `ms` for the agent to exit: its status, or `"late"`. */
  async waitExit(ms: number): Promise<Deno.CommandStatus | "late"> {
    const status = await raceDelay([this.exited], ms);
    return status;
  }

  /** Whether no member of the group is left, noted in {@linkcode groupGone}. */
  async checkGone(): Promise<boolean> {
    this.groupGone = !(await groupAlive(this.pgid));
    return this.groupGone;
  }

  /** Ends the whole group (SIGTERM, a grace, SIGKILL) and notes whether it is gone. */
  async stop(graceMs = 1_000): Promise<boolean> {
    await this.closeStdin();
    this.groupGone = await killGroup(this.pgid, { graceMs, verifyMs: 5_000 });
    await raceDelay([this.outputClosed], 1_000);
    return this.groupGone;
  }

  /** Received stdout lines that are not JSON-RPC 2.0 messages. */
  strayLines(): TranscriptEntry[] {
    return this.transcript.filter((entry) => entry.dir === "recv" && entry.message === null);
  }

  /** Received messages (responses, notifications and requests), in order. */
  received(): JsonRpcMessage[] {
    return this.transcript.flatMap((entry) => entry.dir === "recv" && entry.message ? [entry.message] : []);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.groupGone) await this.stop();
    if (this.groupGone) this.#untrack();
  }
}
