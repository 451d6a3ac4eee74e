/**
 * The checks of the capability-behaviour tier (`suite/cli/capability_behavior.ts`), one per flag, each taking
 * the direction it runs in. The restricted directions of the allow-list, the workspace root and the schema, and
 * a selected agent the resume could not judge, are host runs of their own; the unrestricted directions, the
 * tool round trip and the bypass taken out are judged on the session's runs (suite/cli/capability_session.ts),
 * whose first model asks for every tool in turn. Every check also demands that it observed something: the model
 * asked for the tool (or, for resume and agent selection, the run reached the model at all).
 *
 * @module
 */
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { ScriptedRequest } from "../../src/mock_model/script.ts";
import { fail, type Outcome, pass, skip } from "../../src/outcome.ts";
import {
  judgeRoundTrip,
  judgeStructured,
  processProblems,
  STRUCTURED_SCHEMA,
  structuredToolsOffered,
} from "./capability_judge.ts";
import {
  type CapabilityRun,
  type Check,
  type CheckContext,
  details,
  exists,
  MARKER_FILE,
  runCapability,
  runLimit,
  type Sandbox,
  sharedRun,
  shellMarkerCall,
  stage,
  toolsOffered,
} from "./capability_run.ts";
import {
  agentSelect,
  firstRunFailure,
  plainSession,
  resume,
  type SessionEffect,
} from "./capability_session.ts";
import { quoteHostText } from "../../src/quote.ts";

export type { CheckContext };

/** The capabilities the tier proves, by their `cli/capabilities/` flag names (and `resume`). */
export const BEHAVIOR_FLAGS = [
  "permissionSkip",
  "toolAllowlist",
  "workspaceSandboxed",
  "structuredOutput",
  "resume",
  "agentSelect",
] as const;

/** One of {@linkcode BEHAVIOR_FLAGS}. */
export type BehaviorFlag = typeof BEHAVIOR_FLAGS[number];

/** `tool-round-trip`: the session's first run, whose model reads the probe file first. */
export async function toolRoundTrip(context: CheckContext): Promise<Outcome> {
  const session = await plainSession(context);
  const { observation } = session.first.run;
  return judgeRoundTrip(context.runner, observation, session.first.requests, session.probeWord, {
    ...summarizeObservation(observation),
    mockTurns: session.turns,
  });
}

/** What a tool-effect check reports of its run, whatever its verdict. */
function effectInfo(
  run: CapabilityRun,
  requests: readonly ScriptedRequest[],
  turns: readonly string[],
  effect: { shown: string; landed: boolean },
) {
  return {
    ...summarizeObservation(run.observation),
    mockTurns: turns,
    args: [...run.args],
    effect: effect.shown,
    landed: effect.landed,
    toolsOffered: toolsOffered(requests),
  };
}

/** Judges a tool effect of the session's unrestricted first run, which must land. */
async function sessionEffect(
  context: CheckContext,
  pick: (session: Awaited<ReturnType<typeof plainSession>>) => SessionEffect,
  what: string,
): Promise<Outcome> {
  const session = await plainSession(context);
  const { run, requests } = session.first;
  const effect = pick(session);
  const info = effectInfo(run, requests, session.turns, effect);
  const must = processProblems(run.observation);
  if (!requests.some((request) => request.turn === "tool-call" && request.call === effect.call)) {
    must.push(`the model never got to ask for ${what} (turns [${session.turns}])`);
  } else if (!effect.landed) {
    must.push(`${what} was requested but did not run (${resultWords(run, requests, effect.call)})`);
  }
  return must.length > 0 ? fail(must.join("; "), info) : pass(info);
}

/** How a restricted tool-effect scenario is run, and where the effect it must not have would land. */
interface EffectScenario {
  /** Names the host run: scenarios with the same key are the same run (`sharedRun`). */
  readonly key: string;
  /** The tool call, given the sandbox. */
  readonly call: (sandbox: Sandbox) => { name: string; arguments: Record<string, unknown> };
  /** The file the tool would create. */
  readonly effect: (sandbox: Sandbox) => string;
  readonly request: (sandbox: Sandbox) => { tools?: readonly string[]; workspaceRoot?: string };
  readonly what: string;
}

