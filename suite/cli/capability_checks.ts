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
import type { ScriptedToolCall } from "../../src/mock_model/script.ts";
import { fail, type Outcome, skip } from "../../src/outcome.ts";
import {
  judgeRoundTrip,
  judgeStructured,
  processProblems,
  STRUCTURED_SCHEMA,
  structuredToolsOffered,
} from "./capability_judge.ts";
import {
  callId,
  judgeRefused,
  probeControl,
  type RestrictedRun,
  resultSentBack,
  type RunControl,
} from "./capability_refusal.ts";
import {
  type CapabilityRun,
  type Check,
  type CheckContext,
  details,
  exists,
  MARKER_FILE,
  PROBE_FILE,
  runCapability,
  runLimit,
  type Sandbox,
  sharedRun,
  shellMarkerCall,
  stage,
  toolsOffered,
} from "./capability_run.ts";
import { firstRunFailure, plainSession, type SessionEffect, WRITE_FILE } from "./capability_session.ts";
import { agentSelect, resume } from "./capability_session_checks.ts";
import { passed } from "./evidence.ts";
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
  effect: SessionEffect,
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
  if (must.length > 0) return fail(must.join("; "), info);
  return passed({
    call: callId(effect.call),
    landed: effect.shown,
    toolResult: resultSentBack(requests, effect.call)?.slice(0, 160) ?? null,
  }, info);
}

/**
 * How a restricted scenario is run: its model asks for a control call the restriction allows, then for the
 * call it must refuse (suite/cli/capability_refusal.ts).
 */
interface RefusalScenario {
  /** Names the host run: scenarios with the same key are the same run (`sharedRun`). */
  readonly key: string;
  /** The control call and the call to refuse, given the sandbox. */
  readonly calls: (sandbox: Sandbox) => readonly [ScriptedToolCall, ScriptedToolCall];
  /** The tool of the call to refuse. */
  readonly tool: string;
  /** The file the refused call would create. */
  readonly effect: (sandbox: Sandbox) => string;
  /** Whether the control worked, and what was seen of it. */
  readonly control: (
    sandbox: Sandbox,
    requests: readonly ScriptedRequest[],
    probeWord: string,
  ) => Promise<RunControl>;
  readonly request: (sandbox: Sandbox) => { tools?: readonly string[]; workspaceRoot?: string };
  readonly what: string;
}

/** Runs a restricted scenario (once per key and run) and judges it. */
async function refusal(context: CheckContext, scenario: RefusalScenario): Promise<Outcome> {
  const { runner } = context;
  const key = `${runner.name} refusal ${scenario.key}`;
  const { restricted, turns } = await sharedRun(context.settings, key, async () => {
    await using staged = await stage((sandbox) => ({
      toolCalls: scenario.calls(sandbox),
      finalText: "DONE",
    }));
    const { sandbox, model } = staged;
    const probeWord = `cnf${crypto.randomUUID().slice(0, 8)}`;
    await Deno.writeTextFile(`${sandbox.work}/${PROBE_FILE}`, `conformance probe ${probeWord}\n`);
    await Deno.mkdir(`${sandbox.home}/${ROOT_FOLDER}`);
    const target = scenario.effect(sandbox);
    const run = await runCapability({
      runner,
      path: "streaming",
      request: { prompt: `Do what the task says, then reply DONE.`, ...scenario.request(sandbox) },
      sandbox,
      model,
      // The same limit for a run meant to be refused: a slow host (opencode under load takes over a minute)
      // must not pass for a hanging one; past it the host is left asking (stdin is closed), a TIMEOUT-like FAIL.
      wallTimeoutMs: runLimit(context),
      signal: context.settings.signal,
    });
    const requests = model.journal();
    const restricted: RestrictedRun = {
      run,
      dialect: runner.dialect,
      requests,
      refused: {
        index: 1,
        tool: scenario.tool,
        shown: target.replace(sandbox.home, "$HOME"),
        landed: await exists(target),
      },
      control: await scenario.control(sandbox, requests, probeWord),
    };
    return { restricted, turns: requests.map((request) => request.turn) };
  });
  return judgeRefused(restricted, turns, scenario.what);
}

