/**
 * `cli/acp/<case>`: the host driven as an Agent Client Protocol agent (JSON-RPC 2.0 over its stdio, v1), each
 * case one obligation of the spec (`agentclientprotocol/agent-client-protocol`, docs/protocol/v1/), judged
 * from the raw transcript (src/acp/connection.ts), so ordering and stray stdout lines count. Real hosts run
 * it offline against the mock model (`--mock-model`), in a sandbox; a host without ACP lists the cases and
 * SKIPs them with its host file's reason. The fake ACP agent and its broken variants (hosts/cli/fake_acp.ts)
 * are the cases' own test: each variant fails exactly its targets.
 *
 * @module
 */
import type { CliHostEntry } from "../../src/host.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import { inSlot } from "./mock_model.ts";
import { fail, type Outcome, pass, skip, warn } from "../../src/outcome.ts";
import type { TestCase } from "../../src/suite.ts";
import { waitGroupGone } from "../../src/exec/process_group.ts";
import {
  CANCEL_MS,
  CLIENT_PROTOCOL_VERSION,
  initializeParams,
  PROMPT_MS,
  REQUEST_MS,
  responsesTo,
  startAcpRun,
  transcriptTail,
  updatesOf,
} from "./acp_session.ts";
import { capabilityProblems, claims } from "./acp_checks.ts";
import {
  type AcpCase,
  notCancelled,
  openSession,
  resultOf,
  SETTLE_MS,
  startSlowTurn,
  TEXT_PROMPT,
  turnOf,
} from "./acp_case.ts";
import { ACP_TOOL_CASES } from "./acp_tools.ts";
import { ACP_TERMINAL_CASES } from "./acp_terminal.ts";
import { ACP_LIFECYCLE_CASES } from "./acp_lifecycle.ts";
import type { CliTier } from "./tier.ts";

const PREFIX = "cli/acp/";

/** A protocol version no agent supports: the agent must answer with its own latest instead. */
const UNKNOWN_VERSION = 999;
/** How long the agent may take to exit once its stdin is closed, before the multiplier. */
const EXIT_MS = 10_000;
/** How long the agent's children may outlive it, before the multiplier. */
const GROUP_GONE_MS = 5_000;

