/**
 * `cli/capability-behavior/tool-round-trip` and `cli/capability-behavior/<flag>-<positive|negative>`
 * (`--mock-model`): what `cli/capabilities/` checks as argv facts, proven as behaviour. Each test runs the real
 * CLI in a sandbox against a scripted mock model (src/mock_model/script.ts) that asks for one of the host's
 * own built-in tools (declared in its host file, `toolBehavior`), and judges by what happened on disk, what
 * the model was sent (the mock's journal) and what the stream said. `-positive` is listed where the host
 * claims the capability (for `resume`, where it has the resume golden path), `-negative` always.
 *
 * - `tool-round-trip`: the model asks to read a file in the workspace; its content must come back to the
 *   model as a tool result; the stream normalises to `tool_call` then `tool_result` with the same id, then
 *   exactly one terminal (success, last); the usage the stream totals is what the mock reported.
 * - `permissionSkip`: the model runs a shell command that writes a marker. With the bypass it must run;
 *   without it (the host file's `permissionSkipArgs` taken out) it must not, and the CLI must end on its own.
 * - `toolAllowlist`: the same command with only the read tool allowed must not run; with no list it runs.
 * - `workspaceSandboxed`: a write outside the workspace root must not land when the root is set; with no root
 *   it lands (the write tool works, so the refusal means something).
 * - `structuredOutput`: with a schema, the model's structured-output call comes back as the result document's
 *   structured value and validates; without one, no structured-output tool is offered.
 * - `resume`: the resumed run's model request carries the first run's prompt; a fresh run's does not.
 * - `agentSelect`: the selected agent's instructions reach the model; without the selection they do not.
 *
 * A run that observed nothing (never called the model, never got to the tool) does not pass. A host that
 * cannot be checked here is a SKIP naming what is missing; a real CLI's deviation is a finding recorded in
 * `hosts/expectations/<host>.yaml`.
 *
 * @module
 */
import type { HostCapabilities, HostRunner } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { ToolBehavior } from "../../src/exec/tool_behavior.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { type ModelScript, type ScriptedModel, startScriptedModel } from "../../src/mock_model/script.ts";
import { fail, type Outcome, skip } from "../../src/outcome.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";
import { judgeRoundTrip } from "./capability_judge.ts";
import { createSandbox, runCapability, type Sandbox } from "./capability_run.ts";
import { isRealCli, MOCK_RUN_TIMEOUT_MS } from "./mock_model.ts";
import type { CliTier } from "./tier.ts";

const PREFIX = "cli/capability-behavior/";

/** The capabilities this tier proves, by their `cli/capabilities/` flag names (and `resume`). */
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

const WORDS: Readonly<Record<BehaviorFlag, string>> = {
  permissionSkip: "skipping permission prompts runs a tool that needs approval",
  toolAllowlist: "a tool outside the allow-list is refused",
  workspaceSandboxed: "a write outside the workspace root is refused",
  structuredOutput: "a schema'd request yields a structured result that validates",
  resume: "the resumed run's model request carries the first session",
  agentSelect: "the selected agent's instructions reach the model",
};

/** Whether the host claims a behaviour flag (`resume`: it has the resume golden path). */
export function claims(runner: HostRunner, flag: BehaviorFlag): boolean {
  return flag === "resume"
    ? runner.goldenPaths.includes("resume")
    : runner.capabilities[flag as keyof HostCapabilities];
}

/** The tests of the tier for a host. */
export function behaviorTests(runner: HostRunner): TestCase[] {
  return [
    {
      id: `${PREFIX}tool-round-trip`,
      title: "The model's tool call runs and its result goes back, streamed as tool_call then tool_result",
    },
    ...BEHAVIOR_FLAGS.flatMap((flag) => [
      ...(claims(runner, flag)
        ? [{ id: `${PREFIX}${flag}-positive`, title: `Behaviour: ${WORDS[flag]}` }]
        : []),
      {
        id: `${PREFIX}${flag}-negative`,
        title: `Behaviour, the control: without ${flag}, the opposite holds`,
      },
    ]),
  ];
}

