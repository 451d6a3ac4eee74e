/**
 * The `cli/acp/*` cases where the agent acts: tool calls and their updates, an edit as `diff` content,
 * `session/request_permission` rejected and allowed (the effect proven on disk), the session's `cwd` as the
 * base of a relative path, a model that answers HTTP 500, `session/load` replaying the conversation, and the
 * client's unadvertised `fs`/`terminal` methods left alone. A real host's mock model is scripted to call the
 * host's own built-in tool (its host file's `toolBehavior`); the fake ACP agent reads the same intent from a
 * `@@acp` directive in the prompt (fake_acp_agent/mod.ts), which a real host merely forwards to its model.
 *
 * @module
 */
import { join } from "node:path";
import type {
  AgentAnswer,
  AgentRequestHandler,
  JsonRpcMessage,
  TranscriptEntry,
} from "../../src/acp/connection.ts";
import { REFUSE_AGENT_REQUESTS } from "../../src/acp/connection.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import type { ModelScript } from "../../src/mock_model/script.ts";
import type { Sandbox } from "../../src/mock_model/sandbox.ts";
import { fail, info, type Outcome, pass, skip, warn } from "../../src/outcome.ts";
import {
  type AcpCase,
  notCancelled,
  openSession,
  resultOf,
  sessionInNewProcess,
  SETTLE_MS,
  turnOf,
} from "./acp_case.ts";
import {
  type AcpRun,
  CANCEL_MS,
  type ClientCapabilities,
  PROMPT_MS,
  responsesTo,
  updateKind,
  updatesOf,
} from "./acp_session.ts";
import { isObject, type Json } from "./acp_checks.ts";

/**
 * How long a turn whose every model call answers HTTP 500 may take to answer (scaled): nothing is left to wait
 * for but the agent's own retries (qwen's take about a minute), and past a minute and a half the client sees a
 * hang. 60 s was too tight at load: qwen, which answers in time on a quiet machine, missed the e2e test's 120 s
 * at load 45 (fresh-clone CI of 2026-12-06). The agents that never answer (claude-code, gemini, omp) were
 * watched 180 s when their FAILs were recorded, so their status holds.
 */
const MODEL_ERROR_MS = 90_000;
/** The file the edit cases write (absolute, in the session's cwd). */
const EDIT_FILE = "conformance-edit.txt";
/** The file the permission cases' shell command writes (absolute, in the session's cwd). */
const PERMISSION_FILE = "conformance-permission.txt";
/** The file the cwd case's shell command writes, by a relative path. */
const CWD_FILE = "conformance-cwd.txt";

/** ToolKind of the v1 schema. */
const TOOL_KINDS: ReadonlySet<string> = new Set([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
]);
/** ToolCallStatus of the v1 schema, each with its rank in the lifecycle. */
const STATUS_RANK: Readonly<Record<string, number>> = {
  pending: 0,
  in_progress: 1,
  completed: 2,
  failed: 2,
};
/** PermissionOptionKind of the v1 schema. */
const OPTION_KINDS: ReadonlySet<string> = new Set([
  "allow_once",
  "allow_always",
  "reject_once",
  "reject_always",
]);

/** A script whose one tool call is the host's write tool (`path`, `content`), then `DONE`. */
function writeScript(runner: HostRunner, path: (sandbox: Sandbox) => string, content: string) {
  return (sandbox: Sandbox): ModelScript => {
    const tool = runner.toolBehavior!.tools.write;
    return {
      toolCall: { name: tool.name, arguments: tool.args({ path: path(sandbox), content }) },
      finalText: "DONE",
    };
  };
}

/** A script whose one tool call is the host's shell tool running `command`, then `DONE`. */
export function shellScript(runner: HostRunner, command: (sandbox: Sandbox) => string) {
  return (sandbox: Sandbox): ModelScript => {
    const tool = runner.toolBehavior!.tools.shell;
    return {
      toolCall: { name: tool.name, arguments: tool.args({ command: command(sandbox) }) },
      finalText: "DONE",
    };
  };
}

/** The model for a case: the script when the host has a model (a modelFree fake has none). */
export function scripted(script: (runner: HostRunner) => (sandbox: Sandbox) => ModelScript) {
  return (runner: HostRunner) => runner.toolBehavior ? { script: script(runner) } : {};
}

/** The word every tool case writes, so its file's content is known. */
const CONTENT = "conformance-acp";

const editPath = (sandbox: Sandbox) => join(sandbox.work, EDIT_FILE);
const permissionPath = (sandbox: Sandbox) => join(sandbox.work, PERMISSION_FILE);
export const shellCommand = (target: string) => `echo conformance > '${target}'`;

