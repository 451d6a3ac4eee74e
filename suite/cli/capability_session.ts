/**
 * The capability-behaviour checks that need no tool: `resume` and `agentSelect`, and the plain session they
 * share with the structured-output control (suite/cli/capability_checks.ts).
 *
 * @module
 */
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { ScriptedRequest } from "../../src/mock_model/script.ts";
import { fail, type Outcome, pass, skip } from "../../src/outcome.ts";
import { carries, processProblems } from "./capability_judge.ts";
import {
  after,
  type CapabilityRun,
  type Check,
  type CheckContext,
  details,
  runCapability,
  runLimit,
  type Sandbox,
  sharedRun,
  stage,
  toolsOffered,
} from "./capability_run.ts";

const AGENT = "conformance-probe-agent";

/**
 * One sandbox, three runs in turn, shared by the resume, agent-selection and structured-output controls: a
 * plain streaming run whose prompt carries a code word, with the host's agent files (if any) in the working
 * folder but no agent selected; its resume; then a fresh run. The words are the session's own, so whichever
 * check starts it, every check judges by the same words.
 */
interface PlainSession {
  readonly promptWord: string;
  readonly agentWord: string;
  readonly first: { run: CapabilityRun; requests: readonly ScriptedRequest[] };
  /** The run resumed after the first (absent without a resume path). */
  readonly resumed?: { run: CapabilityRun; requests: readonly ScriptedRequest[] };
  /** A fresh run after that. */
  readonly fresh: { run: CapabilityRun; requests: readonly ScriptedRequest[] };
  readonly turns: readonly string[];
  readonly offered: readonly string[];
}

function word(): string {
  return `cnf${crypto.randomUUID().slice(0, 8)}`;
}

/** Writes an agent's definition files (the host file's `agentFiles`) into the working folder. */
async function writeAgent(sandbox: Sandbox, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const path = `${sandbox.work}/${relative}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, content);
  }
}

function agentInstructions(agentWord: string): string {
  return `You are the conformance probe agent. Your code word is ${agentWord}.`;
}

export function plainSession(context: CheckContext): Promise<PlainSession> {
  const { runner, behavior } = context;
  return sharedRun(context.settings, `${runner.name} plain-session`, async () => {
    const promptWord = word();
    const agentWord = word();
    await using staged = await stage(() => ({ finalText: "OK" }));
    const { sandbox, model } = staged;
    if (behavior.agentFiles) {
      await writeAgent(sandbox, behavior.agentFiles(AGENT, agentInstructions(agentWord)));
    }
    const base = {
      runner,
      sandbox,
      model,
      wallTimeoutMs: runLimit(context),
      signal: context.settings.signal,
    };
    const next = async (path: "resume" | "streaming", prompt: string) => {
      const before = model.journal().length;
      const run = await runCapability({ ...base, path, request: { prompt } });
      return { run, requests: after(model.journal(), before) };
    };
    const first = await next("streaming", `Remember the code word ${promptWord}. Reply OK.`);
    const resumed = runner.goldenPaths.includes("resume") ? await next("resume", "Reply OK.") : undefined;
    const fresh = await next("streaming", "Reply OK.");
    return {
      promptWord,
      agentWord,
      first,
      ...(resumed ? { resumed } : {}),
      fresh,
      turns: model.journal().map((request) => request.turn),
      offered: toolsOffered(first.requests),
    };
  });
}

/** The first run's problems, or none: every check on the session needs it to have reached the model. */
export function firstRunFailure(session: PlainSession): Outcome | null {
  const problems = processProblems(session.first.run.observation);
  if (problems.length === 0 && session.first.requests.length > 0) return null;
  return fail(`the first run failed: ${problems.join("; ") || "it never called the model"}`, {
    ...summarizeObservation(session.first.run.observation),
    mockTurns: session.turns,
  });
}

export const resume: Check = async (context, positive) => {
  const session = await plainSession(context);
  const failure = firstRunFailure(session);
  if (failure) return failure;
  const second = positive ? session.resumed! : session.fresh;
  const later = second.requests;
  const carried = later.some((request) => carries(request, session.promptWord));
  const info = {
    ...summarizeObservation(second.run.observation),
    mockTurns: session.turns,
    secondRunRequests: later.length,
    carried,
  };
  const must = processProblems(second.run.observation);
  if (later.length === 0) must.push("the second run never called the model");
  else if (carried !== positive) {
    must.push(
      positive
        ? "the resumed run's model request does not carry the first session's messages"
        : "a fresh run's model request carries the earlier session's messages",
    );
  }
  return must.length > 0 ? fail(must.join("; "), info) : pass(info);
};

export const agentSelect: Check = async (context, positive) => {
  const { runner, behavior } = context;
  if (!behavior.agentFiles) return skip("no agent definition files declared in its host file");
  if (!positive) {
    // The control is the plain session's first run: the agent's files are there, no agent is selected.
    const session = await plainSession(context);
    const failure = firstRunFailure(session);
    if (failure) return failure;
    const carried = session.first.requests.some((request) => carries(request, session.agentWord));
    const info = {
      ...summarizeObservation(session.first.run.observation),
      mockTurns: session.turns,
      carried,
    };
    return carried
      ? fail("the agent's instructions reach the model although no agent was selected", info)
      : pass(info);
  }
  const agentWord = word();
  const files = behavior.agentFiles(AGENT, agentInstructions(agentWord));
  await using staged = await stage(() => ({ finalText: "OK" }));
  const { sandbox, model } = staged;
  await writeAgent(sandbox, files);
  const run = await runCapability({
    runner,
    path: "streaming",
    request: { prompt: "Reply OK.", agent: AGENT },
    sandbox,
    model,
    wallTimeoutMs: runLimit(context),
    signal: context.signal,
  });
  const reached = after(model.journal(), 0);
  const carried = reached.some((request) => carries(request, agentWord));
  const info = details(run.observation, model, { agentFiles: Object.keys(files), carried });
  const must = processProblems(run.observation);
  if (reached.length === 0) must.push("the run never called the model");
  else if (!carried) must.push("the selected agent's instructions do not reach the model request");
  return must.length > 0 ? fail(must.join("; "), info) : pass(info);
};
