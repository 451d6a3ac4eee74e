/**
 * How the capability-behaviour tier judges a run: the process facts every run must meet, the tool round trip
 * (journal, stream order and ids, usage totals), and small readers of the journal and of the stream.
 *
 * @module
 */
import type { HostRunner } from "../../src/exec/host_runner.ts";
import type { ToolBehavior } from "../../src/exec/tool_behavior.ts";
import type { Observation } from "../../src/exec/observation.ts";
import type { NormalizedEvent, ToolCallEvent, ToolResultEvent } from "../../src/normalize/events.ts";
import { reportedUsage, type ScriptedRequest } from "../../src/mock_model/script.ts";
import { fail, type Outcome, warn } from "../../src/outcome.ts";
import { toolsOffered } from "./capability_run.ts";
import { quoteHostText } from "../../src/quote.ts";
import { passed } from "./evidence.ts";

/** What is wrong with how the process ran: spawn error, stopped, a non-zero exit, a group left, violations. */
export function processProblems(observation: Observation, exitMustBeZero = true): string[] {
  const must: string[] = [];
  if (observation.spawnError) must.push(observation.spawnError);
  if (observation.stopped) {
    must.push(`the run was stopped (${observation.stopped}) after ${observation.durationMs} ms`);
  } else if (exitMustBeZero && observation.exitCode !== 0) {
    must.push(`exit code ${observation.exitCode ?? `signal ${observation.signal}`}, expected 0`);
  }
  if (!observation.groupGone) must.push(`process group ${observation.pgid} still alive after the run`);
  for (const violation of observation.violations) must.push(violation.message);
  return must;
}

/** The usage the stream reports: the last `run`-scoped event when there is one, else the sum of `step`s. */
export function streamUsage(events: readonly NormalizedEvent[]): { input: number; output: number } | null {
  const usage = events.filter((event) => event.kind === "usage");
  if (usage.length === 0) return null;
  const run = usage.findLast((event) => event.scope === "run");
  if (run) return { input: run.input + run.cacheRead + run.cacheWrite, output: run.output };
  return usage.reduce(
    (sum, event) => ({
      input: sum.input + event.input + event.cacheRead + event.cacheWrite,
      output: sum.output + event.output,
    }),
    { input: 0, output: 0 },
  );
}

/** Whether any message of a journalled request carries `text`. */
export function carries(request: ScriptedRequest, text: string, roles?: readonly string[]): boolean {
  return request.messages.some((message) =>
    (!roles || roles.includes(message.role)) && message.content.includes(text)
  );
}

/** The tool results (role `tool`) the final-turn requests sent back. */
export function toolResultsSent(journal: readonly ScriptedRequest[]): ScriptedRequest[] {
  return journal.filter((request) =>
    request.turn === "final" && request.messages.some((m) => m.role === "tool")
  );
}

/** The first `tool_call` and the `tool_result` answering it (same id), with what is wrong with them. */
export function toolPair(events: readonly NormalizedEvent[]): {
  call?: ToolCallEvent;
  result?: ToolResultEvent;
  problems: string[];
} {
  const problems: string[] = [];
  const callAt = events.findIndex((event) => event.kind === "tool_call");
  const call = events[callAt] as ToolCallEvent | undefined;
  if (!call) return { problems: ["the stream has no tool_call event"] };
  if (!call.id) problems.push(`the tool_call of "${call.name}" carries no id`);
  const resultAt = events.findIndex((event, index) =>
    index > callAt && event.kind === "tool_result" && (event.id === call.id || !call.id)
  );
  const result = events[resultAt] as ToolResultEvent | undefined;
  if (!result) {
    const other = events.find((event) => event.kind === "tool_result") as ToolResultEvent | undefined;
    problems.push(
      other
        ? `the tool_result's id ${JSON.stringify(other.id)} is not the tool_call's ${JSON.stringify(call.id)}`
        : "no tool_result follows the tool_call",
    );
  }
  return { call, ...(result ? { result } : {}), problems };
}

/** The stream ends with exactly one terminal, last, with status success. */
export function terminalProblems(observation: Observation): string[] {
  const kinds = observation.kinds;
  const problems: string[] = [];
  const terminals = kinds.filter((kind) => kind === "terminal").length;
  if (terminals !== 1 || kinds.at(-1) !== "terminal") {
    problems.push(`expected exactly one terminal and it last, got ${terminals} in [${kinds.join(", ")}]`);
  }
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  if (terminal?.kind === "terminal" && terminal.status !== "success") {
    problems.push(
      `terminal status "${terminal.status}" (${terminal.reason ?? "no reason"}), expected "success"`,
    );
  }
  const unparsed = observation.events.filter((event) => event.kind === "unparsed");
  if (unparsed.length > 0) {
    problems.push(
      `${unparsed.length} unparsed line(s), first: ${quoteHostText(unparsed[0]?.raw ?? "", 200)}`,
    );
  }
  return problems;
}

