/**
 * `conformance fake-acp-agent`: a scripted Agent Client Protocol agent over stdio, the ACP tier's fake host.
 * It keeps every v1 obligation the tier checks, unless `CONFORMANCE_FAKE_ACP_DEFECT` names one known defect
 * to commit (the table is {@linkcode FAKE_ACP_DEFECTS}); hosts/cli/fake_acp.ts turns each defect into a
 * variant host. A prompt's text may carry directives: `@@acp slow` makes the turn stream a chunk every
 * 100 ms until it is cancelled (at most 20 s), so a cancel can land mid-turn; `@@acp say TEXT` replies TEXT
 * (default `OK`), one chunk per word; `@@acp write PATH TEXT` is an edit tool call that writes TEXT to PATH
 * (through the client's `fs/write_text_file` when it advertised it) and reports it as `diff` content;
 * `@@acp shell PATH` is a command tool call that asks `session/request_permission` first and, when allowed,
 * writes PATH (resolved against the session's cwd), and ends the turn `cancelled` when it was cancelled while
 * asking; `@@acp terminal PATH` is a command tool call that writes PATH through the client's terminal
 * (`terminal/create`, `wait_for_exit`, `output`, `release`) when it advertised one, and itself otherwise;
 * `@@acp model-error` is a turn whose model call failed; `@@acp recall` replies with what the session's
 * earlier prompts said (`nothing` when it kept none).
 * Sessions are kept under `$HOME/.fake-acp-agent/`, so a later process can `session/load` or `session/resume`
 * them; `session/close` cancels the session's turn as `session/cancel` does.
 *
 * It imports nothing outside this folder: it is re-invoked per test and must start fast.
 *
 * @module
 */

/** Every defect the fake can commit, each breaking one obligation of the spec. */
export const FAKE_ACP_DEFECTS = [
  /** Writes a banner line on stdout before its first message (stdout must carry only JSON-RPC). */
  "stray-stdout",
  /** Answers `initialize` with the client's version even when it does not support it. */
  "echoes-unsupported-version",
  /** Gives every session the same id. */
  "reused-session-id",
  /** Sends one more `agent_message_chunk` after the prompt's response. */
  "update-after-response",
  /** Answers a cancelled prompt with `end_turn` (github/copilot-cli#4561). */
  "end-turn-after-cancel",
  /** Answers a cancelled prompt twice: `cancelled`, then `end_turn` (claude-agent-acp#551). */
  "second-stop-reason",
  /** Ignores `session/cancel`: the turn runs on (agent-of-empires#1908). */
  "ignores-cancel",
  /** Leaves a request for an unknown method unanswered instead of `-32601`. */
  "unknown-method-unanswered",
  /** Exits when a line is not JSON. */
  "crashes-on-malformed-json",
  /** Keeps running after its stdin closes. */
  "lingers-after-stdin-close",
  /** Sends a `tool_call_update` for an id no `tool_call` announced. */
  "tool-update-unknown-id",
  /** Reports an edit as text content instead of `diff` content. */
  "edit-as-text",
  /** Runs a tool although the client rejected it. */
  "runs-rejected-tool",
  /** Does not run a tool the client allowed (the allowed call ends `failed`). */
  "allowed-tool-not-run",
  /** Resolves relative paths against its own working folder instead of the session's `cwd`. */
  "ignores-session-cwd",
  /** Answers a turn whose model call failed with `end_turn` and nothing else. */
  "silent-model-error",
  /** Answers `session/load` first and replays the conversation after the answer. */
  "replay-after-load-response",
  /** Writes files through `fs/write_text_file` although the client did not advertise it. */
  "calls-unadvertised-fs",
  /** Sends `fs/write_text_file` a relative path (the schema asks for an absolute one). */
  "fs-relative-path",
  /**
   * Takes a permission request answered `cancelled` (the turn was cancelled while it was pending) for a
   * rejection and finishes the turn with `end_turn` (github/copilot-cli#4561, in the permission path).
   */
  "cancelled-permission-ends-turn",
  /** Never calls `terminal/release` for the terminal it created ("The Agent MUST release the terminal"). */
  "leaks-terminal",
  /** Sends `terminal/create` a relative `cwd` (the schema asks for an absolute one). */
  "terminal-relative-cwd",
  /** Replays the conversation as updates on `session/resume`, as `session/load` does. */
  "replays-on-resume",
  /** Answers `session/resume` but starts the session with an empty conversation. */
  "resume-forgets",
  /** Answers `session/close` and lets the session's turn run on to `end_turn`. */
  "close-leaves-turn",
] as const;

