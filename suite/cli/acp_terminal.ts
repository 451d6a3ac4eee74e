/**
 * `cli/acp/client-terminal`: the client advertises `terminal` and serves `terminal/*` for real
 * (src/acp/client_terminals.ts: the command runs through `sh` in a process group of its own, in the sandbox);
 * the mock model asks for a shell command that writes a marker file. The agent may run it through
 * `terminal/create` or by itself (the capability is an offer); when it creates terminals, every call must be
 * well-formed and every terminal released, and the command's effect is proven on disk. Every group the client
 * started is ended and proven gone when the case ends.
 *
 * @module
 */
import { join } from "node:path";
import { type AgentRequestHandler, REFUSE_AGENT_REQUESTS } from "../../src/acp/connection.ts";
import { type ClientTerminal, ClientTerminals } from "../../src/acp/client_terminals.ts";
import { type Sandbox, sandboxEnv } from "../../src/mock_model/sandbox.ts";
import { fail, info, pass, warn } from "../../src/outcome.ts";
import { pollUntil } from "../../src/time.ts";
import type { AcpCase } from "./acp_case.ts";
import type { ClientCapabilities } from "./acp_session.ts";
import {
  agentRequests,
  contentsOf,
  exists,
  permissionAnswer,
  scripted,
  shellCommand,
  shellScript,
  toolTurn,
  toolUpdates,
} from "./acp_tools.ts";
import { isObject, type Json } from "./acp_checks.ts";

/** The file the command writes (absolute, in the session's cwd). */
const TERMINAL_FILE = "conformance-terminal.txt";
/**
 * How long after the turn's response every terminal may take to be released, before the multiplier: the
 * spec asks for a release "when it's no longer needed", which for a command of the turn is by the turn's end;
 * the grace covers a release sent just after the response.
 */
const RELEASE_MS = 5_000;

/** What the client advertises: a terminal, no `fs`. */
const TERMINAL_ONLY: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: true,
};

const terminalPath = (sandbox: Sandbox) => join(sandbox.work, TERMINAL_FILE);

/** A terminal's command line as the agent sent it. */
function commandLine(terminal: ClientTerminal): string {
  return [terminal.command, ...terminal.args].join(" ");
}

