/**
 * `cli/mock-model/<golden-path>` and `cli/mock-model/fault-<fault>` (`--mock-model`): the real CLI, end to
 * end, against `@copilotkit/aimock` on 127.0.0.1 answering `OK`, in a sandbox (temporary HOME, fresh git
 * repository as cwd, no parent credentials). No network, no tokens.
 *
 * Golden paths check what the behaviour tier checks, per host profile: init first when required, exactly one
 * terminal and it last with status success, zero unparsed lines, exit 0, the process group gone, the reply
 * `OK`, and that the host really called the mock in that run. `resume` runs a streaming turn first, then
 * resumes it in the same sandbox, and is judged on the resume's own requests. Unexpected stderr lines (beyond
 * the runner's declared noise) are a WARN. The user's own golden paths (`goldenPaths:` in the config file) run
 * likewise with their own prompt and options (`cli/mock-model/<name>`), judged by their mode, on each host
 * that gives argv for them.
 *
 * Faults (HTTP 500, a malformed body, a stream cut mid-way) check that the host reached the mock, was served the
 * fault, and said so: one error terminal, last, and a non-zero exit of its own within the time limit (PASS);
 * exit 0 alongside the error is a WARN; a success terminal or no terminal is a FAIL; still running at the
 * limit is a WARN when its stream shows it retrying, a FAIL when it is silent (suite/cli/mock_model_judge.ts).
 * Each host's actual behaviour is recorded in `hosts/expectations/<host>.yaml`.
 *
 * @module
 */
import { execute } from "../../src/exec/executor.ts";
import type { GoldenPath, HostRunner, StreamShape } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { MOCK_FAULTS, type MockFault, type MockModel, startMockModel } from "../../src/mock_model/server.ts";
import { createSandbox, mockInvocation, type Sandbox } from "../../src/mock_model/sandbox.ts";
import type { Normalizer } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";
import { fail, type Outcome, skip } from "../../src/outcome.ts";
import type { TestCase } from "../../src/suite.ts";
import { GOLDEN_PROMPT } from "./observe.ts";
import { startRecording } from "./stream_record.ts";
import { mockModelTitle } from "./titles.ts";
import { details, judgeDocument, judgeFault, judgeStream, streamProblems } from "./mock_model_judge.ts";
import { type UserPathRun, userPathRun, userPathsOf } from "./user_paths.ts";
import type { CliTier } from "./tier.ts";

const PREFIX = "cli/mock-model/";
const PATHS: readonly GoldenPath[] = ["streaming", "blocking-json", "resume", "detached"];

/** Wall clock of one golden-path run, before the timeout multiplier. */
export const MOCK_RUN_TIMEOUT_MS = 120_000;
/** Wall clock of one fault run: past it the host is retrying or hanging (TIMEOUT). */
export const FAULT_RUN_TIMEOUT_MS = 60_000;

/**
 * How long a real CLI may keep running after its stream ended (its terminal line) before it is stopped and
 * counted as lingering, before the timeout multiplier: a Node CLI that exits in half a second on an idle machine
 * takes many seconds on a loaded one, which is the machine's doing, not the host's. 10 s (20 s at the
 * test suite's ×2) was too short: at load 40 on two cores qwen 0.24.4 printed its result and was still exiting
 * 20 s later in seven of nine runs, so a fresh clone's CI failed it. A host that exits at once pays nothing.
 */
export const MOCK_POST_STREAM_GRACE_MS = 30_000;

/**
 * Real CLIs are heavy (a Node or Bun runtime each, seconds of CPU to start): at most this many run at once
 * across every host of a run, so a 2-core machine is not swamped into false timeouts. Wall clocks start when a
 * run gets its slot. `CONFORMANCE_MOCK_MODEL_PARALLEL` overrides it.
 */
export const MOCK_RUN_SLOTS = Math.max(1, Number(Deno.env.get("CONFORMANCE_MOCK_MODEL_PARALLEL") ?? "") || 4);

let slotsInUse = 0;
const slotWaiters: (() => void)[] = [];

/**
 * Runs `job` once a slot is free (the capability-behaviour tier shares these slots). A run of `runner` when it
 * is a mock-model-only host (the reference agent: a small Deno program, no runtime of seconds to start) takes
 * no slot.
 */
