/**
 * `cli/behavior/<golden-path>`: does a host behave on its golden paths? The fixed prompt
 * `Reply with exactly: OK`; init first when the stream shape requires it; exactly one terminal and it is last,
 * with status success; result-seen semantics (an event-terminal host reports it, an EOF host reaches EOF);
 * exit 0; no unparsed line; stderr exactly empty for the scripted fakes (no `[result]` error marker for real
 * hosts, whose stderr carries known noise); the process group gone afterwards. The version check prints one
 * non-empty line and exits 0. The user's own golden paths (`goldenPaths:` in the config file) running as
 * streaming, blocking-json or resume are checked the same way with their own prompt (`cli/behavior/<name>`),
 * on each host that gives argv for them, all but the `OK` reply.
 *
 * Scripted hosts always run; real hosts need `--live` (they call a model) and their binary. A host with no
 * model service of its own (`mockModelOnly`, the reference agent) runs in a sandbox against the mock model
 * answering `OK`, without `--live`. A PASS names the stream it saw (suite/cli/evidence.ts).
 *
 * @module
 */
import type { GoldenPath } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import { summarizeObservation } from "../../src/exec/observation.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { startMockModel } from "../../src/mock_model/server.ts";
import { createSandbox, mockInvocation } from "../../src/mock_model/sandbox.ts";
import { fail, type Outcome, skip, warn } from "../../src/outcome.ts";
import { passed, streamSeen } from "./evidence.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";
import { GOLDEN_PROMPT, observe, shapeFor } from "./observe.ts";
import type { CliTier } from "./tier.ts";
import { behaviorTitle } from "./titles.ts";
import { userPathRun, userPathsOf } from "./user_paths.ts";
import { quoteHostText } from "../../src/quote.ts";

const PATHS: readonly GoldenPath[] = ["streaming", "blocking-json", "resume", "version-check"];
/** The modes a user golden path may run as here (a detached run prints text, not a stream). */
const STREAM_PATHS: readonly GoldenPath[] = ["streaming", "blocking-json", "resume"];

/** The behaviour tier. */
export const behaviorTier: CliTier = {
  name: "behavior",
  timeoutMs: 90_000,
  list(entry: CliHostEntry, settings): TestCase[] {
    const user = userPathsOf(entry.runner, settings, STREAM_PATHS).map((path) => path.name);
    return [...PATHS.filter((path) => entry.runner.goldenPaths.includes(path)), ...user].map((path) => ({
      id: `cli/behavior/${path}`,
      title: behaviorTitle(path),
    }));
  },
  async run(entry, test, settings: RunSettings, signal): Promise<Outcome> {
    const { runner } = entry;
    const name = test.id.slice("cli/behavior/".length);
    const user = userPathRun(runner, name, settings);
    // A user path runs its own prompt and options and is judged by its mode.
    const path = user?.mode ?? name;
    if (!runner.scripted && !runner.mockModelOnly) {
      if (!settings.live && path !== "version-check") {
        return skip("live tier off: a real host calls its model; run with --live");
      }
      if (await runner.detect() === null) return skip(`binary "${runner.binary}" not found on PATH`);
    }
    const stdout: string[] = [];
    const request = user?.request ?? { prompt: GOLDEN_PROMPT };
    await using local = runner.mockModelOnly && path !== "version-check" ? await localModel() : null;
    const invocation = local
      ? await mockInvocation({
        runner,
        path: user?.build ?? path,
        request,
        sandbox: local.sandbox,
        url: local.url,
      })
      : undefined;
    const observation = await observe({
      runner,
      path: user?.build ?? path,
      request,
      ...(invocation ? { invocation } : {}),
      ...(user ? { speaks: { dialect: runner.dialect, streamShape: shapeFor(runner, path) } } : {}),
      timeoutMultiplier: settings.timeoutMultiplier,
      signal,
      wallTimeoutMs: 60_000,
      onStdoutLine: (line) => void (stdout.length < 50 && stdout.push(line)),
    });
    const details = summarizeObservation(observation);
    const problems = path === "version-check"
      ? versionProblems(observation, stdout)
      : streamProblems(entry, path, observation, user === null);
    if (problems.must.length > 0) return fail(problems.must.join("; "), details);
    if (problems.should.length > 0) return warn(problems.should.join("; "), details);
    return passed(
      path === "version-check"
        ? { versionLine: stdout.find((line) => line.trim() !== "") ?? "", exitCode: observation.exitCode }
        : { ...streamSeen(observation), ...(local ? { mockRequests: local.requests() } : {}) },
      details,
    );
  },
};