const BASE_CASES: readonly AcpCase[] = [
  {
    name: "initialize",
    title: "initialize: same version back, well-formed capabilities, only JSON-RPC on stdout",
    clause:
      'v1/initialization: "If the Agent supports the requested version, it MUST respond with the same ' +
      'version"; stdio transport: stdout carries only ACP messages',
    async run(run) {
      const response = await run.initialize();
      await run.connection.settle(SETTLE_MS * run.k);
      const stray = run.connection.strayLines();
      if (stray.length > 0) {
        return fail(
          `${stray.length} line(s) on stdout are not JSON-RPC, the first at ${stray[0]!.at} ms: ` +
            JSON.stringify(stray[0]!.raw.slice(0, 120)),
        );
      }
      const result = resultOf(response);
      if (typeof result === "string") return fail(`initialize: ${result}`);
      if (result.protocolVersion !== CLIENT_PROTOCOL_VERSION) {
        return fail(
          `answered protocolVersion ${JSON.stringify(result.protocolVersion)} to a request for ` +
            `${CLIENT_PROTOCOL_VERSION}, which every v1 agent supports`,
        );
      }
      const problems = capabilityProblems(result);
      if (problems.length > 0) return fail(`malformed initialize result: ${problems.join("; ")}`);
      return pass({
        observed:
          `protocolVersion ${CLIENT_PROTOCOL_VERSION} back for ${CLIENT_PROTOCOL_VERSION}, capabilities ` +
          `well-formed, no stray stdout line up to ${SETTLE_MS * run.k} ms after the answer`,
        claims: claims(result),
      });
    },
  },
  {
    name: "initialize-unsupported-version",
    title: "initialize with an unknown higher version: the agent's latest back",
    clause: 'v1/initialization: "Otherwise, the Agent MUST respond with the latest version it supports"',
    async run(run) {
      const result = resultOf(await run.initialize(UNKNOWN_VERSION));
      if (typeof result === "string") return fail(`initialize(${UNKNOWN_VERSION}): ${result}`);
      const version = result.protocolVersion;
      if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
        return fail(`answered protocolVersion ${JSON.stringify(version)}: not a positive integer`);
      }
      if (version >= UNKNOWN_VERSION) {
        return fail(
          `answered protocolVersion ${version} to ${UNKNOWN_VERSION}: it echoed a version it cannot speak`,
        );
      }
      return pass({ observed: `protocolVersion ${version} back for ${UNKNOWN_VERSION}` });
    },
  },
  {
    name: "session-new",
    title: "session/new: a unique sessionId per session",
    clause: 'v1/session-setup: "The Agent MUST respond with a unique Session ID"; cwd an absolute path',
    async run(run) {
      const init = resultOf(await run.initialize());
      if (typeof init === "string") return fail(`initialize: ${init}`);
      const first = await run.newSession();
      if ("problem" in first) return fail(first.problem, { response: first.response });
      const second = await run.newSession();
      if ("problem" in second) return fail(`the second ${second.problem}`, { response: second.response });
      if (first.sessionId === second.sessionId) {
        return fail(`two session/new calls both answered sessionId ${JSON.stringify(first.sessionId)}`);
      }
      return pass({
        observed: `two sessions in ${run.sandbox.work} (agent spawned in ${run.sandbox.home}): ` +
          `${JSON.stringify(first.sessionId)} and ${JSON.stringify(second.sessionId)}`,
      });
    },
  },
  {
    name: "prompt",
    title: "session/prompt: message chunks, then one end_turn response, nothing after",
    clause:
      "v1/prompt-turn: updates stream as session/update, the turn ends with the session/prompt response " +
      'and its stopReason; v1/cancellation: updates "MUST arrive before the prompt response"',
    async run(run) {
      const opened = await openSession(run);
      if (typeof opened !== "string") return opened;
      const sessionId = opened;
      const { id, response } = await run.connection.request(
        "session/prompt",
        { sessionId, prompt: [{ type: "text", text: TEXT_PROMPT }] },
        PROMPT_MS * run.k,
      );
      const result = resultOf(response);
      if (typeof result === "string") return fail(`session/prompt: ${result}`);
      await run.connection.settle(SETTLE_MS * run.k);
      const turn = turnOf(run, sessionId, id);
      if (turn.problem) return fail(turn.problem, turn.details);
      if (result.stopReason !== "end_turn") {
        return fail(`stopReason ${JSON.stringify(result.stopReason)} for a plain text turn, not "end_turn"`);
      }
      if (!turn.kinds.includes("agent_message_chunk")) {
        return fail(
          `no agent_message_chunk before the response (updates: ${turn.kinds.join(", ") || "none"})`,
        );
      }
      return pass({
        observed: `${turn.kinds.length} update(s) (${[...new Set(turn.kinds)].join(", ")}), then one ` +
          `response with stopReason "end_turn", nothing for the session within ${SETTLE_MS * run.k} ms after`,
      });
    },
  },
  {
    name: "cancel",
    title: "session/cancel mid-turn: one cancelled response, nothing after, the next prompt works",
    clause: 'v1/cancellation: the Agent "MUST respond to the original session/prompt request with the ' +
      'cancelled stop reason"; updates after the cancel MUST arrive before the response',
    model: () => ({ slow: true }),
    async run(run) {
      const opened = await openSession(run);
      if (typeof opened !== "string") return opened;
      const sessionId = opened;
      const { connection, k } = run;
      const turn = await startSlowTurn(run, sessionId, "cancel");
      if (!("id" in turn)) return turn;
      await connection.notify("session/cancel", { sessionId });
      const cancelledAt = connection.transcript.length;
      const response = await connection.response(turn.id, CANCEL_MS * k);
      if (typeof response === "string") {
        return fail(
          `no session/prompt response within ${
            CANCEL_MS * k
          } ms of session/cancel (${response}): the turn ran on`,
          { transcript: transcriptTail(connection.transcript) },
        );
      }
      const answered = notCancelled(response);
      if (answered !== null) return fail(`the cancelled turn answered ${answered}, not "cancelled"`);
      await connection.settle(SETTLE_MS * k);
      const after = turnOf(run, sessionId, turn.id);
      if (after.problem) return fail(after.problem, after.details);
      const next = await connection.request(
        "session/prompt",
        { sessionId, prompt: [{ type: "text", text: TEXT_PROMPT }] },
        PROMPT_MS * k,
      );
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
      const updatesAfterCancel =
        updatesOf(connection.transcript, sessionId).filter((i) =>
          i >= cancelledAt && i < responsesTo(connection.transcript, turn.id)[0]!
        ).length;
      return pass({
        observed: `one response "cancelled" (${updatesAfterCancel} update(s) between the cancel and it), ` +
          `nothing for the turn within ${SETTLE_MS * k} ms after, then the next prompt answered "end_turn"`,
      });
    },
  },
  {
    name: "unknown-method",
    title: "an unknown method: error -32601",
    clause: "JSON-RPC 2.0 §5.1 (ACP is JSON-RPC 2.0): a method that does not exist is answered -32601 " +
      '"Method not found"',
    async run(run) {
      const init = resultOf(await run.initialize());
      if (typeof init === "string") return fail(`initialize: ${init}`);
      const { response } = await run.connection.request("conformance/no-such-method", {}, CANCEL_MS * run.k);
      if (typeof response === "string") return fail(`no answer to an unknown method (${response})`);
      const code = response.error?.code;
      if (code !== -32601) {
        return fail(
          `answered ${
            response.error
              ? `error code ${JSON.stringify(code)}`
              : `a result ${JSON.stringify(response.result)}`
          }, not error -32601`,
        );
      }
      return pass({ observed: `error -32601 ${JSON.stringify(response.error?.message ?? "")}` });
    },
  },
  {
    name: "malformed-json",
    title: "a line that is not JSON, and a request without a method: errors, not a crash",
    clause:
      'JSON-RPC 2.0 §5.1: invalid JSON is answered -32700 "Parse error" (id null), an invalid request ' +
      "-32600; the connection stays usable",
    async run(run) {
      const init = resultOf(await run.initialize());
      if (typeof init === "string") return fail(`initialize: ${init}`);
      const { connection, k } = run;
      const sentAt = connection.transcript.length;
      await connection.sendRaw('{"jsonrpc": "2.0", "id": 41, "method": "initialize", ');
      const invalidId = connection.freshId();
      await connection.sendMessage({ jsonrpc: "2.0", id: invalidId, params: {} });
      // Any answer (a result or an error) to a cheap request shows the connection still usable.
      const probe = await connection.request("initialize", initializeParams(), REQUEST_MS * k);
      if (typeof probe.response === "string") {
        const status = await connection.waitExit(0);
        return fail(
          status === "late"
            ? `no answer to a request after the malformed lines (${probe.response})`
            : `the agent exited (code ${status.code}) after a line that is not JSON`,
          { transcript: transcriptTail(connection.transcript) },
        );
      }
      const later = connection.transcript.slice(sentAt).flatMap((entry) =>
        entry.message ? [entry.message] : []
      );
      const parseError = later.some((m) => m.id === null && m.error?.code === -32700);
      const invalid = later.some((m) => m.id === invalidId && m.error?.code === -32600);
      const observed = `still answering after a truncated JSON line and a request without a method; ` +
        `-32700 ${parseError ? "sent" : "not sent"}, -32600 ${invalid ? "sent" : "not sent"}`;
      if (!parseError || !invalid) return warn(`JSON-RPC errors missing: ${observed}`);
      return pass({ observed });
    },
  },
  {
    name: "stdin-closed",
    title: "stdin closed: the agent exits and its process group is gone",
    clause: "v1/transports (stdio): the client ends the connection by closing the agent's stdin; the agent " +
      "should then exit",
    async run(run) {
      const init = resultOf(await run.initialize());
      if (typeof init === "string") return fail(`initialize: ${init}`);
      const { connection, k } = run;
      await connection.closeStdin();
      const status = await connection.waitExit(EXIT_MS * k);
      if (status === "late") return fail(`still running ${EXIT_MS * k} ms after its stdin closed`);
      // The agent's children may take a moment to follow it out.
      const gone = await waitGroupGone(connection.pgid, GROUP_GONE_MS * k);
      if (!gone) {
        return fail(
          `exited (code ${status.code}) but processes of its group ${connection.pgid} were still alive ` +
            `${GROUP_GONE_MS * k} ms later`,
        );
      }
      return pass({
        observed: `exited with code ${status.code} after its stdin closed; group ${connection.pgid} gone`,
      });
    },
  },
];

