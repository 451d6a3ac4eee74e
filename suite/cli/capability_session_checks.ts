/**
 * The checks of `resume` and `agentSelect`, judged on the capability-behaviour session
 * (suite/cli/capability_session.ts): the resume and a fresh run look for the first run's code word in their own
 * model requests; the agent's word must reach the model only when the agent is selected. Each PASS names the
 * word it found (or did not find) and the run it looked in.
 *
 * @module
 */
import { summarizeObservation } from "../../src/exec/observation.ts";
import { fail, type Outcome, skip } from "../../src/outcome.ts";
import { carries, processProblems } from "./capability_judge.ts";
import {
  after,
  type Check,
  type CheckContext,
  details,
  runCapability,
  runLimit,
  stage,
} from "./capability_run.ts";
import {
  AGENT,
  agentInstructions,
  firstRunFailure,
  plainSession,
  word,
  writeAgent,
} from "./capability_session.ts";
import { passed } from "./evidence.ts";

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
  if (must.length > 0) return fail(must.join("; "), info);
  return passed({
    run: positive ? "the session's resume" : "the session's fresh run",
    modelRequests: later.length,
    [positive ? "carriedWord" : "absentWord"]: session.promptWord,
  }, info);
};

/**
 * `agentSelect-positive` judged on the session's run that selected the agent (its resume, or else its fresh
 * run), or `null` when no run can say (there is none, the first run failed, or its unselected request already
 * carried the agent's word): the check then runs on its own. A run that selected the agent but did not carry
 * its word is not judged either: that path may drop what a plain run keeps, so the check's own run decides.
 */
async function agentOnSession(context: CheckContext): Promise<Outcome | null> {
  const session = await plainSession(context);
  if (firstRunFailure(session)) return null;
  if (session.first.requests.some((request) => carries(request, session.agentWord))) return null;
  const runs = [
    [session.resumedWithAgent, "the session's resume, with the agent selected"],
    [session.freshWithAgent, "the session's fresh run without the bypass, with the agent selected"],
  ] as const;
  for (const [selected, label] of runs) {
    if (!selected?.requests.some((request) => carries(request, session.agentWord))) continue;
    return passed({ run: label, agent: AGENT, carriedWord: session.agentWord }, {
      ...summarizeObservation(selected.run.observation),
      mockTurns: session.turns,
      run: label,
      args: [...selected.run.args],
      carried: true,
    });
  }
  return null;
}

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
    if (carried) return fail("the agent's instructions reach the model although no agent was selected", info);
    return passed({
      run: "the session's first run, the agent's files present, none selected",
      modelRequests: session.first.requests.length,
      absentWord: session.agentWord,
    }, info);
  }
  const merged = await agentOnSession(context);
  if (merged) return merged;
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
  if (must.length > 0) return fail(must.join("; "), info);
  return passed({ run: "its own run, the agent selected", agent: AGENT, carriedWord: agentWord }, info);
};