/** A sandbox and a mock model answering `OK`, for a host with no model service of its own. */
async function localModel() {
  const sandbox = await createSandbox();
  const mock = await startMockModel();
  return {
    sandbox,
    url: mock.url,
    requests: () => mock.requests().length,
    [Symbol.asyncDispose]: async () => {
      await mock.stop();
      await sandbox.dispose();
    },
  };
}

interface Problems {
  must: string[];
  should: string[];
}

function basics(observation: Observation): string[] {
  const must: string[] = [];
  if (observation.spawnError) must.push(observation.spawnError);
  if (observation.stopped) must.push(`the run was stopped (${observation.stopped} timeout or abort)`);
  if (observation.exitCode !== 0) {
    must.push(`exit code ${observation.exitCode ?? `signal ${observation.signal}`}, expected 0`);
  }
  if (!observation.groupGone) must.push(`process group ${observation.pgid} still alive after the run`);
  for (const violation of observation.violations) must.push(violation.message);
  return must;
}

function streamProblems(
  entry: CliHostEntry,
  path: GoldenPath,
  observation: Observation,
  wantOk: boolean,
): Problems {
  const must = basics(observation);
  const should: string[] = [];
  const shape = shapeFor(entry.runner, path);
  const kinds = observation.kinds;
  if (shape.init === "required" && kinds[0] !== "init") {
    must.push(`the first event is "${kinds[0] ?? "nothing"}", expected "init" (kinds [${listed(kinds)}])`);
  }
  const terminals = kinds.filter((kind) => kind === "terminal").length;
  if (terminals !== 1 || kinds.at(-1) !== "terminal") {
    must.push(`expected exactly one terminal and it last, got ${terminals} in [${listed(kinds)}]`);
  }
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  if (terminal?.kind === "terminal" && terminal.status !== "success") {
    must.push(`terminal status "${terminal.status}" (${terminal.reason ?? "no reason"}), expected "success"`);
  }
  const wantResultSeen = shape.terminal === "event";
  if (observation.resultSeen !== wantResultSeen) {
    must.push(
      `resultSeen ${observation.resultSeen}, expected ${wantResultSeen} for a ${shape.terminal}-terminal stream`,
    );
  }
  const unparsed = observation.events.filter((event) => event.kind === "unparsed");
  if (unparsed.length > 0) {
    must.push(
      `${unparsed.length} unparsed line(s), first: ${quoteHostText(unparsed[0]?.raw ?? "", 200)}`,
    );
  }
  if (entry.runner.scripted) {
    if (observation.stderr.length > 0) {
      must.push(`stderr not empty: ${quoteHostText(observation.stderr.slice(0, 5))}`);
    }
  } else if (observation.stderr.some((line) => line.startsWith("[result] "))) {
    must.push(
      `stderr carries an error result marker: ${observation.stderr.find((l) => l.startsWith("[result] "))}`,
    );
  }
  // A blocking call carries the reply in its result document, a stream in its text events.
  const reply = terminal?.kind === "terminal" && terminal.result
    ? [...observation.text, terminal.result]
    : observation.text;
  if (wantOk && !reply.some((line) => line.trim().replace(/[.!]$/, "") === "OK")) {
    should.push(`the reply is not "OK": ${quoteHostText(reply.slice(0, 3))}`);
  }
  return { must, should };
}

function versionProblems(observation: Observation, stdout: readonly string[]): Problems {
  const must = basics(observation);
  const printed = stdout.filter((line) => line.trim() !== "");
  if (printed.length === 0) must.push("the version check printed nothing on stdout");
  return { must, should: [] };
}

/** A kinds list for a message: a hostile stream has thousands, and the message must stay readable. */
function listed(kinds: readonly string[]): string {
  const shown = kinds.slice(0, 20).join(", ");
  return kinds.length > 20 ? `${shown}, … ${kinds.length - 20} more` : shown;
}