/**
 * Judges `tool-round-trip` on a run and the model requests it made (`journal`): the first tool call's result
 * carries `nonce` back to the model, the stream pairs it, and the usage totals are the mock's over the run.
 */
export function judgeRoundTrip(
  runner: HostRunner,
  observation: Observation,
  journal: readonly ScriptedRequest[],
  nonce: string,
  info: Record<string, unknown>,
): Outcome {
  const must = processProblems(observation);
  if (!journal.some((request) => request.turn === "tool-call")) {
    must.push(
      `the model was never asked with tools declared (turns [${journal.map((request) => request.turn)}])`,
    );
  } else if (!toolResultsSent(journal).some((request) => carries(request, nonce, ["tool"]))) {
    must.push("the file's content never came back to the model as a tool result");
  }
  const pair = toolPair(observation.events);
  must.push(...pair.problems, ...terminalProblems(observation));
  const reported = reportedUsage(journal);
  const streamed = streamUsage(observation.events);
  const facts = {
    ...info,
    toolCall: pair.call ? { id: pair.call.id ?? null, name: pair.call.name } : null,
    toolResult: pair.result ? { id: pair.result.id ?? null, isError: pair.result.isError } : null,
    usageReported: reported,
    usageStreamed: streamed,
  };
  if (streamed && (streamed.input !== reported.input || streamed.output !== reported.output)) {
    must.push(
      `usage totals ${streamed.input} in / ${streamed.output} out, but the mock reported ${reported.input} in / ${reported.output} out over ${journal.length} request(s)`,
    );
  }
  if (pair.result?.isError) must.push("the tool_result is marked as an error");
  if (must.length > 0) return fail(must.join("; "), facts);
  if (!streamed) {
    return warn(`${runner.name}'s stream reports no usage, so the totals cannot be compared`, facts);
  }
  return passed({
    toolCall: facts.toolCall,
    toolResult: facts.toolResult,
    probeSentBack: nonce,
    usage: streamed,
    modelRequests: journal.length,
  }, facts);
}

/** The schema a structured-output run is given: one string field, which the model fills with a nonce. */
export const STRUCTURED_SCHEMA = JSON.stringify({
  type: "object",
  properties: { answer: { type: "string" } },
  required: ["answer"],
  additionalProperties: false,
});

/** What a host file says of its structured output (its `toolBehavior.structuredOutput`). */
export type StructuredDeclaration = NonNullable<ToolBehavior["structuredOutput"]>;

/**
 * The structured value a run returned: the document's (the host file's reader) on the blocking-JSON path, else
 * the stream's terminal event's; `undefined` when there is none.
 */
export function structuredValue(
  declared: StructuredDeclaration,
  document: boolean,
  stdout: string,
  observation: Observation,
): unknown {
  if (document) return declared.read(stdout);
  return observation.events.findLast((event) => event.kind === "terminal")?.structured;
}

/** The structured-output tools among those the requests offered: the declared one, or any so named. */
export function structuredToolsOffered(
  offered: readonly string[],
  declared?: StructuredDeclaration,
): string[] {
  return offered.filter((name) => name === declared?.tool || /structured.?output/i.test(name));
}

/**
 * Judges `structuredOutput-positive` on a run given {@linkcode STRUCTURED_SCHEMA} whose model called the
 * declared tool with `{answer: nonce}`: it ended cleanly, reached the model, was offered that tool, and
 * returned exactly that value.
 */
export function judgeStructured(
  declared: StructuredDeclaration,
  run: { readonly observation: Observation; readonly stdout: string },
  document: boolean,
  journal: readonly ScriptedRequest[],
  nonce: string,
  info: Record<string, unknown>,
): Outcome {
  const value = structuredValue(declared, document, run.stdout, run.observation);
  const offered = toolsOffered(journal);
  const structuredTools = structuredToolsOffered(offered, declared);
  const facts = { ...info, structured: value ?? null, structuredTools };
  const must = processProblems(run.observation);
  if (journal.every((request) => request.turn === "side")) must.push("the run never reached the model");
  if (!structuredTools.includes(declared.tool)) {
    must.push(`the schema'd request offered no "${declared.tool}" tool (offered [${offered.join(", ")}])`);
  }
  const answer = (value as { answer?: unknown } | undefined)?.answer;
  if (typeof value !== "object" || value === null || typeof answer !== "string") {
    must.push(`the result carries no structured value matching the schema: ${JSON.stringify(value)}`);
  } else if (answer !== nonce || Object.keys(value).length !== 1) {
    must.push(`the structured value ${JSON.stringify(value)} is not the model's {"answer":"${nonce}"}`);
  }
  if (must.length > 0) return fail(must.join("; "), facts);
  return passed({ structured: value, toolOffered: declared.tool }, facts);
}