/** The folder a workspace-root run confines writes to: in the sandbox's HOME, not the working folder. */
const ROOT_FOLDER = "conformance-root";

/**
 * What came back to the model in place of the tool's effect: the result answering the script's call `call`,
 * else the last tool result of a final turn.
 */
function resultWords(run: CapabilityRun, journal: readonly ScriptedRequest[], call = 0): string {
  const result = resultSentBack(journal, call) ??
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
  return judgeRefused(session.unbypassed, session.turns, "a shell command without the permission bypass");
};

/**
 * `toolAllowlist-positive` judged on the session's resume that allowed only the read tool, or `null` when that
 * run cannot say: there is none, it still offered the shell tool (the allow-list did not reach the tool list),
 * or the refusal did not pass there (the shell command ran, or was never asked for, or the host did not end on
 * its own). The check then runs on its own, so a failure is never the resume's.
 */
async function allowListOnResume(context: CheckContext, what: string): Promise<Outcome | null> {
  if (!context.runner.goldenPaths.includes("resume")) return null;
  const session = await plainSession(context);
  const resumed = session.resumedWithAllowList;
  if (!resumed) return null;
  if (toolsOffered(resumed.requests).includes(context.behavior.tools.shell.name)) return null;
  const outcome = judgeRefused(resumed, session.turns, what);
  if (outcome.status !== "PASS") return null;
  const observed = { ...outcome.details?.observed as Record<string, unknown>, run: "the session's resume" };
  return {
    ...outcome,
    details: { ...outcome.details, observed, run: "the session's resume, allowing only the read tool" },
  };
}

const toolAllowlist: Check = async (context, positive) => {
  const { read, shell } = context.behavior.tools;
  const what = `the shell tool outside an allow-list of only "${read.name}"`;
  if (!positive) {
    return await sessionEffect(context, (session) => session.shell, "the shell tool with no allow-list");
  }
  return await allowListOnResume(context, what) ?? await refusal(context, {
    key: `shell-marker tools=${read.name}`,
    calls: (sandbox) => [
      { name: read.name, arguments: read.args({ path: `${sandbox.work}/${PROBE_FILE}` }) },
      shellMarkerCall(context.behavior, sandbox, MARKER_FILE),
    ],
    tool: shell.name,
    effect: (sandbox) => `${sandbox.work}/${MARKER_FILE}`,
    control: (_sandbox, requests, probeWord) => Promise.resolve(probeControl(requests, probeWord)),
    request: () => ({ tools: [read.name] }),
    what,
  });
};

/**
 * The root is a folder of its own in HOME, not the working folder, and the write to refuse targets the working
 * folder: a host that confines writes to its working folder anyway cannot pass by that, and the control (the
 * session's first run, the same argv without the root) writes the same file there.
 */
const workspaceSandboxed: Check = (context, positive) => {
  const { write } = context.behavior.tools;
  const call = (path: string) => ({ name: write.name, arguments: write.args({ path, content: "x" }) });
  const inside = (sandbox: Sandbox) => `${sandbox.home}/${ROOT_FOLDER}/${WRITE_FILE}`;
  return positive
    ? refusal(context, {
      key: "write-outside root=home-folder",
      calls: (sandbox) => [call(inside(sandbox)), call(`${sandbox.work}/${WRITE_FILE}`)],
      tool: write.name,
      effect: (sandbox) => `${sandbox.work}/${WRITE_FILE}`,
      control: async (sandbox) => {
        const landed = await exists(inside(sandbox));
        return {
          what: "a write inside the workspace root",
          worked: landed,
          seen: `${inside(sandbox).replace(sandbox.home, "$HOME")} ${landed ? "exists" : "does not exist"}`,
        };
      },
      request: (sandbox) => ({ workspaceRoot: `${sandbox.home}/${ROOT_FOLDER}` }),
      what: "a write outside the workspace root",
    })
    : sessionEffect(
      context,
      (session) => session.write,
      "a write in the working folder with no workspace root set",
    );
};

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
    if (must.length > 0) return fail(must.join("; "), info);
    return passed({
      toolsOffered: toolsOffered(requests),
      structuredTools: [],
      ...(document ? { documentWithoutStructuredValue: true } : {}),
      modelRequests: requests.length,
    }, info);
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