/** Runs a restricted scenario (once per key and run) and judges it: its effect must not land. */
async function effect(context: CheckContext, scenario: EffectScenario): Promise<Outcome> {
  const { runner } = context;
  const key = `${runner.name} effect ${scenario.key}`;
  const { run, journal, landed, shown, turns } = await sharedRun(context.settings, key, async () => {
    await using staged = await stage((sandbox) => {
      const call = scenario.call(sandbox);
      return { toolCall: { name: call.name, arguments: call.arguments }, finalText: "DONE" };
    });
    const { sandbox, model } = staged;
    const target = scenario.effect(sandbox);
    const restricted = scenario.request(sandbox);
    const run = await runCapability({
      runner,
      path: "streaming",
      request: { prompt: `Do what the task says, then reply DONE.`, ...restricted },
      sandbox,
      model,
      // The same limit for a run meant to be refused: a slow host (opencode under load takes over a minute)
      // must not pass for a hanging one; past it the host is left asking (stdin is closed), a TIMEOUT-like FAIL.
      wallTimeoutMs: runLimit(context),
      signal: context.settings.signal,
    });
    const journal = model.journal();
    return {
      run,
      journal,
      landed: await exists(target),
      shown: target.replace(sandbox.home, "$HOME"),
      turns: journal.map((request) => request.turn),
    };
  });
  return judgeRefused(run, journal, turns, { shown, landed }, scenario.what);
}

/** Judges a restricted run: the model asked for the tool, its effect did not land, the host ended on its own. */
function judgeRefused(
  run: CapabilityRun,
  requests: readonly ScriptedRequest[],
  turns: readonly string[],
  effect: { shown: string; landed: boolean },
  what: string,
): Outcome {
  const info = effectInfo(run, requests, turns, effect);
  // The restriction may make the host exit non-zero: only stopped runs, groups left and violations count.
  const must = processProblems(run.observation, false);
  if (!requests.some((request) => request.turn === "tool-call")) {
    must.push(`the model was never asked with tools declared, so ${what} was never requested`);
  } else if (effect.landed) {
    must.push(`${what} ran although it should have been refused: ${effect.shown} exists`);
  }
  return must.length > 0 ? fail(must.join("; "), info) : pass(info);
}

/**
 * What came back to the model in place of the tool's effect: the result answering the script's call `call`
 * (its id is `call_conformance_<call + 1>`), else the last tool result of a final turn.
 */
function resultWords(run: CapabilityRun, journal: readonly ScriptedRequest[], call = 0): string {
  const id = `call_conformance_${call + 1}`;
  const tools = journal.flatMap((request) => request.messages.filter((message) => message.role === "tool"));
  const result = tools.find((message) => message.toolCallIds.includes(id))?.content ??
    journal.flatMap((request) =>
      request.turn === "final" ? request.messages.filter((message) => message.role === "tool") : []
    ).at(-1)?.content;
  if (result !== undefined) return `the tool result said ${quoteHostText(result)}`;
  return `no tool result came back; exit ${run.observation.exitCode ?? run.observation.signal}`;
}

// Both directions of the bypass are the session's (suite/cli/capability_session.ts): the first run has it, the
// fresh run has it taken out. The allow-list's and the root's restricted directions run on their own, with the
// session's first run as their control.
const permissionSkip: Check = async (context, positive) => {
  if (positive) {
    return await sessionEffect(
      context,
      (session) => session.shell,
      "a shell command with the permission bypass on",
    );
  }
  const session = await plainSession(context);
  const { run, requests, effect } = session.unbypassed;
  return judgeRefused(run, requests, session.turns, effect, "a shell command without the permission bypass");
};

/**
 * `toolAllowlist-positive` judged on the session's resume that allowed only the read tool, or `null` when that
 * run cannot say: there is none, or the refusal did not pass there (the shell command ran, or was never asked
 * for, or the host did not end on its own). The check then runs on its own, so a failure is never the resume's.
 */
async function allowListOnResume(context: CheckContext, what: string): Promise<Outcome | null> {
  if (!context.runner.goldenPaths.includes("resume")) return null;
  const session = await plainSession(context);
  const resumed = session.resumedWithAllowList;
  if (!resumed) return null;
  const outcome = judgeRefused(resumed.run, resumed.requests, session.turns, resumed.effect, what);
  if (outcome.status !== "PASS") return null;
  return {
    ...outcome,
    details: { ...outcome.details, run: "the session's resume, allowing only the read tool" },
  };
}

