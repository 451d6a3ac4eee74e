/**
 * The capability-behaviour tier's session: one unrestricted run whose model reads a file, runs a shell command
 * and writes outside the working folder, then its resume and a fresh run. It serves every check that needs the
 * host as it is (no restriction added, none taken out): the tool round trip, the controls of the allow-list
 * and the workspace root, the permission bypass at work, the structured-output and agent controls, and both
 * sides of `resume`; the checks of `resume` and `agentSelect` are here. The checks that restrict the host run
 * on their own (suite/cli/capability_checks.ts).
 *
 * @module
 */
import type { GoldenPath } from "../../src/exec/host_runner.ts";
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
  exists,
  MARKER_FILE,
  PROBE_FILE,
  runCapability,
  runLimit,
  type Sandbox,
  sharedRun,
  stage,
  toolsOffered,
} from "./capability_run.ts";

const AGENT = "conformance-probe-agent";

/** What one of the unrestricted run's tool calls was meant to leave on disk, and whether it did. */
export interface SessionEffect {
  /** The call's index in the run's script (the journal's `call`). */
  readonly call: number;
  /** The file, with the sandbox's home shown as `$HOME`. */
  readonly shown: string;
  readonly landed: boolean;
}

/**
 * One sandbox, three runs in turn. The first is the host as it is, with the host's agent files (if any) in the
 * working folder but no agent selected and a code word in its prompt; its model asks for three tools one after
 * another: read a probe file in the working folder, run a shell command that writes a marker there, and write
 * a file in the home folder, outside the working folder. Then its resume and a fresh run, both answered with
 * text only, the fresh one on the host's document path where it has one. The words are the session's own, so
 * whichever check starts it, every check judges by the same.
 */
interface PlainSession {
  readonly promptWord: string;
  readonly agentWord: string;
  /** In the probe file the first run's model asks to read. */
  readonly probeWord: string;
  readonly first: { run: CapabilityRun; requests: readonly ScriptedRequest[] };
  /** The shell command's marker in the working folder. */
  readonly shell: SessionEffect;
  /** The write outside the working folder. */
  readonly writeOutside: SessionEffect;
  /** The run resumed after the first (absent without a resume path). */
  readonly resumed?: { run: CapabilityRun; requests: readonly ScriptedRequest[] };
  /**
   * A fresh run after that, with no schema: on the host's document path where it has one (the structured-output
   * control reads its result), else streaming.
   */
  readonly fresh: { run: CapabilityRun; requests: readonly ScriptedRequest[]; path: GoldenPath };
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

/** The first run's tool calls, in order: read the probe, the shell marker, the write outside the folder. */
export const SESSION_CALLS = { read: 0, shell: 1, writeOutside: 2 } as const;

export function plainSession(context: CheckContext): Promise<PlainSession> {
  const { runner, behavior } = context;
  return sharedRun(context.settings, `${runner.name} plain-session`, async () => {
    const promptWord = word();
    const agentWord = word();
    const probeWord = word();
    const { read, shell, write } = behavior.tools;
    await using staged = await stage((sandbox) => ({
      toolCalls: [
        { name: read.name, arguments: read.args({ path: `${sandbox.work}/${PROBE_FILE}` }) },
        {
          name: shell.name,
          arguments: shell.args({ command: `echo conformance > '${sandbox.work}/${MARKER_FILE}'` }),
        },
        { name: write.name, arguments: write.args({ path: `${sandbox.home}/${MARKER_FILE}`, content: "x" }) },
      ],
      finalText: "OK",
    }));
    const { sandbox, model } = staged;
    await Deno.writeTextFile(`${sandbox.work}/${PROBE_FILE}`, `conformance probe ${probeWord}\n`);
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
    const next = async (path: GoldenPath, prompt: string) => {
      const before = model.journal().length;
      const run = await runCapability({ ...base, path, request: { prompt } });
      return { run, requests: after(model.journal(), before) };
    };
    const first = await next(
      "streaming",
      `Remember the code word ${promptWord}. Read ${PROBE_FILE}, do what the task says, then reply OK.`,
    );
    const effect = async (call: number, path: string): Promise<SessionEffect> => ({
      call,
      shown: path.replace(sandbox.home, "$HOME"),
      landed: await exists(path),
    });
    const shellEffect = await effect(SESSION_CALLS.shell, `${sandbox.work}/${MARKER_FILE}`);
    const writeOutside = await effect(SESSION_CALLS.writeOutside, `${sandbox.home}/${MARKER_FILE}`);
    // The later runs are about the session, not the tools: text only, as cheap as a run gets.
    model.rescript({ finalText: "OK" });
    const resumed = runner.goldenPaths.includes("resume") ? await next("resume", "Reply OK.") : undefined;
    const freshPath = runner.goldenPaths.includes("blocking-json") ? "blocking-json" : "streaming";
    const fresh = { ...await next(freshPath, "Reply OK."), path: freshPath };
    return {
      promptWord,
      agentWord,
      probeWord,
      first,
      shell: shellEffect,
      writeOutside,
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
