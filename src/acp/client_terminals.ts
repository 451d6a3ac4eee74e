/**
 * The client's `terminal/*` methods of ACP v1 (docs/protocol/v1/terminals.mdx), served for real: a
 * `terminal/create` runs its command through `sh` in a process group of its own, in a folder under a root the
 * test owns (a sandbox), with its output kept in a buffer capped at the agent's `outputByteLimit`; `kill`
 * and `release` end the group; {@linkcode ClientTerminals.closeAll} ends every group still open and proves it
 * gone. Every call the agent makes is checked against the schema: what is malformed, or names a terminal this
 * client never created or already released, is answered `-32602` and kept in
 * {@linkcode ClientTerminals.problems} for the test to judge. The calls and answers themselves are in the
 * connection's transcript, like every other line.
 *
 * @module
 */
import type { AgentAnswer, JsonRpcMessage } from "./connection.ts";
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "../exec/env.ts";
import { runTagEnv } from "../exec/run_tag.ts";
import { groupAlive, killGroup, trackGroup } from "../exec/process_group.ts";
import { raceDelay } from "../time.ts";

/** How the command ended: the exit code, or the signal that ended it. */
export interface TerminalExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** One terminal this client created, as the test sees it. */
export interface ClientTerminal {
  readonly terminalId: string;
  readonly sessionId: string;
  /** The command and its arguments as the agent sent them. */
  readonly command: string;
  readonly args: readonly string[];
  /** The folder it ran in. */
  readonly cwd: string;
  /** Its process group (the `sh` it runs through). */
  readonly pgid: number;
  /** How it ended, once it has. */
  readonly exit: TerminalExit | null;
  /** Whether the agent released it. */
  readonly released: boolean;
  /** Whether the agent killed it (`terminal/kill`). */
  readonly killed: boolean;
  /** Whether the agent learnt how it ended: a `wait_for_exit` answered, or an `output` with `exitStatus`. */
  readonly exitSeen: boolean;
}

/** Options of {@linkcode ClientTerminals}. */
export interface ClientTerminalsOptions {
  /** The folder every command must run in or under (the sandbox's HOME); another `cwd` is refused. */
  readonly root: string;
  /** Where a command without a `cwd` runs (the session's cwd). */
  readonly defaultCwd: string;
  /** Variables every command gets, over the baseline ones (the sandbox's HOME and XDG folders). */
  readonly env: Readonly<Record<string, string>>;
}

/** The most output a terminal keeps whatever limit the agent asks for (or when it asks for none). */
export const MAX_OUTPUT_BYTES = 1_048_576;
/** How long a killed or released group may take to go, and the end's check waits, in milliseconds. */
const GONE_MS = 5_000;
/** Between SIGTERM and SIGKILL when the agent kills or releases a running command. */
const KILL_GRACE_MS = 500;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A live terminal: its public record and what serves it. */
class Terminal {
  readonly record: {
    -readonly [K in keyof ClientTerminal]: ClientTerminal[K];
  };
  readonly status: Promise<Deno.CommandStatus>;
  readonly drained: Promise<void>;
  readonly #limit: number;
  #buffer = new Uint8Array(0);
  #truncated = false;
  #gone = false;
  readonly #untrack: () => void;

  constructor(record: ClientTerminal, child: Deno.ChildProcess, limit: number) {
    this.record = { ...record };
    this.#limit = limit;
    this.#untrack = trackGroup(child.pid);
    this.status = child.status;
    this.drained = Promise.all([this.#drain(child.stdout), this.#drain(child.stderr)]).then(() => {});
    void this.status.then((status) => {
      this.record.exit = { exitCode: status.signal ? null : status.code, signal: status.signal };
    });
  }

  async #drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) this.#append(chunk);
    } catch {
      // The group was killed mid-read: what was read is kept.
    }
  }