export const ACP_TERMINAL_CASES: readonly AcpCase[] = [
  {
    name: "client-terminal",
    title: "client terminal advertised: terminal/* calls well-formed, every terminal released",
    clause: 'v1/initialization: with clientCapabilities.terminal "All terminal/* methods are available, ' +
      'allowing the Agent to execute and manage shell commands" (an offer: the Agent may also run the ' +
      "command itself); v1/terminals: terminal/create {sessionId, command, args, env, cwd (absolute), " +
      "outputByteLimit}; \"The Agent MUST release the terminal using terminal/release when it's no longer " +
      'needed"; after release "the terminal ID becomes invalid for all other terminal/* methods"',
    needsTools: true,
    model: scripted((runner) => shellScript(runner, (sandbox) => shellCommand(terminalPath(sandbox)))),
    async run(run) {
      const { sandbox, k } = run;
      await using terminals = new ClientTerminals({
        root: sandbox.home,
        defaultCwd: sandbox.work,
        env: sandboxEnv(sandbox),
      });
      const serve: AgentRequestHandler = (message) =>
        terminals.handle(message) ?? REFUSE_AGENT_REQUESTS(message);
      run.connection.answerAgentRequests(permissionAnswer("allow", serve));
      const path = terminalPath(sandbox);
      const turn = await toolTurn(run, `@@acp terminal ${path} Run: ${shellCommand(path)}`, TERMINAL_ONLY);
      if (!("sessionId" in turn)) return turn;
      await pollUntil(() => terminals.terminals.every((t) => t.released), {
        timeoutMs: RELEASE_MS * k,
        intervalMs: 50,
      });
      const entries = run.connection.transcript;
      const calls = agentRequests(entries, "terminal/");
      const created = terminals.terminals;
      const ids = new Set(created.map((t) => t.terminalId));
      const problems = [
        ...terminals.problems,
        ...calls.filter((call) => isObject(call.params) && call.params.sessionId !== turn.sessionId).map(
          (call) =>
            `${String(call.method)}: sessionId ${
              JSON.stringify((call.params as Json).sessionId)
            } is not the session's ${JSON.stringify(turn.sessionId)}`,
        ),
        ...contentsOf(toolUpdates(entries, turn.sessionId)).filter(({ item }) =>
          item.type === "terminal" && (typeof item.terminalId !== "string" || !ids.has(item.terminalId))
        ).map(({ id, item }) =>
          `tool call ${JSON.stringify(id)} embeds terminal ${
            JSON.stringify(item.terminalId)
          }, which no terminal/create returned`
        ),
      ];
      const methods = [...new Set(calls.map((call) => call.method))].join(", ");
      const details = { terminals: created, calls: calls.length };
      if (problems.length > 0) return fail(problems.join("; "), details);
      const unreleased = created.filter((t) => !t.released);
      if (unreleased.length > 0) {
        return fail(
          `${unreleased.length} terminal(s) never released ${RELEASE_MS * k} ms after the turn ended: ` +
            unreleased.map((t) => `${t.terminalId} (${JSON.stringify(commandLine(t))})`).join(", ") +
            ` (calls: ${methods})`,
          details,
        );
      }
      const left = await terminals.closeAll();
      if (left.length > 0) {
        return {
          status: "ERROR",
          message: `the client's terminal group(s) ${left.join(", ")} survived SIGKILL`,
        };
      }
      const written = await exists(path);
      if (created.length === 0) {
        const refused = terminals.refused.length > 0
          ? ` (the client refused: ${terminals.refused.join("; ")})`
          : "";
        // Not a SHOULD broken: the capability only makes the methods available, so this is a MAY not taken.
        return written
          ? info(
            `terminal advertised, but the agent ran the command itself: no terminal/create, ${TERMINAL_FILE} ` +
              `written by the agent${refused}`,
          )
          : warn(`no terminal/create and ${TERMINAL_FILE} not written: nothing to judge${refused}`);
      }
      const mine = created.filter((t) => commandLine(t).includes(TERMINAL_FILE));
      if (mine.length === 0) {
        return info(
          `${created.length} terminal(s) created and released, none for the command (${
            created.map((t) => JSON.stringify(commandLine(t))).join(", ")
          }); ${TERMINAL_FILE} ${written ? "written by the agent itself" : "not written"}`,
          details,
        );
      }
      const terminal = mine[0]!;
      const exit = terminal.exit;
      if (!written) {
        return warn(
          `the command ran through terminal ${terminal.terminalId} but ${TERMINAL_FILE} was not written ` +
            `(exit ${JSON.stringify(exit)}, killed ${terminal.killed})`,
          details,
        );
      }
      const read = calls.filter((call) =>
        isObject(call.params) && call.params.terminalId === terminal.terminalId &&
        (call.method === "terminal/wait_for_exit" || call.method === "terminal/output")
      ).map((call) => call.method);
      if (!terminal.exitSeen) {
        return warn(
          `ran ${JSON.stringify(commandLine(terminal))} through terminal/create and released it without ` +
            `learning how it ended (no wait_for_exit, no output after the exit; calls: ${methods})`,
          details,
        );
      }
      const embedded = contentsOf(toolUpdates(entries, turn.sessionId)).some(({ item }) =>
        item.type === "terminal" && item.terminalId === terminal.terminalId
      );
      return pass({
        observed: `terminal/create ran ${JSON.stringify(commandLine(terminal))} in ${terminal.cwd}, exit ` +
          `code ${exit?.exitCode ?? "?"} read through ${
            [...new Set(read)].join(" and ")
          }, ${TERMINAL_FILE} ` +
          `written, all ${created.length} terminal(s) released; ${calls.length} terminal/* call(s) ` +
          `(${methods}); ${
            embedded ? "embedded in a tool call as terminal content" : "not embedded in a tool call"
          }`,
        ...details,
      });
    },
  },
];
