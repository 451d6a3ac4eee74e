/**
 * One real-CLI run of the capability-behaviour tier: the host's invocation for a golden path, pointed at a
 * scripted mock model in a sandbox, optionally with its permission bypass taken out, run through the executor
 * in one of the mock-model tier's slots, with what it printed and how it ended; and what every check shares:
 * its context, a staged sandbox and model, one run shared by the checks that need the very same run.
 *
 * @module
 */
import { execute } from "../../src/exec/executor.ts";
import type { GoldenPath, HostRunner, InvocationRequest, StreamShape } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import { createSandbox, mockInvocation, type Sandbox } from "../../src/mock_model/sandbox.ts";
import {
  type ModelScript,
  type ScriptedModel,
  type ScriptedRequest,
  startScriptedModel,
} from "../../src/mock_model/script.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { ToolBehavior } from "../../src/exec/tool_behavior.ts";
import type { Outcome } from "../../src/outcome.ts";
import type { RunSettings } from "../../src/suite.ts";
import type { Normalizer } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";
import { inSlot, MOCK_POST_STREAM_GRACE_MS, MOCK_RUN_TIMEOUT_MS } from "./mock_model.ts";
import { adoptRecordings, recordStreams, startRecording, type StreamRecording } from "./stream_record.ts";

export { createSandbox, type Sandbox };

/** What one run needs. */
export interface CapabilityRunOptions {
  readonly runner: HostRunner;
  readonly path: GoldenPath;
  readonly request: InvocationRequest;
  readonly sandbox: Sandbox;
  readonly model: ScriptedModel;
  /** Argv elements to take out of the built invocation, in order (the permission bypass). */
  readonly without?: readonly string[];
  /** The run's wall clock: {@linkcode runLimit}, the scaled {@linkcode MOCK_RUN_TIMEOUT_MS}. */
  readonly wallTimeoutMs: number;
  readonly signal: AbortSignal;
}

/** A finished run: the observation, stdout lines for a document path, the argv it ran. */
export interface CapabilityRun {
  readonly observation: Observation;
  readonly stdout: string;
  readonly args: readonly string[];
}

/** `args` with the first occurrence of the sequence `cut` removed; unchanged when it is absent. */
export function withoutSequence(args: readonly string[], cut: readonly string[]): string[] {
  if (cut.length === 0) return [...args];
  for (let at = 0; at + cut.length <= args.length; at++) {
    if (cut.every((element, offset) => args[at + offset] === element)) {
      return [...args.slice(0, at), ...args.slice(at + cut.length)];
    }
  }
  return [...args];
}

/** Runs the host once against the scripted model. */
export async function runCapability(options: CapabilityRunOptions): Promise<CapabilityRun> {
  const { runner, path, sandbox, model } = options;
  const built = await mockInvocation({ runner, path, request: options.request, sandbox, url: model.url });
  const invocation = options.without
    ? Object.freeze({ ...built, args: Object.freeze(withoutSequence(built.args, options.without)) })
    : built;
  const document = path === "blocking-json";
  const lines: string[] = [];
  const collector: Normalizer = { line: (raw) => (lines.push(raw), []), end: () => [] };
  const shape: StreamShape = document ? { init: "none", terminal: "eof" } : runner.streamShape;
  const recording = startRecording(invocation, runner.dialect);
  const observation = await inSlot(
    () =>
      execute(invocation, {
        host: runner.name,
        normalizer: document ? collector : normalizerFor(runner.dialect)({ argv: invocation.args }),
        streamShape: shape,
        wallTimeoutMs: options.wallTimeoutMs,
        // Scaled as the wall clock is (runLimit): the multiplier is the wall clock's share of its base.
        postStreamGraceMs: MOCK_POST_STREAM_GRACE_MS * (options.wallTimeoutMs / MOCK_RUN_TIMEOUT_MS),
        killGraceMs: 1_000,
        signal: options.signal,
        ...(recording ? { onStdoutLine: (line: string) => recording.stdoutLine(line) } : {}),
      }),
    options.signal,
    runner,
  );
  recording?.finish(observation);
  return { observation, stdout: lines.join("\n"), args: invocation.args };
}

/** The file the round trip's model reads, in the working folder. */
export const PROBE_FILE = "conformance-probe.txt";
/** The file a tool-effect check's model has a tool create. */
export const MARKER_FILE = "conformance-marker.txt";

/** The host's shell tool call that writes `file` in the sandbox's working folder. */
export function shellMarkerCall(behavior: ToolBehavior, sandbox: Sandbox, file: string) {
  return {
    name: behavior.tools.shell.name,
    arguments: behavior.tools.shell.args({ command: `echo conformance > '${sandbox.work}/${file}'` }),
  };
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** One shared job: its result, and the host runs it started (recorded apart from any one test). */
interface SharedJob {
  readonly result: Promise<unknown>;
  readonly recordings: StreamRecording[];
}

const sharedRuns = new WeakMap<object, Map<string, SharedJob>>();

/**
 * The result of `job`, run once per `scope` (the settings a driver was given for one pass of its tests) and
 * `key`: two tests that need the very same host run (the same argv, script and sandbox contents) judge one run
 * instead of starting the host twice. A `--retries` pass has settings of its own (`RunSettings.attempt`), so
 * a retried test starts the host again instead of re-judging the run that failed it. Every test that judges
 * it gets its host runs among its own recordings, so each keeps them when it fails.
 */
export function sharedRun<T>(scope: object, key: string, job: () => Promise<T>): Promise<T> {
  let runs = sharedRuns.get(scope);
  if (!runs) sharedRuns.set(scope, runs = new Map());
  let shared = runs.get(key);
  if (!shared) {
    const recordings: StreamRecording[] = [];
    shared = { result: recordStreams(recordings, job), recordings };
    runs.set(key, shared);
  }
  const { recordings } = shared;
  return (shared.result as Promise<T>).finally(() => adoptRecordings(recordings));
}

/** What a check needs. */
export interface CheckContext {
  readonly runner: HostRunner;
  readonly behavior: ToolBehavior;
  readonly settings: RunSettings;
  readonly signal: AbortSignal;
  /** A word unique to this test, planted where only the checked behaviour can carry it. */
  readonly nonce: string;
}

export type Check = (context: CheckContext, positive: boolean) => Promise<Outcome>;

/** A sandbox, and a scripted model whose script may name paths in it, for one test. */
export async function stage(
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

export function details(observation: Observation, model: ScriptedModel, extra: Record<string, unknown> = {}) {
  return {
    ...summarizeObservation(observation),
    mockTurns: model.journal().map((request) => request.turn),
    ...extra,
  };
}

/** The wall clock of a run that must finish, scaled. */
export function runLimit(context: CheckContext): number {
  return MOCK_RUN_TIMEOUT_MS * context.settings.timeoutMultiplier;
}

/** The names of every tool the journalled requests declared. */
export function toolsOffered(journal: readonly ScriptedRequest[]): string[] {
  return [...new Set(journal.flatMap((request) => request.tools))];
}

/** The journal entries the model got after the first `count`, not side calls. */
export function after(journal: readonly ScriptedRequest[], count: number): ScriptedRequest[] {
  return journal.slice(count).filter((request) => request.turn !== "side");
}