/** One defect of {@linkcode FAKE_ACP_DEFECTS}. */
export type FakeAcpDefect = typeof FAKE_ACP_DEFECTS[number];

/** The variable naming the defect the fake commits. */
export const FAKE_ACP_DEFECT_ENV = "CONFORMANCE_FAKE_ACP_DEFECT";

/** The protocol version the fake speaks. */
export const FAKE_ACP_PROTOCOL_VERSION = 1;

interface Turn {
  readonly id: unknown;
  readonly sessionId: string;
  cancelled: boolean;
  answered: boolean;
  readonly wake: () => void;
}

/** A session: its cwd and its conversation, kept on disk for `session/load`. */
interface Session {
  readonly cwd: string;
  readonly history: { role: "user" | "agent"; text: string }[];
}

const encoder = new TextEncoder();

function write(message: Record<string, unknown>): void {
  Deno.stdout.writeSync(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
}

function respond(id: unknown, result: unknown): void {
  write({ id, result });
}

function fail(id: unknown, code: number, message: string): void {
  write({ id, error: { code, message } });
}

function sessionUpdate(sessionId: string, update: Record<string, unknown>): void {
  write({ method: "session/update", params: { sessionId, update } });
}

function update(sessionId: string, text: string, kind = "agent_message_chunk"): void {
  sessionUpdate(sessionId, { sessionUpdate: kind, content: { type: "text", text } });
}

function promptText(params: Record<string, unknown>): string {
  const blocks = Array.isArray(params.prompt) ? params.prompt : [];
  return blocks.map((block) => (block as { text?: unknown }).text).filter((t) => typeof t === "string")
    .join("\n");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Where sessions are kept: `$HOME/.fake-acp-agent/` (the test's sandbox HOME). */
function sessionFile(sessionId: string): string | null {
  const home = Deno.env.get("HOME");
  return home && /^[\w-]+$/.test(sessionId) ? `${home}/.fake-acp-agent/${sessionId}.json` : null;
}

/** The agent's state and message handling, one instance per process. */
class FakeAcpAgent {
  readonly #defect: FakeAcpDefect | null;
  readonly #sessions = new Map<string, Session>();
  readonly #turns = new Map<string, Turn>();
  readonly #pending = new Map<number, (message: Record<string, unknown>) => void>();
  #nextId = 1;
  #clientFs = { readTextFile: false, writeTextFile: false };
  #clientTerminal = false;

  constructor(defect: FakeAcpDefect | null) {
    this.#defect = defect;
  }

  line(raw: string): "exit" | void {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (this.#defect === "crashes-on-malformed-json") return "exit";
      fail(null, -32700, "Parse error");
      return;
    }
    const message = value as Record<string, unknown>;
    if (
      typeof message === "object" && message !== null && !Array.isArray(message) &&
      message.jsonrpc === "2.0" && message.method === undefined && typeof message.id === "number" &&
      ("result" in message || "error" in message) && this.#pending.has(message.id)
    ) {
      // The client's answer to one of the agent's own requests.
      this.#pending.get(message.id)!(message);
      this.#pending.delete(message.id);
      return;
    }
    if (
      typeof message !== "object" || message === null || Array.isArray(message) ||
      message.jsonrpc !== "2.0" ||
      typeof message.method !== "string"
    ) {
      fail((message as { id?: unknown } | null)?.id ?? null, -32600, "Invalid Request");
      return;
    }
    const params =
      (typeof message.params === "object" && message.params !== null ? message.params : {}) as Record<
        string,
        unknown
      >;
    const isRequest = "id" in message;
    this.#dispatch(message.method, params, isRequest ? message.id : undefined, isRequest);
  }

  /** Sends a request to the client and waits for its answer. */
  #ask(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const answered = new Promise<Record<string, unknown>>((resolve) => this.#pending.set(id, resolve));
    write({ id, method, params });
    return answered;
  }

  #dispatch(method: string, params: Record<string, unknown>, id: unknown, isRequest: boolean): void {
    switch (method) {
      case "initialize":
        return this.#initialize(id, params);
      case "session/new":
        return this.#newSession(id, params);
      case "session/load":
        return this.#loadSession(id, params);
      case "session/resume":
        return this.#resumeSession(id, params);
      case "session/close":
        return this.#closeSession(id, params);
      case "session/prompt":
        return void this.#prompt(id, params);
      case "session/cancel":
        return this.#cancel(params);
      default:
        if (isRequest && this.#defect !== "unknown-method-unanswered") {
          fail(id, -32601, `Method not found: ${method}`);
        }
    }
  }

  #initialize(id: unknown, params: Record<string, unknown>): void {
    const asked = params.protocolVersion;
    const version = this.#defect === "echoes-unsupported-version"
      ? asked
      : typeof asked === "number" && Number.isInteger(asked) && asked <= FAKE_ACP_PROTOCOL_VERSION &&
          asked >= 1
      ? asked
      : FAKE_ACP_PROTOCOL_VERSION;
    const fs = (params.clientCapabilities as { fs?: Record<string, unknown> } | undefined)?.fs;
    this.#clientFs = { readTextFile: fs?.readTextFile === true, writeTextFile: fs?.writeTextFile === true };
    this.#clientTerminal =
      (params.clientCapabilities as { terminal?: unknown } | undefined)?.terminal === true;
    respond(id, {
      protocolVersion: version,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { resume: {}, close: {} },
      },
      authMethods: [],
      agentInfo: { name: "fake-acp-agent", title: "Fake ACP agent", version: "1.0.0" },
    });
  }

  #newSession(id: unknown, params: Record<string, unknown>): void {
    const cwd = params.cwd;
    if (typeof cwd !== "string" || !cwd.startsWith("/")) {
      fail(id, -32602, "Invalid params: cwd must be an absolute path");
      return;
    }
    const sessionId = this.#defect === "reused-session-id"
      ? "session-1"
      : `session-${this.#sessions.size + 1}-${crypto.randomUUID()}`;
    this.#sessions.set(sessionId, { cwd, history: [] });
    this.#save(sessionId);
    respond(id, { sessionId });
  }

  #save(sessionId: string): void {
    const file = sessionFile(sessionId);
    if (!file) return;
    Deno.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(file, JSON.stringify(this.#sessions.get(sessionId)));
  }

  /** The session kept on disk for `sessionId`, or `null` when there is none. */
  #stored(sessionId: string): Session | null {
    try {
      return JSON.parse(Deno.readTextFileSync(sessionFile(sessionId) ?? "/nonexistent")) as Session;
    } catch {
      return null;
    }
  }

  #replay(sessionId: string, session: Session): void {
    for (const entry of session.history) {
      update(sessionId, entry.text, entry.role === "user" ? "user_message_chunk" : "agent_message_chunk");
    }
  }

  #loadSession(id: unknown, params: Record<string, unknown>): void {
    const sessionId = String(params.sessionId);
    const session = this.#stored(sessionId);
    if (!session) {
      fail(id, -32602, `Unknown session "${sessionId}"`);
      return;
    }
    this.#sessions.set(sessionId, session);
    if (this.#defect === "replay-after-load-response") {
      respond(id, {});
      this.#replay(sessionId, session);
      return;
    }
    this.#replay(sessionId, session);
    respond(id, {});
  }

  /** `session/resume`: the session back from disk, its conversation kept and not replayed. */
  #resumeSession(id: unknown, params: Record<string, unknown>): void {
    const sessionId = String(params.sessionId);
    const session = this.#stored(sessionId);
    if (!session) {
      fail(id, -32602, `Unknown session "${sessionId}"`);
      return;
    }
    if (this.#defect === "resume-forgets") session.history.length = 0;
    this.#sessions.set(sessionId, session);
    if (this.#defect === "replays-on-resume") this.#replay(sessionId, session);
    respond(id, {});
  }

  /** `session/close`: the session's turn cancelled as by `session/cancel`, then the session dropped. */
  #closeSession(id: unknown, params: Record<string, unknown>): void {
    const sessionId = String(params.sessionId);
    if (!this.#sessions.has(sessionId)) {
      fail(id, -32602, `Unknown session "${sessionId}"`);
      return;
    }
    if (this.#defect !== "close-leaves-turn") this.#cancel(params);
    this.#sessions.delete(sessionId);
    respond(id, {});
  }

  async #prompt(id: unknown, params: Record<string, unknown>): Promise<void> {
    const sessionId = String(params.sessionId);
    const session = this.#sessions.get(sessionId);
    if (!session) {
      fail(id, -32602, `Unknown session "${sessionId}"`);
      return;
    }
    const text = promptText(params);
    session.history.push({ role: "user", text });
    let wake = () => {};
    const woken = new Promise<void>((resolve) => wake = resolve);
    const turn: Turn = { id, sessionId, cancelled: false, answered: false, wake };
    this.#turns.set(sessionId, turn);
    const say = (words: string) => {
      for (const word of words.split(" ")) update(sessionId, word);
      session.history.push({ role: "agent", text: words });
      this.#save(sessionId);
    };
    if (/@@acp slow/.test(text)) {
      const until = Date.now() + 20_000;
      while (Date.now() < until && !turn.cancelled) {
        update(sessionId, "working ");
        await Promise.race([sleep(100), woken]);
      }
      if (turn.cancelled && this.#defect === "ignores-cancel") {
        while (Date.now() < until) {
          update(sessionId, "still working ");
          await sleep(100);
        }
      }
      this.#finish(turn, turn.cancelled && this.#defect !== "ignores-cancel" ? "cancelled" : "end_turn");
      return;
    }
    if (/@@acp model-error/.test(text)) {
      this.#turns.delete(sessionId);
      turn.answered = true;
      if (this.#defect === "silent-model-error") respond(id, { stopReason: "end_turn" });
      else fail(id, -32603, "Internal error: the model answered HTTP 500");
      return;
    }
    const edit = /@@acp write (\S+) (.+)/.exec(text);
    if (edit) {
      await this.#writeTool(session, sessionId, edit[1]!, edit[2]!);
      say("DONE");
      this.#finish(turn, "end_turn");
      return;
    }
    const shell = /@@acp shell (\S+)/.exec(text);
    if (shell) {
      await this.#shellTool(session, sessionId, shell[1]!);
      // Cancelled while its permission request was pending: the turn ends there.
      if (
        turn.cancelled && this.#defect !== "ignores-cancel" &&
        this.#defect !== "cancelled-permission-ends-turn"
      ) {
        this.#finish(turn, "cancelled");
        return;
      }
      say("DONE");
      this.#finish(turn, "end_turn");
      return;
    }
    const terminal = /@@acp terminal (\S+)/.exec(text);
    if (terminal) {
      await this.#terminalTool(session, sessionId, terminal[1]!);
      say("DONE");
      this.#finish(turn, "end_turn");
      return;
    }
    if (/@@acp recall/.test(text)) {
      // What the session's earlier prompts said: only a session that kept its conversation can say it.
      const earlier = session.history.slice(0, -1).filter((entry) => entry.role === "user");
      say(earlier.map((entry) => entry.text.replace(/@@acp \w+ ?/g, "")).join(" ") || "nothing");
      this.#finish(turn, "end_turn");
      return;
    }
    say(/@@acp say (.+)/.exec(text)?.[1] ?? "OK");
    this.#finish(turn, "end_turn");
  }

  /** A path resolved against the session's cwd (or, broken, the process's own folder). */
  #resolve(session: Session, path: string): string {
    if (path.startsWith("/")) return path;
    const base = this.#defect === "ignores-session-cwd" ? Deno.cwd() : session.cwd;
    return `${base}/${path}`;
  }

  async #writeTool(session: Session, sessionId: string, target: string, content: string): Promise<void> {
    const path = this.#resolve(session, target);
    const toolCallId = `edit-${crypto.randomUUID()}`;
    const updateId = this.#defect === "tool-update-unknown-id" ? `${toolCallId}-other` : toolCallId;
    sessionUpdate(sessionId, {
      sessionUpdate: "tool_call",
      toolCallId,
      title: `Write ${target}`,
      kind: "edit",
      status: "pending",
      locations: [{ path }],
      rawInput: { path, content },
    });
    sessionUpdate(sessionId, {
      sessionUpdate: "tool_call_update",
      toolCallId: updateId,
      status: "in_progress",
    });
    let oldText: string | null = null;
    try {
      oldText = Deno.readTextFileSync(path);
    } catch {
      oldText = null;
    }
    if (this.#clientFs.writeTextFile || this.#defect === "calls-unadvertised-fs") {
      const sent = this.#defect === "fs-relative-path" ? path.slice(path.lastIndexOf("/") + 1) : path;
      const answer = await this.#ask("fs/write_text_file", { sessionId, path: sent, content });
      // A client that refuses the method (it never advertised it): the agent writes the file itself.
      if (!("result" in answer)) Deno.writeTextFileSync(path, content);
    } else {
      Deno.writeTextFileSync(path, content);
    }
    const shown = this.#defect === "edit-as-text"
      ? { type: "content", content: { type: "text", text: `wrote ${path}` } }
      : { type: "diff", path, oldText, newText: content };
    sessionUpdate(sessionId, {
      sessionUpdate: "tool_call_update",
      toolCallId: updateId,
      status: "completed",
      content: [shown],
    });
  }

  async #shellTool(session: Session, sessionId: string, target: string): Promise<void> {
    const path = this.#resolve(session, target);
    const command = `echo conformance > '${target}'`;
    const toolCallId = `shell-${crypto.randomUUID()}`;
    const call = { toolCallId, title: command, kind: "execute", status: "pending", rawInput: { command } };
    sessionUpdate(sessionId, { sessionUpdate: "tool_call", ...call });
    const answer = await this.#ask("session/request_permission", {
      sessionId,
      toolCall: call,
      options: [
        { optionId: "allow", name: "Allow once", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
    });
    const outcome = (answer.result as { outcome?: { outcome?: unknown; optionId?: unknown } } | undefined)
      ?.outcome;
    const allowed = outcome?.outcome === "selected" && outcome.optionId === "allow";
    const runs = this.#defect === "runs-rejected-tool" ||
      (allowed && this.#defect !== "allowed-tool-not-run");
    if (runs) {
      sessionUpdate(sessionId, { sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
      Deno.writeTextFileSync(path, "conformance\n");
    }
    sessionUpdate(sessionId, {
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: runs ? "completed" : "failed",
    });
  }

  /** A command run through the client's terminal when it advertised one (released after), else by itself. */
  async #terminalTool(session: Session, sessionId: string, target: string): Promise<void> {
    const path = this.#resolve(session, target);
    const command = `echo conformance > '${path}'`;
    const toolCallId = `terminal-${crypto.randomUUID()}`;
    const status = (status: string, content?: unknown[]) =>
      sessionUpdate(sessionId, {
        sessionUpdate: "tool_call_update",
        toolCallId,
        status,
        ...(content ? { content } : {}),
      });
    sessionUpdate(sessionId, {
      sessionUpdate: "tool_call",
      toolCallId,
      title: command,
      kind: "execute",
      status: "pending",
      rawInput: { command },
    });
    if (!this.#clientTerminal) {
      status("in_progress");
      Deno.writeTextFileSync(path, "conformance\n");
      status("completed");
      return;
    }
    const created = await this.#ask("terminal/create", {
      sessionId,
      command: "sh",
      args: ["-c", command],
      cwd: this.#defect === "terminal-relative-cwd" ? "." : session.cwd,
      outputByteLimit: 65_536,
    });
    const terminalId = (created.result as { terminalId?: unknown } | undefined)?.terminalId;
    if (typeof terminalId !== "string") {
      status("failed", [{ type: "content", content: { type: "text", text: JSON.stringify(created.error) } }]);
      return;
    }
    const shown = [{ type: "terminal", terminalId }];
    status("in_progress", shown);
    const exited = await this.#ask("terminal/wait_for_exit", { sessionId, terminalId });
    await this.#ask("terminal/output", { sessionId, terminalId });
    if (this.#defect !== "leaks-terminal") await this.#ask("terminal/release", { sessionId, terminalId });
    status(
      (exited.result as { exitCode?: unknown } | undefined)?.exitCode === 0 ? "completed" : "failed",
      shown,
    );
  }

  #finish(turn: Turn, stopReason: string): void {
    if (turn.answered) return;
    turn.answered = true;
    this.#turns.delete(turn.sessionId);
    const reason = stopReason === "cancelled" && this.#defect === "end-turn-after-cancel"
      ? "end_turn"
      : stopReason;
    respond(turn.id, { stopReason: reason });
    if (this.#defect === "update-after-response") update(turn.sessionId, "late");
    if (stopReason === "cancelled" && this.#defect === "second-stop-reason") {
      respond(turn.id, { stopReason: "end_turn" });
    }
  }

  #cancel(params: Record<string, unknown>): void {
    const turn = this.#turns.get(String(params.sessionId));
    if (!turn) return;
    turn.cancelled = true;
    if (this.#defect !== "ignores-cancel") turn.wake();
  }
}

/** Runs the agent on stdin/stdout until stdin closes; resolves to the exit code. */
export async function main(_args: readonly string[]): Promise<number> {
  const named = Deno.env.get(FAKE_ACP_DEFECT_ENV) ?? "";
  const defect = (FAKE_ACP_DEFECTS as readonly string[]).includes(named) ? named as FakeAcpDefect : null;
  if (named !== "" && defect === null) {
    console.error(`fake-acp-agent: unknown defect "${named}": use one of ${FAKE_ACP_DEFECTS.join(", ")}`);
    return 2;
  }
  if (defect === "stray-stdout") Deno.stdout.writeSync(encoder.encode("fake-acp-agent starting\n"));
  const agent = new FakeAcpAgent(defect);
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of Deno.stdin.readable) {
    pending += decoder.decode(chunk, { stream: true });
    for (let cut = pending.indexOf("\n"); cut >= 0; cut = pending.indexOf("\n")) {
      const raw = pending.slice(0, cut);
      pending = pending.slice(cut + 1);
      if (agent.line(raw) === "exit") return 1;
    }
  }
  if (pending !== "" && agent.line(pending) === "exit") return 1;
  if (defect === "lingers-after-stdin-close") {
    await sleep(600_000);
  }
  return 0;
}