const toolAllowlist: Check = async (context, positive) => {
  const what = `the shell tool outside an allow-list of only "${context.behavior.tools.read.name}"`;
  if (!positive) {
    return await sessionEffect(context, (session) => session.shell, "the shell tool with no allow-list");
  }
  return await allowListOnResume(context, what) ?? await effect(context, {
    key: `shell-marker tools=${context.behavior.tools.read.name}`,
    call: (sandbox) => shellMarkerCall(context.behavior, sandbox, MARKER_FILE),
    effect: (sandbox) => `${sandbox.work}/${MARKER_FILE}`,
    request: () => ({ tools: [context.behavior.tools.read.name] }),
    what,
  });
};

const workspaceSandboxed: Check = (context, positive) =>
  positive
    ? effect(context, {
      key: "write-outside root=work",
      call: (sandbox) => {
        const write = context.behavior.tools.write;
        return {
          name: write.name,
          arguments: write.args({ path: `${sandbox.home}/${MARKER_FILE}`, content: "x" }),
        };
      },
      effect: (sandbox) => `${sandbox.home}/${MARKER_FILE}`,
      request: (sandbox) => ({ workspaceRoot: sandbox.work }),
      what: "a write outside the workspace root",
    })
    : sessionEffect(
      context,
      (session) => session.writeOutside,
      "a write outside the working folder with no workspace root set",
    );

/**
 * `structuredOutput-positive` judged on the session's resume that was given the schema, or `null` when that run
 * cannot say: there is none, or the check does not pass there. The check then runs on its own, so a failure is
 * never the resume's.
 */
async function schemaOnResume(context: CheckContext): Promise<Outcome | null> {
  const declared = context.behavior.structuredOutput;
  if (!declared || !context.runner.goldenPaths.includes("resume")) return null;
  const session = await plainSession(context);
  const resumed = session.resumedWithSchema;
  if (!resumed) return null;
  const outcome = judgeStructured(declared, resumed.run, false, resumed.requests, session.schemaWord, {
    ...summarizeObservation(resumed.run.observation),
    mockTurns: session.turns,
    path: "resume",
    run: "the session's resume, given the schema",
    args: [...resumed.run.args],
  });
  return outcome.status === "PASS" ? outcome : null;
}

const structuredOutput: Check = async (context, positive) => {
  const { runner, behavior, nonce } = context;
  const declared = behavior.structuredOutput;
  if (positive && !declared) return skip("no structured-output tool declared in its host file");
  const path = runner.goldenPaths.includes("blocking-json") ? "blocking-json" : "streaming";
  if (!positive) {
    // The control is the session's: no schema, so no structured-output tool offered (the first run and the
    // fresh run; a resume may carry the schema) and, on a document path, no structured value in the fresh run.
    const session = await plainSession(context);
    const failure = firstRunFailure(session);
    if (failure) return failure;
    const document = session.fresh.path === "blocking-json";
    const requests = [...session.first.requests, ...session.fresh.requests];
    const structuredTools = structuredToolsOffered(toolsOffered(requests), declared);
    const value = document && declared ? declared.read(session.fresh.run.stdout) : undefined;
    const judged = document ? session.fresh.run.observation : session.first.run.observation;
    const info = { ...summarizeObservation(judged), path, structured: value ?? null, structuredTools };
    const must = document ? processProblems(judged) : [];
    if (document && session.fresh.requests.length === 0) {
      must.push("the document run never reached the model");
    }
    if (structuredTools.length > 0) {
      must.push(`a structured-output tool was offered with no schema: ${structuredTools}`);
    }
    if (value !== undefined) {
      must.push(`a structured value came back with no schema: ${JSON.stringify(value)}`);
    }
    return must.length > 0 ? fail(must.join("; "), info) : pass(info);
  }
  const merged = await schemaOnResume(context);
  if (merged) return merged;
  await using staged = await stage(() => ({
    toolCall: { name: declared!.tool, arguments: { answer: nonce } },
    finalText: "DONE",
  }));
  const { sandbox, model } = staged;
  const run = await runCapability({
    runner,
    path,
    request: { prompt: "Answer with the code word.", jsonSchema: STRUCTURED_SCHEMA },
    sandbox,
    model,
    wallTimeoutMs: runLimit(context),
    signal: context.signal,
  });
  return judgeStructured(declared!, run, path === "blocking-json", model.journal(), nonce, {
    ...details(run.observation, model),
    path,
  });
};

/** Every flag's check. */
export const CHECKS: Readonly<Record<BehaviorFlag, Check>> = {
  permissionSkip,
  toolAllowlist,
  workspaceSandboxed,
  structuredOutput,
  resume,
  agentSelect,
};
