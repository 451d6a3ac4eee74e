/**
 * `cli/mock-model/<golden-path>` and `cli/mock-model/fault-<fault>` (`--mock-model`): the real CLI, end to
 * end, against `@copilotkit/aimock` on 127.0.0.1 answering `OK`, in a sandbox (temporary HOME, fresh git
 * repository as cwd, no parent credentials). No network, no tokens.
 *
 * Golden paths check what the behaviour tier checks, per host profile: init first when required, exactly one
 * terminal and it last with status success, zero unparsed lines, exit 0, the process group gone, the reply
 * `OK`, and that the host really called the mock. `resume` runs a streaming turn first, then resumes it in the
 * same sandbox. Unexpected stderr lines (beyond the runner's declared noise) are a WARN. The user's own golden
 * paths (`goldenPaths:` in the config file) run likewise with their own prompt and options
 * (`cli/mock-model/<name>`), judged by their mode, on each host that gives argv for them.
 *
 * Faults (HTTP 500, a malformed body, a stream cut mid-way) check that the host surfaces the failure: one error
 * terminal, last, and an exit of its own within the time limit (PASS); an exit 0 alongside the error is a WARN;
 * a success terminal or no terminal is a FAIL; still running at the limit (a retry storm or a hang) is TIMEOUT.
 * Each host's actual behaviour is recorded in `hosts/expectations/<host>.yaml`.
 *
 * @module
 */
import { execute } from "../../src/exec/executor.ts";
import type { GoldenPath, HostRunner, StreamShape } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { MOCK_FAULTS, type MockFault, type MockModel, startMockModel } from "../../src/mock_model/server.ts";
import { createSandbox, mockInvocation, type Sandbox } from "../../src/mock_model/sandbox.ts";
import type { Normalizer } from "../../src/normalize/events.ts";
import { normalizerFor, parseBlockingJson } from "../../src/normalize/mod.ts";
import { fail, type Outcome, pass, skip, warn } from "../../src/outcome.ts";
import type { TestCase } from "../../src/suite.ts";
import { GOLDEN_PROMPT } from "./observe.ts";
import { startRecording } from "./stream_record.ts";
import { mockModelTitle } from "./titles.ts";
import { type UserPathRun, userPathRun, userPathsOf } from "./user_paths.ts";
import type { CliTier } from "./tier.ts";
import { quoteHostText } from "../../src/quote.ts";

const PREFIX = "cli/mock-model/";
const PATHS: readonly GoldenPath[] = ["streaming", "blocking-json", "resume", "detached"];

/** Wall clock of one golden-path run, before the timeout multiplier. */
export const MOCK_RUN_TIMEOUT_MS = 120_000;
/** Wall clock of one fault run: past it the host is retrying or hanging (TIMEOUT). */
export const FAULT_RUN_TIMEOUT_MS = 60_000;

/**
 * How long a real CLI may keep running after its stream ended (its terminal line) before it is stopped and
 * counted as lingering, before the timeout multiplier: a Node CLI that exits in half a second on an idle machine
 * takes many seconds on a loaded one, which is the machine's doing, not the host's.
 */
export const MOCK_POST_STREAM_GRACE_MS = 10_000;

/**
 * Real CLIs are heavy (a Node or Bun runtime each, seconds of CPU to start): at most this many run at once
 * across every host of a run, so a 2-core machine is not swamped into false timeouts. Wall clocks start when a
 * run gets its slot. `CONFORMANCE_MOCK_MODEL_PARALLEL` overrides it.
 */
export const MOCK_RUN_SLOTS = Math.max(1, Number(Deno.env.get("CONFORMANCE_MOCK_MODEL_PARALLEL") ?? "") || 4);

let slotsInUse = 0;
const slotWaiters: (() => void)[] = [];

/** Runs `job` once a slot is free (the capability-behaviour tier shares these slots). */
export async function inSlot<T>(job: () => Promise<T>, signal: AbortSignal): Promise<T> {
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
      return judgeFault(observation, mock);
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
      const firstProblems = streamProblems(runner, runner.streamShape, first, mock);
      if (firstProblems.must.length > 0) {
        return fail(
          `the streaming turn before the resume failed: ${firstProblems.must.join("; ")}`,
          details(first, mock),
        );
      }
    }
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
    if (path === "blocking-json" || path === "detached") {
      return judgeDocument(runner, path, observation, stdout.join("\n"), mock);
    }
    const problems = streamProblems(runner, runner.streamShape, observation, mock);
    if (problems.must.length > 0) return fail(problems.must.join("; "), details(observation, mock));
    if (problems.should.length > 0) return warn(problems.should.join("; "), details(observation, mock));
    return pass(details(observation, mock));
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
  const observation = await inSlot(() =>
    execute(invocation, {
      host: runner.name,
      normalizer: document ? collector(lines) : normalizerFor(runner.dialect)({ argv: invocation.args }),
      streamShape: shape,
      wallTimeoutMs,
      postStreamGraceMs: MOCK_POST_STREAM_GRACE_MS * multiplier,
      killGraceMs: 1_000,
      signal,
      ...(recording ? { onStdoutLine: (line: string) => recording.stdoutLine(line) } : {}),
    }), signal);
  recording?.finish(observation);
  return { observation, stdout: lines };
}

function details(observation: Observation, mock: MockModel): Record<string, unknown> {
  const requests = mock.requests();
  return {
    ...summarizeObservation(observation),
    mockRequests: requests.length,
    mockStatuses: [...new Set(requests.map((request) => request.status))],
    // Which model and API surface the host really asked for, from the mock's journal.
    mockModels: [...new Set(requests.flatMap((request) => request.model ? [request.model] : []))],
    mockPaths: [...new Set(requests.map((request) => `${request.method} ${request.path.split("?")[0]}`))],
  };
}

