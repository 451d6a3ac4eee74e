/**
 * The capability-behaviour tier's session: one unrestricted run whose model reads a file, runs a shell command
 * and writes a file, then its resume and a fresh run without the permission bypass. It
 * serves every check that needs the host as it is: the tool round trip, the controls of the allow-list and the
 * workspace root, the permission bypass at work and taken out, the structured-output and agent controls, both
 * sides of `resume` and, where the host keeps them on resume, the allow-list, the agent selected or the schema
 * (the checks of `resume` and `agentSelect` are suite/cli/capability_session_checks.ts). The other
 * restrictions run on their own (suite/cli/capability_checks.ts). Every restricted run of the session asks for
 * the read of the probe file first, its control, then for the call it must refuse (suite/cli/capability_refusal.ts).
 *
 * @module
 */
import type { GoldenPath, HostRunner, InvocationRequest } from "../../src/exec/host_runner.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { ScriptedRequest } from "../../src/mock_model/script.ts";
import { fail, type Outcome } from "../../src/outcome.ts";
import { carries, processProblems, STRUCTURED_SCHEMA } from "./capability_judge.ts";
import { probeControl, type RestrictedRun } from "./capability_refusal.ts";
import {
  after,
  type CapabilityRun,
  type CheckContext,
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

/** The name of the agent the session's files define. */
export const AGENT = "conformance-probe-agent";

/** What one of the unrestricted run's tool calls was meant to leave on disk, and whether it did. */
export interface SessionEffect {
  /** The call's index in the run's script (the journal's `call`). */
  readonly call: number;
  /** The file, with the sandbox's home shown as `$HOME`. */
  readonly shown: string;
  readonly landed: boolean;
}

/** One run of the session: what it ran and printed, and what the model got from it. */
export interface SessionRun {
  readonly run: CapabilityRun;
  readonly requests: readonly ScriptedRequest[];
}

/**
 * One sandbox, three runs in turn (a fourth or fifth only when a combined run was not clean or could not say,
 * see below). The first is the host as it is, with the host's agent files (if any) in the working folder but
 * no agent selected and a code word in its prompt; its model asks for three tools one after another: read a
 * probe file in the working folder, run a shell command that writes a marker there, and write a file there
 * (the control of the workspace root, whose refused write targets the working folder too). Then its resume,
 * text only, and a fresh run with the permission bypass taken out, on the host's document path where it has
 * one, whose model asks for the probe's read (its control) and a shell command writing a second marker. The
 * words are the session's own, so whichever check starts it, every check judges by the same.
 *
 * Two runs serve more than one check each, and only where no check can pass by another's doing: each carries
 * at most one refusal, and the other checks look for something that must be present, or absent for reasons
 * the refusal does not touch.
 * - Where the host keeps an allow-list on resume, the resume allows only the read tool and its model asks for
 *   a shell command: `toolAllowlist-positive` is that refusal, which a resume cannot make (it restricts no
 *   tool), and `resume` looks for the first run's code word in its request. Else, where the host keeps an
 *   agent selection on resume, the resume selects the agent: `agentSelect` looks for the agent's word, which
 *   cannot appear by the resume's doing (it is judged only when the first run, unselected, did not carry it).
 *   Else, where the host takes a schema on resume, the resume is given the schema and its model answers through
 *   the structured-output tool: `structuredOutput-positive` looks for the value, which only the schema can
 *   bring. (One of the three at most: an agent may restrict tools itself, and so might a schema.) When the
 *   resume is not clean (it did not end cleanly or did not carry the first run), `resume` gets a resume of its
 *   own, and the other check its own run (the check's); so does the other check whenever it does not pass on
 *   the resume, so that what it finds is never the resume's doing.
 * - The fresh run is the permission bypass's refusal (`permissionSkip-negative`) and the control of `resume`
 *   (a new session must not carry the first) and of `structuredOutput` (no schema, no structured value): taking
 *   the bypass out changes neither what a new session remembers nor whether a schema was given. Its refusal may
 *   end the host non-zero or stopped; the controls then judge a clean fresh run of their own.
 * - Where the resume did not carry the agent and the fresh run's path keeps one, the fresh run selects it too:
 *   `agentSelect-positive` looks for the agent's word, which the bypass taken out cannot bring. The refusal is
 *   judged there only when the shell command ran anyway (no agent makes a refused tool run); when it was
 *   refused, which the agent may have done, the bypass taken out gets a run of its own without the agent.
 */
interface PlainSession {
  readonly promptWord: string;
  readonly agentWord: string;
  /** In the probe file the first run's model asks to read. */
  readonly probeWord: string;
  readonly first: SessionRun;
  /** The shell command's marker in the working folder. */
  readonly shell: SessionEffect;
  /** The write tool's file in the working folder. */
  readonly write: SessionEffect;
  /** The resume `resume` judges (absent without a resume path). */
  readonly resumed?: SessionRun;
  /** The resume that selected the agent, when it was clean for `resume` (see above); else absent. */
  readonly resumedWithAgent?: SessionRun;
  /**
   * The fresh run without the bypass that selected the agent (see above), where the resume did not carry it and
   * the fresh run's path keeps it; else absent.
   */
  readonly freshWithAgent?: SessionRun;
  /** The resume given the schema, when it was clean for `resume`; else absent. */
  readonly resumedWithSchema?: SessionRun;
  /** What the model of the resume given the schema answers through the structured-output tool. */
  readonly schemaWord: string;
  /** The resume restricted to the read tool, its shell call refused, when it was clean for `resume`; else absent. */
  readonly resumedWithAllowList?: RestrictedRun;
  /** The fresh run without the permission bypass, whose shell call must be refused. */
  readonly unbypassed: RestrictedRun;
  /**
   * The fresh run the controls judge, with no schema: on the host's document path where it has one (the
   * structured-output control reads its result), else streaming. The unbypassed run where it ended cleanly.
   */
  readonly fresh: SessionRun & { readonly path: GoldenPath };
  readonly turns: readonly string[];
  readonly offered: readonly string[];
}

/** A word unique to one session or run. */
export function word(): string {
  return `cnf${crypto.randomUUID().slice(0, 8)}`;
}

/** Writes an agent's definition files (the host file's `agentFiles`) into the working folder. */
export async function writeAgent(sandbox: Sandbox, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const path = `${sandbox.work}/${relative}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, content);
  }
}

/** The instructions of the probe agent, carrying its word. */
export function agentInstructions(agentWord: string): string {
  return `You are the conformance probe agent. Your code word is ${agentWord}.`;
}

/** The first run's tool calls, in order: read the probe, the shell marker, the write. */
export const SESSION_CALLS = { read: 0, shell: 1, write: 2 } as const;

/** The file the first run's write tool writes in the working folder. */
export const WRITE_FILE = "conformance-write.txt";

/** The marker the unbypassed fresh run's shell command would write (the first run's is `MARKER_FILE`). */
export const UNBYPASSED_MARKER = "conformance-marker-unbypassed.txt";

/** The marker the resume's shell command would write when the resume carries the allow-list. */
export const ALLOWLIST_MARKER = "conformance-marker-allowlist.txt";

/** Whether the host's invocation on `path` keeps `extra` (its argv changes with it, and builds). */
function keepsOn(
  runner: HostRunner,
  path: GoldenPath,
  workingDir: string,
  extra: Partial<InvocationRequest>,
): boolean {
  const argv = (more: Partial<InvocationRequest>) =>
    JSON.stringify(runner.build(path, { prompt: "Reply OK.", workingDir, ...more }).args);
  try {
    return argv(extra) !== argv({});
  } catch {
    return false;
  }
}

export function plainSession(context: CheckContext): Promise<PlainSession> {
  const { runner, behavior } = context;
  return sharedRun(context.settings, `${runner.name} plain-session`, async () => {
    const promptWord = word();
    const agentWord = word();
    const probeWord = word();
    const schemaWord = word();
    const { read, write } = behavior.tools;
    await using staged = await stage((sandbox) => ({
      toolCalls: [
        { name: read.name, arguments: read.args({ path: `${sandbox.work}/${PROBE_FILE}` }) },
        shellMarkerCall(behavior, sandbox, MARKER_FILE),
        { name: write.name, arguments: write.args({ path: `${sandbox.work}/${WRITE_FILE}`, content: "x" }) },
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
    const next = async (path: GoldenPath, request: InvocationRequest, without?: readonly string[]) => {
      const before = model.journal().length;
      const run = await runCapability({ ...base, path, request, ...(without?.length ? { without } : {}) });
      return { run, requests: after(model.journal(), before) };
    };
    const first = await next("streaming", {
      prompt:
        `Remember the code word ${promptWord}. Read ${PROBE_FILE}, do what the task says, then reply OK.`,
    });
    const effect = async (call: number, path: string): Promise<SessionEffect> => ({
      call,
      shown: path.replace(sandbox.home, "$HOME"),
      landed: await exists(path),
    });
    const shellEffect = await effect(SESSION_CALLS.shell, `${sandbox.work}/${MARKER_FILE}`);
    const writeEffect = await effect(SESSION_CALLS.write, `${sandbox.work}/${WRITE_FILE}`);
    const readProbe = { name: read.name, arguments: read.args({ path: `${sandbox.work}/${PROBE_FILE}` }) };
    /** A restricted run's verdict inputs: its probe read is the control, its call 1 the one to refuse. */
    const restricted = async (run: SessionRun, marker: string): Promise<RestrictedRun> => {
      const landed = await effect(1, `${sandbox.work}/${marker}`);
      return {
        ...run,
        dialect: runner.dialect,
        refused: { index: 1, tool: behavior.tools.shell.name, shown: landed.shown, landed: landed.landed },
        control: probeControl(run.requests, probeWord),
      };
    };
    // The resume is about the session: text only, unless it carries the allow-list (see PlainSession).
    model.rescript({ finalText: "OK" });
    let resumed: SessionRun | undefined;
    let resumedWithAgent: SessionRun | undefined;
    let resumedWithAllowList: RestrictedRun | undefined;
    let resumedWithSchema: SessionRun | undefined;
    let extra: "allow-list" | "agent" | "schema" | null = null;
    const agentSelectable = behavior.agentFiles !== undefined && runner.capabilities.agentSelect;
    if (runner.goldenPaths.includes("resume")) {
      const allowed = [read.name];
      const keeps = (more: Partial<InvocationRequest>) => keepsOn(runner, "resume", sandbox.work, more);
      const declared = behavior.structuredOutput;
      extra = runner.capabilities.toolAllowlist && keeps({ tools: allowed })
        ? "allow-list"
        : agentSelectable && keeps({ agent: AGENT })
        ? "agent"
        : declared && runner.capabilities.structuredOutput && keeps({ jsonSchema: STRUCTURED_SCHEMA })
        ? "schema"
        : null;
      if (extra === "allow-list") {
        model.rescript({
          toolCalls: [readProbe, shellMarkerCall(behavior, sandbox, ALLOWLIST_MARKER)],
          finalText: "OK",
        });
      } else if (extra === "schema") {
        model.rescript({
          toolCall: { name: declared!.tool, arguments: { answer: schemaWord } },
          finalText: "DONE",
        });
      }
      resumed = await next(
        "resume",
        extra === "agent"
          ? { prompt: "Reply OK.", agent: AGENT }
          : extra === "allow-list"
          ? { prompt: "Do what the task says, then reply OK.", tools: allowed }
          : extra === "schema"
          ? { prompt: "Answer with the code word.", jsonSchema: STRUCTURED_SCHEMA }
          : { prompt: "Reply OK." },
      );
      const allowList = extra === "allow-list" ? await restricted(resumed, ALLOWLIST_MARKER) : null;
      const clean = processProblems(resumed.run.observation).length === 0 &&
        resumed.requests.some((request) => carries(request, promptWord));
      if (extra !== null && !clean) {
        model.rescript({ finalText: "OK" });
        resumed = await next("resume", { prompt: "Reply OK." });
      } else if (extra === "agent") resumedWithAgent = resumed;
      else if (extra === "schema") resumedWithSchema = resumed;
      else if (allowList) resumedWithAllowList = allowList;
    }
    const freshPath = runner.goldenPaths.includes("blocking-json") ? "blocking-json" : "streaming";
    // The agent rides on the fresh run where the resume could not carry it (see PlainSession).
    const agentOnFresh = extra !== "agent" && agentSelectable &&
      keepsOn(runner, freshPath, sandbox.work, { agent: AGENT });
    const unbypassedRun = async (agent: boolean) => {
      model.rescript({
        toolCalls: [readProbe, shellMarkerCall(behavior, sandbox, UNBYPASSED_MARKER)],
        finalText: "OK",
      });
      const prompt = `Read ${PROBE_FILE}, do what the task says, then reply OK.`;
      const run = await next(
        freshPath,
        agent ? { prompt, agent: AGENT } : { prompt },
        behavior.permissionSkipArgs,
      );
      return await restricted(run, UNBYPASSED_MARKER);
    };
    let unbypassed = await unbypassedRun(agentOnFresh);
    const freshWithAgent = agentOnFresh ? unbypassed : undefined;
    // A refusal there may be the agent's doing: the bypass taken out then gets a run without the agent.
    if (agentOnFresh && !unbypassed.refused.landed) unbypassed = await unbypassedRun(false);
    let fresh: SessionRun = unbypassed;
    if (processProblems(unbypassed.run.observation).length > 0) {
      model.rescript({ finalText: "OK" });
      fresh = await next(freshPath, { prompt: "Reply OK." });
    }
    return {
      promptWord,
      agentWord,
      probeWord,
      first,
      shell: shellEffect,
      write: writeEffect,
      ...(resumed ? { resumed } : {}),
      ...(resumedWithAgent ? { resumedWithAgent } : {}),
      ...(resumedWithAllowList ? { resumedWithAllowList } : {}),
      ...(resumedWithSchema ? { resumedWithSchema } : {}),
      ...(freshWithAgent ? { freshWithAgent } : {}),
      schemaWord,
      unbypassed,
      fresh: { ...fresh, path: freshPath },
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