export async function inSlot<T>(job: () => Promise<T>, signal: AbortSignal, runner?: HostRunner): Promise<T> {
  if (runner?.mockModelOnly) return await job();
  while (slotsInUse >= MOCK_RUN_SLOTS) {
    if (signal.aborted) throw new DOMException("aborted while waiting for a run slot", "AbortError");
    await new Promise<void>((resolve) => {
      slotWaiters.push(resolve);
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }
  slotsInUse++;
  try {
    return await job();
  } finally {
    slotsInUse--;
    slotWaiters.shift()?.();
  }
}

/** Whether an entry is a real CLI this tier applies to (not a scripted fake). */
export function isRealCli(entry: CliHostEntry): boolean {
  return !entry.runner.scripted;
}

/** The mock-model tier. */
export const mockModelTier: CliTier = {
  name: "mock-model",
  // Generous: a test may wait for a run slot (see MOCK_RUN_SLOTS) before its own wall clock starts.
  timeoutMs: 400_000,
  list(entry, settings): TestCase[] {
    if (!settings.mockModel || !isRealCli(entry)) return [];
    return [
      ...[
        ...PATHS.filter((path) => entry.runner.goldenPaths.includes(path)),
        ...userPathsOf(entry.runner, settings, PATHS).map((path) => path.name),
      ].map((path) => ({ id: `${PREFIX}${path}`, title: mockModelTitle(path) })),
      ...MOCK_FAULTS.map((fault) => ({
        id: `${PREFIX}fault-${fault}`,
        title: mockModelTitle(`fault-${fault}`),
      })),
    ];
  },
  async run(entry, test, settings, signal): Promise<Outcome> {
    const { runner } = entry;
    if (!runner.mockModel) {
      return skip(
        `cannot point ${runner.name} at a local model: ${
          runner.mockModelUnsupported ?? "no mock-model setup"
        }`,
      );
    }
    if (await runner.detect() === null) {
      return skip(
        `binary absent: "${runner.binary}" is not installed (deno task hosts:install) nor on PATH` +
          (runner.absentWhere ? `: ${runner.absentWhere}` : ""),
      );
    }
    const name = test.id.slice(PREFIX.length);
    const fault = name.startsWith("fault-") ? name.slice("fault-".length) as MockFault : null;
    await using sandbox = await createSandbox();
    await using mock = await startMockModel(fault ? { fault } : {});
    const k = settings.timeoutMultiplier;
    if (fault) {
      const { observation } = await runStream(
        runner,
        "streaming",
        sandbox,
        mock,
        FAULT_RUN_TIMEOUT_MS * k,
        k,
        signal,
      );
      return judgeFault(observation, mock.requests(), fault);
    }
    // A user golden path runs its own argv, prompt and options, and is judged by its mode.
    const user = userPathRun(runner, name, settings);
    const path = user?.mode ?? name as GoldenPath;
    if (path === "resume") {
      const { observation: first } = await runStream(
        runner,
        "streaming",
        sandbox,
        mock,
        MOCK_RUN_TIMEOUT_MS * k,
        k,
        signal,
      );
      const firstProblems = streamProblems(runner, runner.streamShape, first, mock.requests());
      if (firstProblems.must.length > 0) {
        return fail(
          `the streaming turn before the resume failed: ${firstProblems.must.join("; ")}`,
          details(first, mock.requests()),
        );
      }
    }
    // A resume is judged on its own requests: the streaming turn's are in the same journal.
    const before = mock.requests().length;
    const { observation, stdout } = await runStream(
      runner,
      path,
      sandbox,
      mock,
      MOCK_RUN_TIMEOUT_MS * k,
      k,
      signal,
      user,
    );
    const requests = mock.requests().slice(before);
    if (path === "blocking-json" || path === "detached") {
      return judgeDocument(runner, path, observation, stdout.join("\n"), requests);
    }
    return judgeStream(runner, observation, requests);
  },
};

/** A normaliser that only collects stdout, for paths that print a document or plain text. */
function collector(lines: string[]): Normalizer {
  return { line: (raw) => (lines.push(raw), []), end: () => [] };
}

/** Runs one golden path against the mock model in the sandbox; `stdout` is collected for document paths only. */
async function runStream(
  runner: HostRunner,
  path: GoldenPath,
  sandbox: Sandbox,
  mock: MockModel,
  wallTimeoutMs: number,
  multiplier: number,
  signal: AbortSignal,
  user: UserPathRun | null = null,
): Promise<{ observation: Observation; stdout: string[] }> {
  const invocation = await mockInvocation({
    runner,
    path: user?.build ?? path,
    request: user?.request ?? { prompt: GOLDEN_PROMPT },
    sandbox,
    url: mock.url,
  });
  const lines: string[] = [];
  const document = path === "blocking-json" || path === "detached";
  const shape: StreamShape = document ? { init: "none", terminal: "eof" } : runner.streamShape;
  const recording = startRecording(invocation, runner.dialect);
  const observation = await inSlot(
    () =>
      execute(invocation, {
        host: runner.name,
        normalizer: document ? collector(lines) : normalizerFor(runner.dialect)({ argv: invocation.args }),
        streamShape: shape,
        wallTimeoutMs,
        postStreamGraceMs: MOCK_POST_STREAM_GRACE_MS * multiplier,
        killGraceMs: 1_000,
        signal,
        ...(recording ? { onStdoutLine: (line: string) => recording.stdoutLine(line) } : {}),
      }),
    signal,
    runner,
  );
  recording?.finish(observation);
  return { observation, stdout: lines };
}