/**
 * Answers `session/request_permission` by picking the first option of `choice`'s kinds (allow: allow_once,
 * then allow_always; reject: reject_once, then reject_always), or `cancelled` when there is none; every other
 * agent request is refused (-32601) unless `other` answers it.
 */
export function permissionAnswer(
  choice: "allow" | "reject",
  other: AgentRequestHandler = REFUSE_AGENT_REQUESTS,
): AgentRequestHandler {
  return (message) => {
    if (message.method !== "session/request_permission") return other(message);
    const options = (message.params as { options?: unknown } | undefined)?.options;
    const list = Array.isArray(options) ? options.filter(isObject) : [];
    const option = [`${choice}_once`, `${choice}_always`].map((kind) => list.find((o) => o.kind === kind))
      .find((o) => o !== undefined);
    return {
      result: {
        outcome: option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" },
      },
    };
  };
}

/** The outcome a client answers every pending permission request with once it has cancelled the turn. */
const CANCELLED: AgentAnswer = { result: { outcome: { outcome: "cancelled" } } };

/**
 * The client of `permission-cancel`: it holds every `session/request_permission` pending (a user who has not
 * decided yet) until {@linkcode cancel}, which answers them all `cancelled`, as does every later one of that
 * turn; after {@linkcode allowFromNow} it allows. Every other agent request is refused (-32601).
 */
function cancellingGate() {
  let state: "holding" | "cancelled" | "allowing" = "holding";
  const pending: ((answer: AgentAnswer) => void)[] = [];
  const allow = permissionAnswer("allow");
  const handler: AgentRequestHandler = (message) => {
    if (message.method !== "session/request_permission") return REFUSE_AGENT_REQUESTS(message);
    if (state === "allowing") return allow(message);
    if (state === "cancelled") return CANCELLED;
    return new Promise<AgentAnswer>((resolve) => pending.push(resolve));
  };
  return {
    handler,
    /** Answers every held request `cancelled`; how many there were. */
    cancel(): number {
      state = "cancelled";
      const held = pending.splice(0);
      for (const resolve of held) resolve(CANCELLED);
      return held.length;
    },
    allowFromNow(): void {
      state = "allowing";
    },
  };
}

/** A finished tool turn: the prompt's id, its result, and its session. */
export interface ToolTurn {
  readonly sessionId: string;
  readonly id: number;
  readonly result: Json;
}

/** Opens a session, sends `text` as a prompt and waits for the turn to end and late lines to settle. */
export async function toolTurn(
  run: AcpRun,
  text: string,
  capabilities?: ClientCapabilities,
): Promise<ToolTurn | Outcome> {
  const opened = await openSession(run, capabilities);
  if (typeof opened !== "string") return opened;
  const { id, response } = await run.connection.request(
    "session/prompt",
    { sessionId: opened, prompt: [{ type: "text", text }] },
    PROMPT_MS * run.k,
  );
  const result = resultOf(response);
  if (typeof result === "string") return fail(`session/prompt: ${result}`);
  await run.connection.settle(SETTLE_MS * run.k);
  return { sessionId: opened, id, result };
}

/** The `update` objects of the session's tool calls (`tool_call`, `tool_call_update`), in order. */
export function toolUpdates(entries: readonly TranscriptEntry[], sessionId: string): Json[] {
  return updatesOf(entries, sessionId).flatMap((index) => {
    const kind = updateKind(entries[index]!);
    if (kind !== "tool_call" && kind !== "tool_call_update") return [];
    const update = (entries[index]!.message?.params as { update?: unknown }).update;
    return isObject(update) ? [update] : [];
  });
}

/** The agent's requests of `method` (prefix with a trailing `/`), in order. */
export function agentRequests(entries: readonly TranscriptEntry[], method: string): JsonRpcMessage[] {
  return entries.flatMap((entry) => {
    const message = entry.dir === "recv" ? entry.message : null;
    if (!message || message.id === undefined || typeof message.method !== "string") return [];
    const matches = method.endsWith("/") ? message.method.startsWith(method) : message.method === method;
    return matches ? [message] : [];
  });
}