  /** Keeps the last `limit` bytes: "the Client truncates from the beginning of the output". */
  #append(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#buffer.length + chunk.length);
    joined.set(this.#buffer);
    joined.set(chunk, this.#buffer.length);
    if (joined.length > this.#limit) {
      this.#truncated = true;
      this.#buffer = joined.slice(joined.length - this.#limit);
    } else {
      this.#buffer = joined;
    }
  }

  /** The output so far, cut at a character boundary ("MUST ensure truncation happens at a character boundary"). */
  output(): { output: string; truncated: boolean } {
    let start = 0;
    if (this.#truncated) {
      while (start < this.#buffer.length && (this.#buffer[start]! & 0xc0) === 0x80) start++;
    }
    return { output: new TextDecoder().decode(this.#buffer.subarray(start)), truncated: this.#truncated };
  }

  /** Ends the group if any member is left (SIGTERM, a grace, SIGKILL); whether it is gone. */
  async end(graceMs: number): Promise<boolean> {
    if (this.#gone) return true;
    // Once the group was seen gone its id may belong to someone else: it is never signalled again.
    if (await groupAlive(this.record.pgid)) {
      this.#gone = await killGroup(this.record.pgid, { graceMs, verifyMs: GONE_MS });
    } else {
      this.#gone = true;
    }
    if (this.#gone) this.#untrack();
    return this.#gone;
  }

  /** Notes the group gone when its command has exited and nothing of it is left (a background child may be). */
  async noteExit(): Promise<void> {
    await this.status;
    if (!this.#gone && !(await groupAlive(this.record.pgid))) {
      this.#gone = true;
      this.#untrack();
    }
  }
}

/**
 * Serves `terminal/*` for one ACP connection. {@linkcode handle} answers a request (or returns `null` for any
 * other method); dispose, or {@linkcode closeAll}, to end every group it started.
 *
 * @example
 * ```ts ignore
 * await using terminals = new ClientTerminals({ root: sandbox.home, defaultCwd: sandbox.work, env: {} });
 * connection.answerAgentRequests((m) => terminals.handle(m) ?? REFUSE_AGENT_REQUESTS(m));
 * ```
 */
export class ClientTerminals implements AsyncDisposable {
  /** Malformed calls, and calls on a terminal unknown or released, each answered `-32602`, in order. */
  readonly problems: string[] = [];
  /** `terminal/create` calls refused for the client's own reasons (a `cwd` outside the root, a failed spawn). */
  readonly refused: string[] = [];
  readonly #options: ClientTerminalsOptions;
  readonly #terminals = new Map<string, Terminal>();
  #next = 1;

  constructor(options: ClientTerminalsOptions) {
    this.#options = options;
  }

  /** Every terminal created, in order. */
  get terminals(): ClientTerminal[] {
    return [...this.#terminals.values()].map((terminal) => ({ ...terminal.record }));
  }

  /** The answer to a `terminal/*` request, or `null` for any other method. */
  handle(message: JsonRpcMessage): Promise<AgentAnswer> | null {
    const method = message.method;
    if (typeof method !== "string" || !method.startsWith("terminal/")) return null;
    return this.#serve(method, message.params);
  }

  #invalid(method: string, what: string): AgentAnswer {
    this.problems.push(`${method}: ${what}`);
    return { error: { code: -32602, message: `Invalid params: ${what}` } };
  }

  async #serve(method: string, params: unknown): Promise<AgentAnswer> {
    if (!isObject(params)) return this.#invalid(method, `params ${JSON.stringify(params)} not an object`);
    if (typeof params.sessionId !== "string") {
      return this.#invalid(method, `sessionId ${JSON.stringify(params.sessionId)} not a string`);
    }
    if (method === "terminal/create") return this.#create(params);
    const id = params.terminalId;
    const terminal = typeof id === "string" ? this.#terminals.get(id) : undefined;
    if (!terminal) return this.#invalid(method, `terminalId ${JSON.stringify(id)} was never created here`);
    if (terminal.record.released) {
      return this.#invalid(method, `terminal ${JSON.stringify(id)} used after its release`);
    }
    if (terminal.record.sessionId !== params.sessionId) {
      return this.#invalid(
        method,
        `terminal ${JSON.stringify(id)} belongs to session ${JSON.stringify(terminal.record.sessionId)}`,
      );
    }
    switch (method) {
      case "terminal/output": {
        const exit = terminal.record.exit;
        if (exit) terminal.record.exitSeen = true;
        return { result: { ...terminal.output(), ...(exit ? { exitStatus: exit } : {}) } };
      }
      case "terminal/wait_for_exit": {
        const status = await terminal.status;
        terminal.record.exitSeen = true;
        return { result: { exitCode: status.signal ? null : status.code, signal: status.signal } };
      }
      case "terminal/kill":
        terminal.record.killed = true;
        await terminal.end(KILL_GRACE_MS);
        return { result: {} };
      case "terminal/release":
        // "kills the command if still running and releases all resources".
        terminal.record.released = true;
        await terminal.end(KILL_GRACE_MS);
        return { result: {} };
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
  }

  /** What is malformed in `terminal/create` params beyond the sessionId, per the v1 schema. */
  #createProblems(params: Json): string[] {
    const wrong: string[] = [];
    if (typeof params.command !== "string" || params.command.trim() === "") {
      wrong.push(`command ${JSON.stringify(params.command)} not a non-empty string`);
    }
    if (
      params.args !== undefined &&
      (!Array.isArray(params.args) || params.args.some((arg) => typeof arg !== "string"))
    ) {
      wrong.push(`args ${JSON.stringify(params.args)} not a list of strings`);
    }
    if (
      params.env !== undefined &&
      (!Array.isArray(params.env) ||
        params.env.some((v) => !isObject(v) || typeof v.name !== "string" || typeof v.value !== "string"))
    ) {
      wrong.push(`env ${JSON.stringify(params.env).slice(0, 200)} not a list of {name, value} strings`);
    }
    if (params.cwd !== undefined && params.cwd !== null) {
      if (typeof params.cwd !== "string" || !params.cwd.startsWith("/")) {
        wrong.push(`cwd ${JSON.stringify(params.cwd)} not an absolute path`);
      }
    }
    const limit = params.outputByteLimit;
    if (limit !== undefined && limit !== null && (!Number.isSafeInteger(limit) || (limit as number) < 0)) {
      wrong.push(`outputByteLimit ${JSON.stringify(limit)} not a non-negative integer`);
    }
    return wrong;
  }

  #create(params: Json): AgentAnswer {
    const wrong = this.#createProblems(params);
    if (wrong.length > 0) return this.#invalid("terminal/create", wrong.join(", "));
    const root = this.#options.root;
    const cwd = typeof params.cwd === "string" ? params.cwd : this.#options.defaultCwd;
    if (cwd !== root && !cwd.startsWith(`${root}/`) || cwd.split("/").includes("..")) {
      this.refused.push(`cwd ${JSON.stringify(cwd)} outside the sandbox ${root}`);
      return { error: { code: -32602, message: `Invalid params: cwd ${cwd} is outside ${root}` } };
    }
    const command = params.command as string;
    const args = (params.args ?? []) as string[];
    const env = Object.fromEntries(((params.env ?? []) as { name: string; value: string }[]).map((v) => [
      v.name,
      v.value,
    ]));
    const limit = typeof params.outputByteLimit === "number"
      ? Math.min(params.outputByteLimit, MAX_OUTPUT_BYTES)
      : MAX_OUTPUT_BYTES;
    let child: Deno.ChildProcess;
    try {
      // Through `sh`: without args the command is a command line (as editors run it); with args, `sh` execs
      // the command with them unchanged.
      child = new Deno.Command("sh", {
        args: args.length === 0 ? ["-c", command] : ["-c", 'exec "$0" "$@"', command, ...args],
        cwd,
        env: {
          ...projectEnv({ env: { ...this.#options.env, ...env }, envAllow: [] }, readEnv(BASELINE_ENV_ALLOW)),
          ...runTagEnv(),
        },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: true,
      }).spawn();
    } catch (error) {
      this.refused.push(`spawn of ${JSON.stringify(command)} failed: ${(error as Error).message}`);
      return { error: { code: -32603, message: `Internal error: ${(error as Error).message}` } };
    }
    const terminalId = `term-${this.#next++}`;
    const terminal = new Terminal(
      {
        terminalId,
        sessionId: params.sessionId as string,
        command,
        args,
        cwd,
        pgid: child.pid,
        exit: null,
        released: false,
        killed: false,
        exitSeen: false,
      },
      child,
      limit,
    );
    void terminal.noteExit();
    this.#terminals.set(terminalId, terminal);
    return { result: { terminalId } };
  }

  /**
   * Ends every group still open (SIGKILL at once) and waits for each to be gone and its output to close.
   * Resolves to the groups that could not be proven gone (empty when all are).
   */
  async closeAll(): Promise<number[]> {
    const left: number[] = [];
    for (const terminal of this.#terminals.values()) {
      if (!(await terminal.end(0))) left.push(terminal.record.pgid);
      // A process that left the group may hold its pipes open: the output is not waited for past the bound.
      else await raceDelay([terminal.drained], GONE_MS);
    }
    return left;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.closeAll();
  }
}
