/**
 * `cli/acp/session-resume` and `cli/acp/session-close`: the session lifecycle methods an agent claims in
 * `agentCapabilities.sessionCapabilities` (v1/session-setup). A resume comes from a new agent process, as a
 * client does that reconnects later: the answer must come without the conversation replayed, and the session
 * must go on with its conversation (the model's next request carries the earlier prompt; the fake agent, which
 * has no model, recalls it). A close lands mid-turn against a slow model: the turn must end as a
 * `session/cancel` would end it.
 *
 * @module
 */
import { fail, type Outcome, pass, skip, warn } from "../../src/outcome.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import {
  type AcpCase,
  notCancelled,
  resultOf,
  sessionInNewProcess,
  SETTLE_MS,
  startSlowTurn,
  TURN_CONTENT,
  turnOf,
} from "./acp_case.ts";
import {
  type AcpModelOptions,
  type AcpRun,
  CANCEL_MS,
  PROMPT_MS,
  transcriptTail,
  updateKind,
  updatesOf,
} from "./acp_session.ts";
import { carries } from "./capability_judge.ts";
import { isObject, type Json } from "./acp_checks.ts";

/** Whether an `initialize` result claims `sessionCapabilities[name]` (an object when claimed). */
function claimsSession(init: Json, name: "resume" | "close"): boolean {
  const caps = isObject(init.agentCapabilities) ? init.agentCapabilities : {};
  return isObject(caps.sessionCapabilities) && isObject(caps.sessionCapabilities[name]);
}

/** A scripted model that answers `OK` and keeps every request's conversation, for a host with a mock model. */
function journalled(runner: HostRunner): AcpModelOptions {
  return runner.mockModel ? { script: () => ({ finalText: "OK" }) } : {};
}

/** Initializes: `null` when the agent claims `name`, else the FAIL (no answer) or the SKIP (not claimed). */
async function unlessClaimed(run: AcpRun, name: "resume" | "close"): Promise<Outcome | null> {
  const init = resultOf(await run.initialize());
  if (typeof init === "string") return fail(`initialize: ${init}`);
  return claimsSession(init, name) ? null : skip(`the agent does not claim sessionCapabilities.${name}`);
}

/** The text of a turn's `agent_message_chunk` updates (sent after entry `from`, before entry `to`). */
function agentText(run: AcpRun, sessionId: string, from: number, to: number): string {
  const entries = run.connection.transcript;
  return updatesOf(entries, sessionId).filter((i) =>
    i > from && i < to && updateKind(entries[i]!) === "agent_message_chunk"
  ).map((i) => {
    const update = (entries[i]!.message?.params as { update?: { content?: { text?: unknown } } }).update;
    return typeof update?.content?.text === "string" ? update.content.text : "";
  }).join("");
}

