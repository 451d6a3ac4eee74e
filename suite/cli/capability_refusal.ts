/**
 * How the capability-behaviour tier judges a restricted run (an allow-list, a workspace root, the permission
 * bypass taken out): the refusal must be observed, not inferred, and the run must be shown to work.
 *
 * Each restricted run's model asks first for a control call the restriction allows (the read of the probe
 * file, or a write inside the workspace root), then for the call it must refuse. The run passes only when:
 * the refused call's effect did not land; a refusal was observed, in the stream (an error `tool_result` for
 * that call), in the model journal (a tool result answering that call, sent back to the model), or as the run's
 * own error result once the call was asked (droid ends a print run "insufficient permission to proceed"); and
 * the control worked (the probe's word came back to the model, or the write inside the root landed). A host
 * that ends without a word after the call (a crash: no tool result, no error result) fails, with its exit code;
 * one that refused it may end non-zero.
 *
 * @module
 */
import type { Observation } from "../../src/exec/observation.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { ScriptedRequest } from "../../src/mock_model/script.ts";
import type { ToolCallEvent, ToolResultEvent } from "../../src/normalize/events.ts";
import { parseBlockingJson } from "../../src/normalize/mod.ts";
import { fail, type Outcome } from "../../src/outcome.ts";
import { processProblems } from "./capability_judge.ts";
import type { CapabilityRun } from "./capability_run.ts";
import { quoteHostText } from "../../src/quote.ts";
import { passed } from "./evidence.ts";

/** The call a restricted run must refuse: its place in the run's script, its tool, and its would-be effect. */
export interface RefusedCall {
  /** The call's index in the run's script (its model id is `call_conformance_<index + 1>`). */
  readonly index: number;
  readonly tool: string;
  /** The file it would create, with the sandbox's home shown as `$HOME`. */
  readonly shown: string;
  readonly landed: boolean;
}

/** The run's control: what the restriction allows, and whether it worked. */
export interface RunControl {
  /** What the control is, in words (`the read of the probe file`). */
  readonly what: string;
  readonly worked: boolean;
  /** What was seen of it (the tool result's start, the file). */
  readonly seen: string;
}

/** A restricted run and what it did. */
export interface RestrictedRun {
  readonly run: CapabilityRun;
  /** The host's dialect, to read a document path's result. */
  readonly dialect: string;
  /** The model requests of this run alone. */
  readonly requests: readonly ScriptedRequest[];
  readonly refused: RefusedCall;
  readonly control: RunControl;
}

/** The model's id of a script call. */
export function callId(index: number): string {
  return `call_conformance_${index + 1}`;
}

/** The tool messages of a request's current turn (after its last user message). */
function turnResults(request: ScriptedRequest) {
  const lastUser = request.messages.findLastIndex((message) => message.role === "user");
  return request.messages.slice(lastUser + 1).filter((message) => message.role === "tool");
}

/**
 * The tool result answering script call `index`, as the host sent it back to the model: the one carrying its
 * id, else (a host that renames ids) the turn's result in its place. `undefined` when none came back.
 */
export function resultSentBack(requests: readonly ScriptedRequest[], index: number): string | undefined {
  const id = callId(index);
  const turns = requests.map(turnResults);
  const byId = turns.flat().find((message) => message.toolCallIds.includes(id));
  return byId?.content ?? turns.find((results) => results.length > index)?.[index]?.content;
}

/** How the refusal of `refused` showed, or `null` when nothing showed it. */
export function refusalSeen(
  restricted: Pick<RestrictedRun, "run" | "requests" | "refused" | "dialect">,
): { via: string; id: string | null; text: string } | null {
  const { requests, refused } = restricted;
  const observation = restricted.run.observation;
  const ids = new Set([
    callId(refused.index),
    ...observation.events.flatMap((event) =>
      event.kind === "tool_call" && (event as ToolCallEvent).name === refused.tool && event.id
        ? [event.id]
        : []
    ),
  ]);
  const streamed = observation.events.find((event): event is ToolResultEvent =>
    event.kind === "tool_result" && event.isError && event.id !== undefined && ids.has(event.id)
  );
  if (streamed) {
    return {
      via: "an error tool_result in the stream",
      id: streamed.id ?? null,
      text: textOf(streamed.output),
    };
  }
  const sentBack = resultSentBack(requests, refused.index);
  if (sentBack !== undefined) {
    return {
      via: "a tool result sent back to the model",
      id: callId(refused.index),
      text: sentBack.slice(0, 200),
    };
  }
  const ended = errorResult(restricted.run, restricted.dialect);
  if (ended !== null) {
    return { via: "the run's own error result, after the call", id: null, text: ended.slice(0, 200) };
  }
  return null;
}

/**
 * The reason of the run's own error result (the stream's error terminal, or a document path's result document
 * saying error), or `null` when it ended otherwise or said nothing.
 */
export function errorResult(run: CapabilityRun, dialect: string): string | null {
  const terminal = run.observation.events.findLast((event) => event.kind === "terminal");
  if (terminal?.kind === "terminal") {
    return terminal.status === "error" ? terminal.reason ?? terminal.result ?? terminal.status : null;
  }
  if (run.stdout.trim() === "") return null;
  try {
    const result = parseBlockingJson(dialect, run.stdout);
    return result.status === "error" ? result.reason ?? result.result ?? result.status : null;
  } catch {
    return null;
  }
}

/** Judges a restricted run (see the module doc). */
export function judgeRefused(restricted: RestrictedRun, turns: readonly string[], what: string): Outcome {
  const { run, requests, refused, control } = restricted;
  const observation = run.observation;
  const refusal = refused.landed ? null : refusalSeen(restricted);
  const info = {
    ...summarizeObservation(observation),
    mockTurns: turns,
    args: [...run.args],
    refusedCall: { ...refused, id: callId(refused.index) },
    control,
    toolsOffered: [...new Set(requests.flatMap((request) => request.tools))],
  };
  // The refusal may end the host non-zero: stopped runs, groups left and violations count here, the exit below.
  const must = processProblems(observation, false);
  if (!requests.some((request) => request.turn === "tool-call" && request.call === refused.index)) {
    must.push(`the model never got to ask for ${what} (turns [${turns}]; exit ${exitOf(observation)})`);
  } else if (refused.landed) {
    must.push(`${what} ran although it should have been refused: ${refused.shown} exists`);
  } else if (!refusal) {
    must.push(
      `no refusal of ${what} was observed: no error tool result in the stream, none sent back to the model, ` +
        `no error result (exit ${exitOf(observation)})`,
    );
  }
  if (!control.worked) must.push(`the run's control failed: ${control.what} (${control.seen})`);
  if (must.length > 0) return fail(must.join("; "), info);
  return passed({
    refusal: { call: callId(refused.index), tool: refused.tool, ...refusal! },
    notLanded: refused.shown,
    control: `${control.what}: ${control.seen}`,
    exitCode: observation.exitCode,
  }, info);
}

/** The control of a run whose first call reads the probe file: the probe's word came back to the model. */
export function probeControl(requests: readonly ScriptedRequest[], probeWord: string): RunControl {
  const result = resultSentBack(requests, 0);
  return {
    what: "the read of the probe file, which the restriction allows",
    worked: result?.includes(probeWord) ?? false,
    seen: result === undefined
      ? "no tool result came back"
      : `the tool result said ${quoteHostText(result, 120)}`,
  };
}

function textOf(output: unknown): string {
  return (typeof output === "string" ? output : JSON.stringify(output) ?? "").slice(0, 200);
}

function exitOf(observation: Observation): string {
  return String(observation.exitCode ?? `signal ${observation.signal}`);
}
