/**
 * `cli/capability-behavior/tool-round-trip` and `cli/capability-behavior/<flag>-<positive|negative>`
 * (`--mock-model`): what `cli/capabilities/` checks as argv facts, proven as behaviour. Each test judges a run
 * of the real CLI in a sandbox against a scripted mock model (src/mock_model/script.ts) that asks for the
 * host's own built-in tools (declared in its host file, `toolBehavior`), by what happened on disk, what the
 * model was sent (the mock's journal) and what the stream said. The checks of the host as it is, and the bypass
 * taken out, share one session (suite/cli/capability_session.ts); the allow-list, the root and the schema are
 * runs of their own. `-positive` is listed where the host claims the capability (for `resume`, where it has
 * the resume golden path), `-negative` always.
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
import { fail, type Outcome, skip } from "../../src/outcome.ts";
import type { TestCase } from "../../src/suite.ts";
import {
  BEHAVIOR_FLAGS,
  type BehaviorFlag,
  type CheckContext,
  CHECKS,
  toolRoundTrip,
} from "./capability_checks.ts";
import { isRealCli } from "./mock_model.ts";
import type { CliTier } from "./tier.ts";

export { BEHAVIOR_FLAGS, type BehaviorFlag };

const PREFIX = "cli/capability-behavior/";

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
      return skip(
        `binary absent: "${runner.binary}" is not installed (deno task hosts:install) nor on PATH` +
          (runner.absentWhere ? `: ${runner.absentWhere}` : ""),
      );
    }
    const name = test.id.slice(PREFIX.length);
    const context: CheckContext = {
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