const CASES: readonly AcpCase[] = [
  ...BASE_CASES,
  ...ACP_TOOL_CASES,
  ...ACP_TERMINAL_CASES,
  ...ACP_LIFECYCLE_CASES,
];

/** The ACP tier. */
export const acpTier: CliTier = {
  name: "acp",
  // Generous: a real CLI's start, a turn against the mock model and a cancel on a loaded machine.
  timeoutMs: 300_000,
  list(entry: CliHostEntry, settings): TestCase[] {
    const { runner } = entry;
    if (!runner.acp && !runner.acpUnsupported) return [];
    // Real hosts run offline against the mock model only; an agent with no model at all (the fake) always.
    if (!settings.mockModel && !runner.acp?.modelFree) return [];
    return CASES.map((c) => ({ id: `${PREFIX}${c.name}`, title: `ACP: ${c.title}` }));
  },
  async run(entry, test, settings, signal): Promise<Outcome> {
    const { runner } = entry;
    if (!runner.acp) {
      return skip(`no ACP: ${runner.acpUnsupported ?? "its host file declares no ACP launch"}`);
    }
    const c = CASES.find((candidate) => `${PREFIX}${candidate.name}` === test.id);
    if (!c) throw new RangeError(`No ACP case "${test.id}": see suite/cli/acp.ts`);
    if (!runner.acp.modelFree && !runner.mockModel) {
      return skip(
        `cannot point ${runner.name} at a local model: ${
          runner.mockModelUnsupported ?? "no mock-model setup"
        }`,
      );
    }
    if (await runner.detect() === null) {
      return skip(`binary absent: "${runner.binary}" is not installed (deno task hosts:install) nor on PATH`);
    }
    // A real CLI is heavy to start: it shares the mock-model tiers' run slots (suite/cli/mock_model.ts).
    const job = () => runCase(runner, c, settings.timeoutMultiplier, signal);
    return runner.acp.modelFree ? await job() : await inSlot(job, signal, runner);
  },
};

/** Runs one case in a fresh sandbox, then ends the agent's group: the outcome, stamped with its clause. */
async function runCase(runner: HostRunner, c: AcpCase, k: number, signal: AbortSignal): Promise<Outcome> {
  if (c.needsTools && !runner.acp?.modelFree && !runner.toolBehavior) {
    return skip(`${runner.name}'s host file names no built-in tools (toolBehavior) to script`, {
      clause: c.clause,
    });
  }
  await using run = await startAcpRun(runner, { k, signal, ...(c.model ? { model: c.model(runner) } : {}) });
  const outcome = await c.run(run);
  const gone = await run.connection.stop();
  const stamped = { ...outcome, details: { ...outcome.details, clause: c.clause } };
  if (!gone) {
    return fail(`the agent's process group ${run.connection.pgid} survived SIGKILL`, stamped.details);
  }
  if (outcome.status === "FAIL" && !("transcript" in (outcome.details ?? {}))) {
    return {
      ...stamped,
      details: { ...stamped.details, transcript: transcriptTail(run.connection.transcript) },
    };
  }
  return stamped;
}

/** The ACP case names, in run order. */
export const ACP_CASES: readonly string[] = CASES.map((c) => c.name);
