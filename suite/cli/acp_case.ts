/**
 * What every `cli/acp/*` case shares (suite/cli/acp.ts, suite/cli/acp_tools.ts): the case's shape, the
 * result of a response, a session opened in one call, and a prompt's turn as the transcript shows it.
 *
 * @module
 */
import type { HostRunner } from "../../src/exec/host_runner.ts";
import type { JsonRpcMessage } from "../../src/acp/connection.ts";
import { fail, type Outcome, warn } from "../../src/outcome.ts";
import {
  type AcpModelOptions,
  type AcpRun,
  type ClientCapabilities,
  PROMPT_MS,
  responsesTo,
  transcriptTail,
  updateKind,
  updatesOf,
} from "./acp_session.ts";

/** The text turn's prompt (the mock model answers `OK` whatever it is). */
export const TEXT_PROMPT = "Reply with exactly the two letters OK and nothing else.";
/** The prompt of a turn to cancel: the fake agent streams until cancelled; a real one meets a slow model. */
export const SLOW_PROMPT = "@@acp slow Count from one to one hundred in words, one number per line.";
/** How long after a response or a cancel late lines, and late effects on disk, are waited for (scaled). */
export const SETTLE_MS = 1_000;

/** One ACP case. */
export interface AcpCase {
  readonly name: string;
  readonly title: string;
  /** The spec clause it checks, quoted in every outcome. */
  readonly clause: string;
  /** The model the agent gets, when not the plain mock (`OK`); `runner` gives the host's tool names. */
  readonly model?: (runner: HostRunner) => AcpModelOptions;
  /** The case scripts the host's built-in tools: a real host without `toolBehavior` SKIPs it. */
  readonly needsTools?: boolean;
  run(run: AcpRun): Promise<Outcome>;
}

/** Initializes (advertising `capabilities`, none by default) and opens one session: its id, or the FAIL. */
export async function openSession(run: AcpRun, capabilities?: ClientCapabilities): Promise<string | Outcome> {
  const init = resultOf(await run.initialize(undefined, capabilities));
  if (typeof init === "string") return fail(`initialize: ${init}`);
  const session = await run.newSession();
  if ("problem" in session) return fail(session.problem, { response: session.response });
  return session.sessionId;
}
/** The result object of a response, or what is wrong with it. */
export function resultOf(response: JsonRpcMessage | "timeout" | "exited"): Record<string, unknown> | string {
  if (response === "timeout") return "no answer in time";
  if (response === "exited") return "the agent's output ended before the answer";
  if (response.error) return `error ${JSON.stringify(response.error)}`;
  const result = response.result;
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    return `result ${JSON.stringify(result)} is not an object`;
  }
  return result as Record<string, unknown>;
}

/**
 * What a cancelled turn's `session/prompt` response answered when it is not the `cancelled` stop reason the
 * protocol requires ("error …" or "stopReason …"), or null when it is.
 */
export function notCancelled(response: JsonRpcMessage): string | null {
  const reason = (response.result as { stopReason?: unknown } | undefined)?.stopReason;
  if (!response.error && reason === "cancelled") return null;
  return response.error ? `error ${JSON.stringify(response.error)}` : `stopReason ${JSON.stringify(reason)}`;
}

/** The `session/update` kinds that belong to a turn: none may follow the turn's response. */
export const TURN_CONTENT: ReadonlySet<string> = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
]);

/** A prompt's turn in the transcript: its update kinds, and what breaks the ordering rules. */
export function turnOf(run: AcpRun, sessionId: string, id: number) {
  const entries = run.connection.transcript;
  const responses = responsesTo(entries, id);
  const updates = updatesOf(entries, sessionId);
  const sent = entries.findIndex((entry) => entry.dir === "send" && entry.message?.id === id);
  const answered = responses[0] ?? entries.length;
  const kinds = updates.filter((i) => i > sent && i < answered).map((i) => updateKind(entries[i]!));
  // Session-level updates (available commands, mode, config, session info, usage) may come at any time
  // (v1/slash-commands: the command list may change at any time); a turn's content may not follow its response.
  const late = updates.filter((i) => i > answered && TURN_CONTENT.has(updateKind(entries[i]!)));
  const details = { transcript: transcriptTail(entries) };
  const problem = responses.length > 1
    ? `${responses.length} responses to one session/prompt (a second stop reason)`
    : late.length > 0
    ? `${late.length} session/update(s) after the session/prompt response (${updateKind(entries[late[0]!]!)})`
    : null;
  return { kinds, problem, details };
}

/**
 * Starts a slow turn (`SLOW_PROMPT` against the slow mock model) and waits for its first update, so that what
 * the case sends next (a cancel, a close, named by `what`) lands mid-turn: the turn's id and pending response,
 * or the FAIL (nothing shown) or WARN (the turn ended before any update).
 */
export async function startSlowTurn(
  run: AcpRun,
  sessionId: string,
  what: string,
): Promise<{ id: number; response: Promise<JsonRpcMessage | "timeout" | "exited"> } | Outcome> {
  const { connection, k } = run;
  const turn = await connection.start(
    "session/prompt",
    { sessionId, prompt: [{ type: "text", text: SLOW_PROMPT }] },
    PROMPT_MS * k,
  );
  const firstUpdate = await connection.waitFor(
    (entry) =>
      entry.message?.method === "session/update" ||
      (entry.message?.method === undefined && entry.message?.id === turn.id),
    PROMPT_MS * k,
  );
  if (typeof firstUpdate === "string") return fail(`the slow turn showed nothing: ${firstUpdate}`);
  if (firstUpdate.message?.method === undefined) {
    return warn(`the turn ended before any update, so no ${what} could land mid-turn`);
  }
  return turn;
}

/**
 * Opens a session, has one text turn in it (`@@acp say NONCE`, the nonce also in the prompt's words), then
 * ends the agent and initializes a new process, as a client does that comes back to a session later
 * (`session/load`, `session/resume`): the session and the nonce, or the FAIL.
 */
export async function sessionInNewProcess(
  run: AcpRun,
  before: string,
): Promise<{ sessionId: string; nonce: string } | Outcome> {
  const session = await run.newSession();
  if ("problem" in session) return fail(session.problem, { response: session.response });
  const { sessionId } = session;
  const nonce = `conformance-${crypto.randomUUID().slice(0, 8)}`;
  const first = await run.connection.request(
    "session/prompt",
    {
      sessionId,
      prompt: [{ type: "text", text: `@@acp say ${nonce} Remember the word ${nonce} and reply with OK.` }],
    },
    PROMPT_MS * run.k,
  );
  const answered = resultOf(first.response);
  if (typeof answered === "string") return fail(`the prompt before the ${before}: ${answered}`);
  if (!(await run.respawn())) return fail("the first agent's group was not gone after it was ended");
  const again = resultOf(await run.initialize());
  if (typeof again === "string") return fail(`initialize of the second agent: ${again}`);
  return { sessionId, nonce };
}