/** What breaks the tool-call lifecycle in `updates`: unknown ids, kinds, statuses, a status going back. */
function lifecycleProblems(
  updates: readonly Json[],
  askedAbout: ReadonlySet<string>,
): { problems: string[]; finals: Map<string, string>; onlyAsked: string[] } {
  const problems: string[] = [];
  const finals = new Map<string, string>();
  const onlyAsked: string[] = [];
  for (const update of updates) {
    const id = update.toolCallId;
    const what = `${String(update.sessionUpdate)} ${JSON.stringify(id)}`;
    if (typeof id !== "string" || id === "") {
      problems.push(`${what} has no string toolCallId`);
      continue;
    }
    if (update.sessionUpdate === "tool_call_update" && !finals.has(id)) {
      if (!askedAbout.has(id)) {
        problems.push(
          `${what} updates a tool call that neither a tool_call nor a permission request announced`,
        );
        continue;
      }
      // Announced only by the session/request_permission that carried it: the client saw it, not as tool_call.
      onlyAsked.push(id);
      finals.set(id, "pending");
    }
    if (update.kind !== undefined && (typeof update.kind !== "string" || !TOOL_KINDS.has(update.kind))) {
      problems.push(`${what} has kind ${JSON.stringify(update.kind)}, not a ToolKind of the spec`);
    }
    const before = finals.get(id);
    // A tool_call without a status is pending (the schema's default); an update without one keeps it.
    const status = update.status ?? (update.sessionUpdate === "tool_call" ? "pending" : before);
    if (typeof status !== "string" || !(status in STATUS_RANK)) {
      problems.push(`${what} has status ${JSON.stringify(update.status)}, not a ToolCallStatus of the spec`);
      continue;
    }
    if (before !== undefined && before !== status && STATUS_RANK[status]! <= STATUS_RANK[before]!) {
      problems.push(`${what} went from "${before}" back to "${status}"`);
    }
    finals.set(id, status);
  }
  return { problems, finals, onlyAsked };
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Every content item of the tool updates, with its tool call's id. */
export function contentsOf(updates: readonly Json[]): { id: string; item: Json }[] {
  return updates.flatMap((update) =>
    Array.isArray(update.content)
      ? update.content.filter(isObject).map((item) => ({ id: String(update.toolCallId), item }))
      : []
  );
}

export const ACP_TOOL_CASES: readonly AcpCase[] = [
  {
    name: "tool-call",
    title: "tool calls: tool_call, then tool_call_update with matching ids, spec kinds, a legal status order",
    clause: 'v1/tool-calls: "When the language model requests a tool invocation, the Agent SHOULD report ' +
      'it to the Client" as tool_call; tool_call_update carries the same toolCallId; ToolKind and ' +
      "ToolCallStatus (pending → in_progress → completed | failed)",
    needsTools: true,
    model: scripted((runner) => writeScript(runner, editPath, CONTENT)),
    async run(run) {
      run.connection.answerAgentRequests(permissionAnswer("allow"));
      const path = editPath(run.sandbox);
      const turn = await toolTurn(run, `@@acp write ${path} ${CONTENT} Write the file ${path}.`);
      if (!("sessionId" in turn)) return turn;
      // The turn's ordering (nothing after the response) is cli/acp/prompt's: here only its update kinds.
      const ordering = turnOf(run, turn.sessionId, turn.id);
      const updates = toolUpdates(run.connection.transcript, turn.sessionId);
      if (updates.length === 0) {
        return fail(
          `no tool_call update in a turn whose model called a tool (updates: ${
            ordering.kinds.join(", ") || "none"
          })`,
        );
      }
      const askedAbout = new Set(
        agentRequests(run.connection.transcript, "session/request_permission").flatMap((request) => {
          const call = (request.params as { toolCall?: { toolCallId?: unknown } } | undefined)?.toolCall;
          return typeof call?.toolCallId === "string" ? [call.toolCallId] : [];
        }),
      );
      const { problems, finals, onlyAsked } = lifecycleProblems(updates, askedAbout);
      if (problems.length > 0) return fail(problems.join("; "));
      const shown = [...finals].map(([id, status]) => `${id}: ${status}`).join(", ");
      if (onlyAsked.length > 0) {
        return warn(
          `no tool_call for ${onlyAsked.map((id) => JSON.stringify(id)).join(", ")}: only the ` +
            `session/request_permission carried it before its tool_call_update (final statuses ${shown})`,
        );
      }
      const open = [...finals].filter(([, status]) => STATUS_RANK[status]! < 2);
      if (open.length > 0) {
        return warn(
          `${open.length} tool call(s) still ${
            open.map(([, s]) => s).join("/")
          } when the turn ended (${shown})`,
        );
      }
      const kinds = [...new Set(updates.flatMap((u) => typeof u.kind === "string" ? [u.kind] : []))];
      return pass({
        observed: `${updates.length} tool update(s) for ${finals.size} call(s), ids announced first, kinds ` +
          `${kinds.join(", ") || "(none given: other)"}, final statuses ${shown}`,
      });
    },
  },
  {
    name: "tool-call-diff",
    title: "an edit tool call reported as diff content (path, newText)",
    clause: 'v1/tool-calls, Content: "File modifications shown as diffs": {type: "diff", path (absolute), ' +
      "oldText, newText}",
    needsTools: true,
    model: scripted((runner) => writeScript(runner, editPath, CONTENT)),
    async run(run) {
      run.connection.answerAgentRequests(permissionAnswer("allow"));
      const path = editPath(run.sandbox);
      const turn = await toolTurn(run, `@@acp write ${path} ${CONTENT} Write the file ${path}.`);
      if (!("sessionId" in turn)) return turn;
      const updates = toolUpdates(run.connection.transcript, turn.sessionId);
      if (updates.length === 0) {
        return fail("no tool_call update in a turn whose model called a tool to edit");
      }
      const contents = contentsOf(updates);
      const diffs = contents.filter(({ item }) => item.type === "diff");
      const mine = diffs.filter(({ item }) => item.path === path);
      if (mine.length === 0) {
        const written = await exists(path);
        return fail(
          `the edit of ${path} (${written ? "written" : "not written"} on disk) came with no diff content ` +
            `for it: content ${
              contents.length === 0
                ? "none"
                : JSON.stringify(contents.map(({ item }) =>
                  item.type === "diff" ? `diff ${item.path}` : item.type
                ))
            }; kinds ${JSON.stringify(updates.map((u) => u.kind ?? null))}`,
        );
      }
      const diff = mine.at(-1)!.item;
      if (typeof diff.newText !== "string" || !diff.newText.includes(CONTENT)) {
        return fail(
          `the diff of ${path} has newText ${JSON.stringify(diff.newText)}, not the content written`,
        );
      }
      return pass({
        observed: `diff content for ${path} (oldText ${JSON.stringify(diff.oldText ?? null)}, newText with ` +
          `the written text) on tool call ${mine.at(-1)!.id}`,
      });
    },
  },
  {
    name: "permission-reject",
    title: "session/request_permission rejected: asked with options, the tool never runs (proven on disk)",
    clause:
      'v1/tool-calls: "The Agent MAY request permission from the user before executing a tool call by ' +
      'calling the session/request_permission method" with toolCall and options (allow_once, allow_always, ' +
      "reject_once, reject_always); a rejected call is not executed",
    needsTools: true,
    model: scripted((runner) => shellScript(runner, (sandbox) => shellCommand(permissionPath(sandbox)))),
    async run(run) {
      const asking = await permissionTurn(run, "reject");
      if (!("turn" in asking)) return asking;
      const { turn, asked, written } = asking;
      if (asked.length === 0) {
        // The spec lets an agent run a tool without asking (MAY): its mode decides, so no verdict on rejection.
        return warn(
          written
            ? `the command ran unasked (${PERMISSION_FILE} written; session mode ${sessionMode(run)}): ` +
              "no permission request to reject"
            : "no session/request_permission and the command did not run: nothing to judge",
        );
      }
      const request = asked[0]!.params;
      const malformed = permissionRequestFault(request, "reject");
      if (malformed) return malformed;
      if (written) return fail(`the command ran after it was rejected: ${PERMISSION_FILE} is on disk`);
      return pass({
        observed: `${asked.length} permission request(s) with options ` +
          `${
            listOf(request, "options").map((o) => o.kind).join(", ")
          }; rejected; ${PERMISSION_FILE} absent ` +
          `${SETTLE_MS * run.k} ms after the turn ended (${JSON.stringify(turn.result.stopReason)})`,
      });
    },
  },
  {
    name: "permission-allow",
    title: "session/request_permission allowed: the tool runs (proven on disk), the request shows what runs",
    clause:
      'v1/tool-calls: session/request_permission "Request for user permission to execute a tool call"; ' +
      'its toolCall gives "Details about the tool call requiring permission"; the option selected is obeyed',
    needsTools: true,
    model: scripted((runner) => shellScript(runner, (sandbox) => shellCommand(permissionPath(sandbox)))),
    async run(run) {
      const asking = await permissionTurn(run, "allow");
      if (!("turn" in asking)) return asking;
      const { turn, asked, written } = asking;
      if (asked.length === 0) {
        return warn(
          `no session/request_permission (the command ${written ? "ran" : "did not run"} unasked; session ` +
            `mode ${sessionMode(run)}): nothing to allow`,
        );
      }
      const request = asked[0]!.params;
      const malformed = permissionRequestFault(request, "allow");
      if (malformed) return malformed;
      if (!written) return fail(`allowed, but the command never ran: ${PERMISSION_FILE} is absent`);
      // The request, or the tool call it names as reported before it (the spec's example request carries
      // only the toolCallId), must show the command the client is asked about.
      const entries = run.connection.transcript;
      const askedAt = entries.findIndex((entry) => entry.dir === "recv" && entry.message === asked[0]);
      const callId = ((request as Json).toolCall as Json | undefined)?.toolCallId;
      const reported = toolUpdates(entries.slice(0, askedAt), turn.sessionId).filter((u) =>
        u.toolCallId === callId
      );
      const inRequest = JSON.stringify((request as Json).toolCall).includes(PERMISSION_FILE);
      if (!inRequest && !JSON.stringify(reported).includes(PERMISSION_FILE)) {
        return warn(
          `allowed and ran, but neither the request's toolCall nor an earlier update of ${
            JSON.stringify(callId)
          } shows the command (no ${PERMISSION_FILE})`,
        );
      }
      return pass({
        observed: `asked with options ${listOf(request, "options").map((o) => o.kind).join(", ")}, the ` +
          `command shown ${inRequest ? "in the request" : "by the tool call it names"}; allowed; ` +
          `${PERMISSION_FILE} written`,
      });
    },
  },
  {
    name: "permission-cancel",
    title:
      "session/cancel while a permission request is pending: one cancelled response, the tool never runs",
    clause:
      'v1/prompt-turn, Cancellation: the Client "MUST respond to all pending session/request_permission ' +
      'requests with the cancelled outcome"; the Agent "MUST respond to the original session/prompt request ' +
      'with the cancelled stop reason", its updates before that response',
    needsTools: true,
    model: scripted((runner) => shellScript(runner, (sandbox) => shellCommand(permissionPath(sandbox)))),
    async run(run) {
      const { connection, k } = run;
      const gate = cancellingGate();
      connection.answerAgentRequests(gate.handler);
      const opened = await openSession(run);
      if (typeof opened !== "string") return opened;
      const sessionId = opened;
      const path = permissionPath(run.sandbox);
      const prompt = {
        sessionId,
        prompt: [{ type: "text", text: `@@acp shell ${path} Run: ${shellCommand(path)}` }],
      };
      const turn = await connection.start("session/prompt", prompt, PROMPT_MS * k);
      const first = await connection.waitFor(
        (entry) =>
          entry.message?.method === "session/request_permission" ||
          (entry.message?.method === undefined && entry.message?.id === turn.id),
        PROMPT_MS * k,
      );
      if (typeof first === "string") {
        return fail(`the turn showed neither a permission request nor a response: ${first}`);
      }
      if (first.message?.method === undefined) {
        return warn(
          (await exists(path))
            ? `the command ran unasked (${PERMISSION_FILE} written; session mode ${sessionMode(run)}): ` +
              "no permission request to cancel"
            : "no session/request_permission and the command did not run: nothing to cancel",
        );
      }
      await connection.notify("session/cancel", { sessionId });
      const held = gate.cancel();
      const response = await connection.response(turn.id, CANCEL_MS * k);
      if (typeof response === "string") {
        return fail(
          `no session/prompt response within ${CANCEL_MS * k} ms of session/cancel and the pending ` +
            `permission request answered "cancelled" (${response}): the turn ran on`,
        );
      }
      const answered = notCancelled(response);
      if (answered !== null) {
        return fail(`the turn cancelled during its permission request answered ${answered}, not "cancelled"`);
      }
      await connection.settle(SETTLE_MS * k);
      const after = turnOf(run, sessionId, turn.id);
      if (after.problem) return fail(after.problem, after.details);
      if (await exists(path)) {
        return fail(
          `the command ran although its permission request was cancelled: ${PERMISSION_FILE} is on disk`,
        );
      }
      gate.allowFromNow();
      const next = await connection.request("session/prompt", prompt, PROMPT_MS * k);
      const nextResult = resultOf(next.response);
      if (typeof nextResult === "string") return fail(`the prompt after the cancel: ${nextResult}`);
      await connection.settle(SETTLE_MS * k);
      const nextTurn = turnOf(run, sessionId, next.id);
      if (nextTurn.problem) return fail(`the prompt after the cancel: ${nextTurn.problem}`, nextTurn.details);
      if (nextResult.stopReason !== "end_turn") {
        return fail(
          `the prompt after the cancel answered stopReason ${JSON.stringify(nextResult.stopReason)}`,
        );
      }
      return pass({
        observed: `${held} pending permission request(s) answered "cancelled" after session/cancel; one ` +
          `response "cancelled", nothing for the turn within ${SETTLE_MS * k} ms after, ${PERMISSION_FILE} ` +
          `absent; the next prompt (its permission allowed) answered "end_turn", the command ` +
          `${(await exists(path)) ? "ran" : "did not run"} there`,
      });
    },
  },
  {
    name: "session-cwd",
    title: "session/new cwd: a relative path resolves in it, not in the folder the agent was spawned in",
    clause:
      'v1/session-setup, Working Directory: the cwd "MUST be used for the session regardless of where ' +
      'the Agent subprocess was spawned" and "MUST remain the base for relative-path resolution"',
    needsTools: true,
    model: scripted((runner) => shellScript(runner, () => shellCommand(CWD_FILE))),
    async run(run) {
      run.connection.answerAgentRequests(permissionAnswer("allow"));
      // The fake agent writes the relative path with its edit tool; a real one runs the scripted command.
      const turn = await toolTurn(run, `@@acp write ${CWD_FILE} ${CONTENT} Run: ${shellCommand(CWD_FILE)}`);
      if (!("sessionId" in turn)) return turn;
      const inCwd = await exists(join(run.sandbox.work, CWD_FILE));
      const inSpawn = await exists(join(run.sandbox.home, CWD_FILE));
      if (inSpawn) {
        return fail(
          `the relative path resolved in the spawn folder ${run.sandbox.home}, not the session's cwd ` +
            run.sandbox.work,
        );
      }
      if (!inCwd) return warn(`the command did not run (${CWD_FILE} nowhere): nothing to judge`);
      return pass({
        observed: `${CWD_FILE} written in the session's cwd ${run.sandbox.work}, not in the spawn folder ` +
          run.sandbox.home,
      });
    },
  },
  {
    name: "model-error",
    title: "a model answering HTTP 500: an error or a stop reason the client sees, never a hang",
    clause:
      "v1/prompt-turn: the turn ends with the session/prompt response (a stopReason) or, on failure, a " +
      "JSON-RPC error response (JSON-RPC 2.0 §5); a failed model call must reach the client",
    model: () => ({ fault: "http-500" }),
    async run(run) {
      const opened = await openSession(run);
      if (typeof opened !== "string") return opened;
      const { id, response } = await run.connection.request(
        "session/prompt",
        { sessionId: opened, prompt: [{ type: "text", text: "@@acp model-error Reply with OK." }] },
        MODEL_ERROR_MS * run.k,
      );
      if (response === "timeout") {
        return fail(
          `no session/prompt response within ${MODEL_ERROR_MS * run.k} ms of a model that answers HTTP 500`,
        );
      }
      if (response === "exited") return fail("the agent exited instead of answering the failed turn");
      if (response.error) {
        return pass({ observed: `error ${JSON.stringify(response.error).slice(0, 200)}` });
      }
      const reason = (response.result as { stopReason?: unknown } | undefined)?.stopReason;
      if (typeof reason === "string" && reason !== "end_turn") {
        return pass({ observed: `stopReason ${JSON.stringify(reason)}` });
      }
      await run.connection.settle(SETTLE_MS * run.k);
      const turn = turnOf(run, opened, id);
      const entries = run.connection.transcript;
      const said = updatesOf(entries, opened).filter((i) =>
        updateKind(entries[i]!) === "agent_message_chunk" && i < (responsesTo(entries, id)[0] ?? 0)
      ).map((i) => {
        const content = (entries[i]!.message?.params as { update?: { content?: { text?: unknown } } }).update
          ?.content;
        return typeof content?.text === "string" ? content.text : "";
      }).join("");
      if (said.trim() === "") {
        return fail(
          `stopReason ${JSON.stringify(reason)} and no message: the client cannot tell the model failed ` +
            `(updates: ${turn.kinds.join(", ") || "none"})`,
        );
      }
      return warn(
        `stopReason ${JSON.stringify(reason)}: the failure shows only as message text ` +
          JSON.stringify(said.slice(0, 160)),
      );
    },
  },
  {
    name: "session-load",
    title: "session/load (when claimed): the conversation replayed as updates before the answer",
    clause:
      'v1/session-setup, Loading Sessions: "The Agent MUST replay the entire conversation to the Client ' +
      'in the form of session/update notifications"; "When all the conversation entries have been streamed ' +
      'to the Client, the Agent MUST respond to the original session/load request"',
    async run(run) {
      const init = resultOf(await run.initialize());
      if (typeof init === "string") return fail(`initialize: ${init}`);
      const caps = isObject(init.agentCapabilities) ? init.agentCapabilities : {};
      if (caps.loadSession !== true) return skip("the agent does not claim loadSession");
      const loadable = await sessionInNewProcess(run, "load");
      if (!("sessionId" in loadable)) return loadable;
      const { sessionId, nonce } = loadable;
      const { id, response } = await run.connection.request(
        "session/load",
        { sessionId, cwd: run.sandbox.work, mcpServers: [] },
        PROMPT_MS * run.k,
      );
      const loaded = resultOf(response);
      if (typeof loaded === "string") return fail(`session/load of ${JSON.stringify(sessionId)}: ${loaded}`);
      await run.connection.settle(SETTLE_MS * run.k);
      const entries = run.connection.transcript;
      const answeredAt = responsesTo(entries, id)[0]!;
      const replay = updatesOf(entries, sessionId);
      const before = replay.filter((i) => i < answeredAt);
      const after = replay.filter((i) => i > answeredAt).filter((i) =>
        updateKind(entries[i]!).endsWith("_chunk")
      );
      if (after.length > 0) {
        return fail(`${after.length} conversation update(s) after the session/load response (replayed late)`);
      }
      const texts = (kind: string) =>
        before.filter((i) => updateKind(entries[i]!) === kind).map((i) =>
          JSON.stringify((entries[i]!.message?.params as { update?: unknown }).update)
        ).join("");
      const user = texts("user_message_chunk");
      const agent = texts("agent_message_chunk");
      if (!user.includes(nonce)) {
        return fail(
          `the replay before the answer holds no user_message_chunk with the prompt sent (kinds: ${
            before.map((i) => updateKind(entries[i]!)).join(", ") || "none"
          })`,
        );
      }
      if (agent === "") return fail("the replay before the answer holds no agent_message_chunk (the reply)");
      return pass({
        observed:
          `a new agent process replayed ${before.length} update(s) (the prompt with its nonce and the ` +
          `reply) before answering session/load, nothing after`,
      });
    },
  },
  {
    name: "client-capabilities",
    title: "client fs/terminal not advertised: the agent never calls fs/* or terminal/*",
    clause: 'v1/file-system: "If readTextFile or writeTextFile is false or not present, the Agent MUST NOT ' +
      'attempt to call the corresponding filesystem method"; v1/terminals: likewise without terminal',
    needsTools: true,
    model: scripted((runner) => writeScript(runner, editPath, CONTENT)),
    async run(run) {
      run.connection.answerAgentRequests(permissionAnswer("allow"));
      const path = editPath(run.sandbox);
      const turn = await toolTurn(run, `@@acp write ${path} ${CONTENT} Write the file ${path}.`);
      if (!("sessionId" in turn)) return turn;
      const entries = run.connection.transcript;
      const calls = [...agentRequests(entries, "fs/"), ...agentRequests(entries, "terminal/")];
      if (calls.length > 0) {
        return fail(
          `called ${[...new Set(calls.map((c) => c.method))].join(", ")} though the client advertised ` +
            "fs.readTextFile, fs.writeTextFile and terminal false",
        );
      }
      const written = await exists(path);
      const tools = toolUpdates(entries, turn.sessionId).length;
      if (!written && tools === 0) return warn("no tool ran and nothing was written: nothing to judge");
      return pass({
        observed:
          `no fs/* or terminal/* call; the edit ${written ? "written on disk by the agent" : "not written"}` +
          ` (${tools} tool update(s))`,
      });
    },
  },
  {
    name: "client-fs",
    title: "client fs advertised: the agent's file write goes through fs/write_text_file, well-formed",
    clause: "v1/file-system: with fs.writeTextFile advertised the Agent may call fs/write_text_file with " +
      '"sessionId", "path" ("Absolute path to the file") and "content"; "The Client MUST create the file if it ' +
      "doesn't exist\"",
    needsTools: true,
    model: scripted((runner) => writeScript(runner, editPath, CONTENT)),
    async run(run) {
      const { sandbox } = run;
      run.connection.answerAgentRequests(permissionAnswer("allow", clientFs(sandbox)));
      const path = editPath(sandbox);
      const turn = await toolTurn(run, `@@acp write ${path} ${CONTENT} Write the file ${path}.`, {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: false,
      });
      if (!("sessionId" in turn)) return turn;
      const entries = run.connection.transcript;
      const calls = agentRequests(entries, "fs/");
      const problems = calls.flatMap((call) => {
        const params = isObject(call.params) ? call.params : {};
        const wrong: string[] = [];
        if (params.sessionId !== turn.sessionId) wrong.push(`sessionId ${JSON.stringify(params.sessionId)}`);
        if (typeof params.path !== "string" || !params.path.startsWith("/")) {
          wrong.push(`path ${JSON.stringify(params.path)} not absolute`);
        }
        if (call.method === "fs/write_text_file" && typeof params.content !== "string") {
          wrong.push("no content");
        }
        return wrong.length > 0 ? [`${String(call.method)}: ${wrong.join(", ")}`] : [];
      });
      if (problems.length > 0) return fail(problems.join("; "));
      const writes = calls.filter((call) =>
        call.method === "fs/write_text_file" && (call.params as Json).path === path
      );
      const written = await exists(path);
      if (writes.length === 0 && calls.length > 0 && !written) {
        // It went through the client (a read first, say), then gave the edit up: a new file cannot be made.
        const failed = toolUpdates(entries, turn.sessionId).filter((u) => u.status === "failed");
        return fail(
          `the edit of a new file failed through the client: the agent called ` +
            `${
              calls.map((c) => c.method).join(", ")
            } (a missing file answered -32002 "Resource not found"), ` +
            `then no fs/write_text_file and ${EDIT_FILE} was never written` +
            (failed.length > 0
              ? `; tool call failed: ${JSON.stringify(failed[0]!.content ?? null).slice(0, 200)}`
              : ""),
        );
      }
      if (writes.length === 0) {
        // Not a SHOULD broken: the capability only makes the methods available, so this is a MAY not taken.
        return written
          ? info(
            `fs.writeTextFile advertised, but the agent wrote ${EDIT_FILE} itself (the spec lets it; ` +
              `fs calls: ${calls.map((c) => c.method).join(", ") || "none"})`,
          )
          : warn(`no fs/write_text_file and ${EDIT_FILE} not written: nothing to judge`);
      }
      const content = await Deno.readTextFile(path).catch(() => "");
      if (!content.includes(CONTENT)) {
        return fail(`fs/write_text_file wrote ${JSON.stringify(content)}, not the edit`);
      }
      return pass({
        observed: `${writes.length} fs/write_text_file call(s) for ${path} with an absolute path and the ` +
          `edit's content, written by the client (${calls.length} fs call(s) in all)`,
      });
    },
  },
];

/**
 * The client's `fs/*` methods over the sandbox: read and write a text file at an absolute path inside the
 * sandbox's HOME; anything else is refused.
 */
function clientFs(sandbox: Sandbox): AgentRequestHandler {
  return (message) => {
    const params = isObject(message.params) ? message.params : {};
    const path = params.path;
    if (
      (message.method !== "fs/read_text_file" && message.method !== "fs/write_text_file") ||
      typeof path !== "string" || !path.startsWith(`${sandbox.home}/`) || path.includes("/../")
    ) {
      return REFUSE_AGENT_REQUESTS(message);
    }
    try {
      if (message.method === "fs/write_text_file") {
        Deno.writeTextFileSync(path, String(params.content ?? ""));
        return { result: {} };
      }
      return { result: { content: Deno.readTextFileSync(path) } };
    } catch (error) {
      return { error: { code: -32002, message: `Resource not found: ${(error as Error).message}` } };
    }
  };
}

/** The session's mode as session/new reported it (`modes.currentModeId`), or `(none reported)`. */
/**
 * The permission cases' turn: every session/request_permission answered `answer`, the scripted shell command
 * prompted, then what the agent asked and whether the command's file is on disk; or the turn's own outcome.
 */
async function permissionTurn(
  run: AcpRun,
  answer: "allow" | "reject",
): Promise<
  { turn: ToolTurn; asked: JsonRpcMessage[]; written: boolean } | Outcome
> {
  run.connection.answerAgentRequests(permissionAnswer(answer));
  const path = permissionPath(run.sandbox);
  const turn = await toolTurn(run, `@@acp shell ${path} Run: ${shellCommand(path)}`);
  if (!("sessionId" in turn)) return turn;
  const asked = agentRequests(run.connection.transcript, "session/request_permission");
  return { turn, asked, written: await exists(path) };
}

/** A FAIL when a permission request is malformed or offers no option of `kind`; `null` when it is fine. */
function permissionRequestFault(request: unknown, kind: "allow" | "reject"): Outcome | null {
  const problems = permissionRequestProblems(request);
  if (problems.length > 0) return fail(`session/request_permission: ${problems.join("; ")}`);
  if (!listOf(request, "options").some((o) => String(o.kind).startsWith(`${kind}_`))) {
    return fail(`session/request_permission offered no ${kind} option`);
  }
  return null;
}

function sessionMode(run: AcpRun): string {
  for (const message of run.connection.received()) {
    const modes = (message.result as { modes?: { currentModeId?: unknown } } | undefined)?.modes;
    if (typeof modes?.currentModeId === "string") return JSON.stringify(modes.currentModeId);
  }
  return "(none reported)";
}

/** The list field `name` of a request's params, its object items only. */
function listOf(params: unknown, name: string): Json[] {
  const value = isObject(params) ? params[name] : undefined;
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** What is malformed in a `session/request_permission` request's params. */
function permissionRequestProblems(params: unknown): string[] {
  if (!isObject(params)) return ["params not an object"];
  const problems: string[] = [];
  if (typeof params.sessionId !== "string") problems.push("no sessionId");
  const call = params.toolCall;
  if (!isObject(call) || typeof call.toolCallId !== "string") problems.push("toolCall without a toolCallId");
  const options = params.options;
  if (!Array.isArray(options) || options.length === 0) problems.push("no options");
  else {
    options.forEach((option, index) => {
      if (
        !isObject(option) || typeof option.optionId !== "string" || typeof option.name !== "string" ||
        !OPTION_KINDS.has(String(option.kind))
      ) {
        problems.push(
          `options[${index}] ${JSON.stringify(option)} lacks an optionId, name or PermissionOptionKind`,
        );
      }
    });
  }
  return problems;
}
