/**
 * `conformance fake-acp-agent`: a scripted Agent Client Protocol agent over stdio, the ACP tier's fake host.
 * It keeps every v1 obligation the tier checks, unless `CONFORMANCE_FAKE_ACP_DEFECT` names one known defect
 * to commit (the table is {@linkcode FAKE_ACP_DEFECTS}); hosts/cli/fake_acp.ts turns each defect into a
 * variant host. A prompt's text may carry directives: `@@acp slow` makes the turn stream a chunk every
 * 100 ms until it is cancelled (at most 20 s), so a cancel can land mid-turn; `@@acp say TEXT` replies TEXT
 * (default `OK`), one chunk per word.
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

function update(sessionId: string, text: string): void {
  write({
    method: "session/update",
    params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
  });
}

function promptText(params: Record<string, unknown>): string {
  const blocks = Array.isArray(params.prompt) ? params.prompt : [];
  return blocks.map((block) => (block as { text?: unknown }).text).filter((t) => typeof t === "string")
    .join("\n");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The agent's state and message handling, one instance per process. */
class FakeAcpAgent {
  readonly #defect: FakeAcpDefect | null;
  readonly #sessions = new Set<string>();
  readonly #turns = new Map<string, Turn>();

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

  #dispatch(method: string, params: Record<string, unknown>, id: unknown, isRequest: boolean): void {
    switch (method) {
      case "initialize":
        return this.#initialize(id, params);
      case "session/new":
        return this.#newSession(id, params);
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
    respond(id, {
      protocolVersion: version,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
        mcpCapabilities: { http: false, sse: false },
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
    this.#sessions.add(sessionId);
    respond(id, { sessionId });
  }

  async #prompt(id: unknown, params: Record<string, unknown>): Promise<void> {
    const sessionId = String(params.sessionId);
    if (!this.#sessions.has(sessionId)) {
      fail(id, -32602, `Unknown session "${sessionId}"`);
      return;
    }
    const text = promptText(params);
    let wake = () => {};
    const woken = new Promise<void>((resolve) => wake = resolve);
    const turn: Turn = { id, sessionId, cancelled: false, answered: false, wake };
    this.#turns.set(sessionId, turn);
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
    const say = /@@acp say (.+)/.exec(text)?.[1] ?? "OK";
    for (const word of say.split(" ")) update(sessionId, word);
    this.#finish(turn, "end_turn");
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