export const ACP_LIFECYCLE_CASES: readonly AcpCase[] = [
  {
    name: "session-resume",
    title: "session/resume (when claimed): no replay, and the session goes on with its conversation",
    clause: 'v1/session-setup, Resuming Sessions: "Agents that advertise sessionCapabilities.resume allow ' +
      'Clients to reconnect to an existing session without replaying the conversation history"; "the Agent ' +
      "MUST NOT replay the conversation history via session/update notifications before responding. Instead, " +
      'it restores the session context … and returns once the session is ready to continue"',
    model: journalled,
    async run(run) {
      const unclaimed = await unlessClaimed(run, "resume");
      if (unclaimed) return unclaimed;
      const resumable = await sessionInNewProcess(run, "resume");
      if (!("sessionId" in resumable)) return resumable;
      const { sessionId, nonce } = resumable;
      const modelBefore = run.mock?.journal?.().length ?? 0;
      const { id, response } = await run.connection.request(
        "session/resume",
        { sessionId, cwd: run.sandbox.work, mcpServers: [] },
        PROMPT_MS * run.k,
      );
      const resumed = resultOf(response);
      if (typeof resumed === "string") {
        return fail(`session/resume of ${JSON.stringify(sessionId)} from a new agent process: ${resumed}`);
      }
      await run.connection.settle(SETTLE_MS * run.k);
      const entries = run.connection.transcript;
      const sent = entries.findIndex((entry) => entry.dir === "send" && entry.message?.id === id);
      const replayed = updatesOf(entries, sessionId).filter((i) =>
        i > sent && TURN_CONTENT.has(updateKind(entries[i]!))
      );
      if (replayed.length > 0) {
        return fail(
          `${replayed.length} conversation update(s) on session/resume (${
            [...new Set(replayed.map((i) => updateKind(entries[i]!)))].join(", ")
          }): the history was replayed`,
          { transcript: transcriptTail(entries) },
        );
      }
      const next = await run.connection.request(
        "session/prompt",
        { sessionId, prompt: [{ type: "text", text: "@@acp recall What word did I ask you to remember?" }] },
        PROMPT_MS * run.k,
      );
      const nextResult = resultOf(next.response);
      if (typeof nextResult === "string") return fail(`the prompt after the resume: ${nextResult}`);
      await run.connection.settle(SETTLE_MS * run.k);
      const turn = turnOf(run, sessionId, next.id);
      if (turn.problem) return fail(`the prompt after the resume: ${turn.problem}`, turn.details);
      if (nextResult.stopReason !== "end_turn") {
        return fail(
          `the prompt after the resume answered stopReason ${JSON.stringify(nextResult.stopReason)}`,
        );
      }
      const journal = run.mock?.journal;
      let remembered: string;
      if (journal) {
        const asked = journal().slice(modelBefore);
        if (asked.length === 0) {
          return warn(
            "the prompt after the resume reached no model: whether the conversation was kept is unknown",
          );
        }
        if (!asked.some((request) => carries(request, nonce, ["user"]))) {
          return fail(
            `the resumed session lost its conversation: none of the ${asked.length} model request(s) for the ` +
              `next prompt carried the earlier prompt's ${nonce}`,
          );
        }
        remembered = `the next prompt's model request carried the earlier prompt's ${nonce}`;
      } else {
        const answeredAt = run.connection.transcript.findIndex((entry) =>
          entry.dir === "recv" && entry.message?.id === next.id && entry.message?.method === undefined
        );
        const sentAt = run.connection.transcript.findIndex((entry) =>
          entry.dir === "send" && entry.message?.id === next.id
        );
        const reply = agentText(run, sessionId, sentAt, answeredAt);
        if (!reply.includes(nonce)) {
          return fail(
            `the resumed session lost its conversation: asked to recall, the agent said ${
              JSON.stringify(reply.slice(0, 200))
            }, not the earlier prompt's ${nonce}`,
          );
        }
        remembered = `asked to recall, the agent said the earlier prompt's ${nonce}`;
      }
      return pass({
        observed: `a new agent process answered session/resume with no conversation update, then the next ` +
          `prompt answered "end_turn"; ${remembered}`,
      });
    },
  },
  {
    name: "session-close",
    title: "session/close (when claimed) mid-turn: the turn ends cancelled, once, nothing after",
    clause: 'v1/session-setup, Closing Active Sessions: "The Agent MUST cancel any ongoing work for that ' +
      'session as if session/cancel had been called"; v1/cancellation: the Agent "MUST respond to the ' +
      'original session/prompt request with the cancelled stop reason"',
    model: () => ({ slow: true }),
    async run(run) {
      const unclaimed = await unlessClaimed(run, "close");
      if (unclaimed) return unclaimed;
      const session = await run.newSession();
      if ("problem" in session) return fail(session.problem, { response: session.response });
      const { sessionId } = session;
      const { connection, k } = run;
      const turn = await startSlowTurn(run, sessionId, "close");
      if (!("id" in turn)) return turn;
      const close = await connection.start("session/close", { sessionId }, CANCEL_MS * k);
      const response = await connection.response(turn.id, CANCEL_MS * k);
      if (typeof response === "string") {
        return fail(
          `no session/prompt response within ${CANCEL_MS * k} ms of session/close (${response}): the turn ` +
            "ran on",
          { transcript: transcriptTail(connection.transcript) },
        );
      }
      const answered = notCancelled(response);
      if (answered !== null) {
        return fail(
          `the turn of the closed session answered ${answered}, not "cancelled" (as session/cancel)`,
        );
      }
      const closed = resultOf(await close.response);
      if (typeof closed === "string") return fail(`session/close: ${closed}`);
      await connection.settle(SETTLE_MS * k);
      const after = turnOf(run, sessionId, turn.id);
      if (after.problem) return fail(after.problem, after.details);
      return pass({
        observed: `session/close mid-turn: the prompt answered "cancelled" once, the close answered ` +
          `${JSON.stringify(closed)}, nothing for the turn within ${SETTLE_MS * k} ms after`,
      });
    },
  },
];