interface Problems {
  must: string[];
  should: string[];
}

function processProblems(observation: Observation): string[] {
  const must: string[] = [];
  if (observation.spawnError) must.push(observation.spawnError);
  if (observation.stopped) {
    must.push(`the run was stopped (${observation.stopped}) after ${observation.durationMs} ms`);
  } else if (observation.exitCode !== 0) {
    must.push(`exit code ${observation.exitCode ?? `signal ${observation.signal}`}, expected 0`);
  }
  if (!observation.groupGone) must.push(`process group ${observation.pgid} still alive after the run`);
  for (const violation of observation.violations) must.push(violation.message);
  return must;
}

function stderrProblems(runner: HostRunner, observation: Observation): string[] {
  const noise = runner.stderrNoise ?? [];
  const unexpected = observation.hostStderr.filter((line) =>
    line.trim() !== "" && !noise.some((re) => re.test(line))
  );
  return unexpected.length > 0 ? [`unexpected stderr: ${quoteHostText(unexpected.slice(0, 3))}`] : [];
}

/** What is wrong with a golden-path stream against the mock model. */
export function streamProblems(
  runner: HostRunner,
  shape: StreamShape,
  observation: Observation,
  mock: MockModel,
): Problems {
  const must = processProblems(observation);
  const kinds = observation.kinds;
  if (shape.init !== "none" && kinds[0] !== "init") {
    must.push(`the first event is "${kinds[0] ?? "nothing"}", expected "init" (kinds [${kinds.join(", ")}])`);
  }
  const terminals = kinds.filter((kind) => kind === "terminal").length;
  if (terminals !== 1 || kinds.at(-1) !== "terminal") {
    must.push(`expected exactly one terminal and it last, got ${terminals} in [${kinds.join(", ")}]`);
  }
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  if (terminal?.kind === "terminal" && terminal.status !== "success") {
    must.push(`terminal status "${terminal.status}" (${terminal.reason ?? "no reason"}), expected "success"`);
  }
  const unparsed = observation.events.filter((event) => event.kind === "unparsed");
  if (unparsed.length > 0) {
    must.push(
      `${unparsed.length} unparsed line(s), first: ${quoteHostText(unparsed[0]?.raw ?? "", 200)}`,
    );
  }
  if (mock.requests().length === 0) must.push("the host never called the mock model");
  if (!observation.text.some((line) => line.trim() === "OK")) {
    must.push(`the reply is not the mock's "OK": ${quoteHostText(observation.text.slice(0, 3))}`);
  }
  return { must, should: stderrProblems(runner, observation) };
}

function judgeDocument(
  runner: HostRunner,
  path: GoldenPath,
  observation: Observation,
  stdout: string,
  mock: MockModel,
): Outcome {
  const must = processProblems(observation);
  if (mock.requests().length === 0) must.push("the host never called the mock model");
  if (path === "blocking-json") {
    try {
      const result = parseBlockingJson(runner.dialect, stdout);
      if (result.status !== "success") must.push(`the result says ${result.status}: ${result.reason ?? ""}`);
      if (result.result?.trim() !== "OK") {
        must.push(`the result is ${quoteHostText(result.result ?? "")}, expected "OK"`);
      }
    } catch (error) {
      must.push(error instanceof Error ? error.message : String(error));
    }
  } else if (!/\bOK\b/.test(stdout)) {
    // Detached output is for people (kimi prints "• OK"): the reply only has to be in it.
    must.push(`detached output does not carry the mock's "OK": ${quoteHostText(stdout, 200)}`);
  }
  if (must.length > 0) return fail(must.join("; "), details(observation, mock));
  // Plain print modes narrate on stderr (codex prints its banner and transcript there): judged only on JSON paths.
  const should = path === "blocking-json" ? stderrProblems(runner, observation) : [];
  return should.length > 0
    ? warn(should.join("; "), details(observation, mock))
    : pass(details(observation, mock));
}

/** How a host met a model fault. */
export function judgeFault(observation: Observation, mock: MockModel): Outcome {
  const info = details(observation, mock);
  const kinds = observation.kinds;
  const retries = kinds.filter((kind) => kind === "retry").length;
  const seen = `${mock.requests().length} model request(s), ${retries} retry event(s), kinds [${
    kinds.slice(0, 12).join(", ")
  }${kinds.length > 12 ? ", …" : ""}]`;
  if (observation.spawnError) return fail(observation.spawnError, info);
  if (observation.stopped) {
    return {
      status: "TIMEOUT",
      message: `still running after ${observation.durationMs} ms (${
        mock.requests().length > 1 ? "retrying" : "hanging"
      }): ${seen}`,
      details: info,
    };
  }
  const terminals = observation.events.filter((event) => event.kind === "terminal");
  const terminal = terminals.at(-1);
  if (!terminal || terminal.kind !== "terminal") {
    return fail(`exited ${observation.exitCode ?? observation.signal} with no terminal event: ${seen}`, info);
  }
  if (terminal.status === "success") {
    return fail(
      `reported success although every model call failed (exit ${observation.exitCode}): ${seen}`,
      info,
    );
  }
  if (terminals.length !== 1 || kinds.at(-1) !== "terminal") {
    return fail(`expected exactly one terminal and it last: ${seen}`, info);
  }
  if (!observation.groupGone) {
    return fail(`process group ${observation.pgid} still alive after the run`, info);
  }
  if (observation.exitCode === 0) {
    return warn(`error terminal (${terminal.reason ?? terminal.status}) but exit code 0: ${seen}`, info);
  }
  return pass({ ...info, terminalReason: terminal.reason ?? null, exitCode: observation.exitCode });
}
