/**
 * How CLI tiers run a host once: build the invocation for a golden path, pick the host's normaliser, run it
 * through the executor with the run's timeout multiplier, and hand back the {@linkcode Observation}.
 *
 * @module
 */
import { CLI_DEADLINES } from "../../src/exec/deadlines.ts";
import { execute, type RunControl } from "../../src/exec/executor.ts";
import type {
  GoldenPath,
  HostInvocation,
  HostRunner,
  InvocationRequest,
  StreamShape,
} from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import type { NormalizedEvent } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";
import { scaled } from "../../src/time.ts";
import { startRecording } from "./stream_record.ts";

/** The fixed prompt of the golden-path behaviour checks. */
export const GOLDEN_PROMPT = "Reply with exactly: OK";

/**
 * Executor limits a tier may set, in milliseconds before the timeout multiplier; unset ones are the defaults of
 * src/exec/deadlines.ts, scaled too.
 */
export interface ObserveLimits {
  readonly wallTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly startupTimeoutMs?: number;
  readonly postStreamGraceMs?: number;
  readonly killGraceMs?: number;
  readonly maxLineBytes?: number;
}

/** Options of {@linkcode observe}. */
export interface ObserveOptions extends ObserveLimits {
  readonly runner: HostRunner;
  readonly path: GoldenPath;
  readonly request: InvocationRequest;
  /** The invocation to run, when the caller built it (a sandboxed run against a mock model); else built here. */
  readonly invocation?: HostInvocation;
  readonly timeoutMultiplier: number;
  readonly signal: AbortSignal;
  /** Read the stream as this dialect and shape instead of the runner's (a fake speaking another host's wire). */
  readonly speaks?: { readonly dialect: string; readonly streamShape: StreamShape };
  readonly onEvent?: (event: NormalizedEvent, control: RunControl) => void;
  readonly onStdoutLine?: (line: string, control: RunControl) => void;
}

/**
 * The stream shape a golden path has: the host's own for streaming; a blocking call prints one document (no
 * init, the terminal ends it); a version check prints text until EOF.
 */
export function shapeFor(runner: HostRunner, path: GoldenPath): StreamShape {
  if (path === "blocking-json") return { init: "none", terminal: "event" };
  if (path === "version-check" || path === "detached") return { init: "none", terminal: "eof" };
  return runner.streamShape;
}

/**
 * Runs one golden path of a host and returns what the executor observed. Inside a recorded test
 * (`recordStreams`), the run's argv, environment names and output are recorded for saving if the test fails.
 */
export async function observe(options: ObserveOptions): Promise<Observation> {
  const { runner, path, request, timeoutMultiplier: k } = options;
  const invocation = options.invocation ?? runner.build(path, request);
  const times = (ms: number | undefined) => ms === undefined ? undefined : scaled(ms, k);
  const limits = {
    wallTimeoutMs: times(options.wallTimeoutMs ?? CLI_DEADLINES.wallTimeoutMs),
    idleTimeoutMs: times(options.idleTimeoutMs),
    startupTimeoutMs: times(options.startupTimeoutMs),
    postStreamGraceMs: times(options.postStreamGraceMs ?? CLI_DEADLINES.postStreamGraceMs),
    killGraceMs: times(options.killGraceMs ?? CLI_DEADLINES.killGraceMs),
    maxLineBytes: options.maxLineBytes,
  };
  const dialect = options.speaks?.dialect ?? runner.dialect;
  const recording = startRecording(invocation, dialect);
  const onStdoutLine = recording === null ? options.onStdoutLine : (line: string, control: RunControl) => {
    recording.stdoutLine(line);
    options.onStdoutLine?.(line, control);
  };
  const observation = await execute(invocation, {
    host: runner.name,
    normalizer: normalizerFor(dialect)({ argv: invocation.args }),
    streamShape: options.speaks?.streamShape ?? shapeFor(runner, path),
    signal: options.signal,
    ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(onStdoutLine ? { onStdoutLine } : {}),
  });
  recording?.finish(observation);
  return observation;
}

/** The run's scripted prompt: directive lines inside the `@@fake` fence. */
export function scriptPrompt(lines: readonly string[]): string {
  return ["@@fake", ...lines, "@@end"].join("\n");
}