/** The capability-behaviour tier. */
export const capabilityBehaviorTier: CliTier = {
  name: "capability-behavior",
  // Two runs, each of which may wait for a slot shared with the mock-model tier.
  timeoutMs: 400_000,
  list(entry, settings): TestCase[] {
    if (!settings.mockModel || !isRealCli(entry)) return [];
    return behaviorTests(entry.runner);
  },
  async run(entry, test, settings, signal): Promise<Outcome> {
    const { runner } = entry;
    if (!runner.toolBehavior) return skip("no tool names declared in its host file");
    if (!runner.mockModel) {
      return skip(
        `cannot point ${runner.name} at a local model: ${runner.mockModelUnsupported ?? "no mockModel()"}`,
      );
    }
    if (await runner.detect() === null) {
      return skip(`binary absent: "${runner.binary}" is not installed (deno task hosts:install) nor on PATH`);
    }
    const name = test.id.slice(PREFIX.length);
    const context: CheckContext = {
      entry,
      runner,
      behavior: runner.toolBehavior,
      settings,
      signal,
      nonce: `cnf${crypto.randomUUID().slice(0, 8)}`,
    };
    if (name === "tool-round-trip") return await toolRoundTrip(context);
    const match = /^(\w+)-(positive|negative)$/.exec(name);
    const flag = match?.[1] as BehaviorFlag | undefined;
    if (!flag || !BEHAVIOR_FLAGS.includes(flag)) {
      return fail(`unknown capability-behaviour test "${test.id}"`);
    }
    const positive = match?.[2] === "positive";
    if (positive && !claims(runner, flag)) return fail(`${runner.name} does not claim ${flag}`);
    return await CHECKS[flag](context, positive);
  },
};

interface CheckContext {
  readonly entry: CliHostEntry;
  readonly runner: HostRunner;
  readonly behavior: ToolBehavior;
  readonly settings: RunSettings;
  readonly signal: AbortSignal;
  /** A word unique to this test, planted where only the checked behaviour can carry it. */
  readonly nonce: string;
}

type Check = (context: CheckContext, positive: boolean) => Promise<Outcome>;

/** A sandbox, and a scripted model whose script may name paths in it, for one test. */
async function stage(
  script: (sandbox: Sandbox) => ModelScript,
): Promise<{ sandbox: Sandbox; model: ScriptedModel } & AsyncDisposable> {
  const sandbox = await createSandbox();
  const model = await startScriptedModel(script(sandbox));
  return {
    sandbox,
    model,
    [Symbol.asyncDispose]: async () => {
      await model.stop();
      await sandbox.dispose();
    },
  };
}

function details(observation: Observation, model: ScriptedModel, extra: Record<string, unknown> = {}) {
  const journal = model.journal();
  return {
    ...summarizeObservation(observation),
    mockTurns: journal.map((request) => request.turn),
    ...extra,
  };
}

/** The wall clock of one run that must finish (a golden-path run), scaled. */
function runLimit(context: CheckContext): number {
  return MOCK_RUN_TIMEOUT_MS * context.settings.timeoutMultiplier;
}

async function toolRoundTrip(context: CheckContext): Promise<Outcome> {
  const { runner, behavior, nonce } = context;
  const read = behavior.tools.read;
  await using staged = await stage((sandbox) => ({
    toolCall: { name: read.name, arguments: read.args({ path: `${sandbox.work}/${PROBE_FILE}` }) },
    finalText: "DONE",
  }));
  const { sandbox, model } = staged;
  await Deno.writeTextFile(`${sandbox.work}/${PROBE_FILE}`, `conformance probe ${nonce}\n`);
  const run = await runCapability({
    runner,
    path: "streaming",
    request: { prompt: `Read the file ${PROBE_FILE}, then reply DONE.` },
    sandbox,
    model,
    wallTimeoutMs: runLimit(context),
    signal: context.signal,
  });
  return judgeRoundTrip(runner, run.observation, model, nonce, details(run.observation, model));
}

const PROBE_FILE = "conformance-probe.txt";

const CHECKS: Readonly<Record<BehaviorFlag, Check>> = {
  permissionSkip: (context, positive) => notYet(context, positive, "permissionSkip"),
  toolAllowlist: (context, positive) => notYet(context, positive, "toolAllowlist"),
  workspaceSandboxed: (context, positive) => notYet(context, positive, "workspaceSandboxed"),
  structuredOutput: (context, positive) => notYet(context, positive, "structuredOutput"),
  resume: (context, positive) => notYet(context, positive, "resume"),
  agentSelect: (context, positive) => notYet(context, positive, "agentSelect"),
};

function notYet(_context: CheckContext, _positive: boolean, flag: BehaviorFlag): Promise<Outcome> {
  return Promise.resolve(skip(`the ${flag} behaviour check is not built yet`));
}
