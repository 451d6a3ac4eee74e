/**
 * `--retries` on the capability-behaviour tier, whose tests judge host runs they share (`sharedRun`): a retried
 * test starts its host again. The stand-in agent (./_standin_agent.ts) fails its first run and works after;
 * it writes a line per run, so the test counts the host runs each pass started, and the tests are flaky only
 * because a second pass ran the host again, never by re-judging the run that failed them.
 */
import assert from "node:assert/strict";
import { catalogue, executePlan } from "../../../src/engine.ts";
import type { TestResult } from "../../../src/outcome.ts";
import type { SuiteDriver } from "../../../src/suite.ts";
import { capabilityBehaviorTier } from "../../../suite/cli/capability_behavior.ts";
import { createCliDriver } from "../../../suite/cli/driver.ts";
import { headlessSettings } from "../../_settings.ts";
import { standIn } from "./_standin_agent.ts";

/** The host runs the stand-in logged so far: one argv per line. */
async function hostRuns(file: string): Promise<string[][]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

Deno.test("a retried behaviour test starts its shared host runs again, and is flaky only by that second run", async () => {
  const folder = await Deno.makeTempDir({ prefix: "conformance-retry-runs-" });
  try {
    const runsFile = `${folder}/runs.jsonl`;
    const { entry } = standIn("fails-first", "agent", { STANDIN_RUNS: runsFile });
    const driver = createCliDriver({ tiers: [capabilityBehaviorTier] });
    /** Per pass the engine asked for: its attempt, its tests, and the host runs it started. */
    const passes: { attempt: number; tests: string[]; runs: string[][] }[] = [];
    const counting: SuiteDriver = {
      ...driver,
      async run(host, tests, settings, sink) {
        const before = (await hostRuns(runsFile)).length;
        await driver.run(host, tests, settings, sink);
        passes.push({
          attempt: settings.attempt ?? 1,
          tests: tests.map((test) => test.id),
          runs: (await hostRuns(runsFile)).slice(before),
        });
      },
    };
    const settings = headlessSettings({ mockModel: true, timeoutMultiplier: 2 });
    // Both judge runs of the host's plain session (suite/cli/capability_session.ts), shared per attempt.
    const judged = [
      "cli/capability-behavior/permissionSkip-positive",
      "cli/capability-behavior/resume-positive",
    ];
    const plan = catalogue([entry], [counting], settings).map((item) => ({
      ...item,
      tests: item.tests.filter((test) => judged.includes(test.id)),
    }));
    assert.deepEqual(plan[0]?.tests.map((test) => test.id), judged);
    const seen: TestResult[] = [];
    const { results } = await executePlan({
      plan,
      settings,
      expectations: new Map(),
      retries: 1,
      observer: { testStarted: () => {}, result: (result) => seen.push(result) },
    });

    assert.deepEqual(passes.map((pass) => [pass.attempt, pass.tests]), [[1, judged], [2, judged]]);
    assert.ok(passes[0]!.runs.length >= 1, "the first pass ran the host");
    assert.ok(
      passes[0]!.runs[0]!.includes("--yolo"),
      "the first pass's first host run is the session's first run, the one that fails",
    );
    // The retry pass ran a whole session of its own, shared by both tests: the first run, the resume with the
    // agent, the fresh run without the bypass. Re-judging the failed first pass would have started none.
    assert.equal(passes[1]!.runs.length, 3, JSON.stringify(passes[1]!.runs));
    assert.ok(
      passes[1]!.runs[0]!.includes("--yolo"),
      "the retry's first host run is the session's first run",
    );
    for (const result of results) {
      const attempts = result.details.attemptResults as { status: string; message: string }[];
      assert.equal(result.status, "PASS", `${result.test}: ${result.message}`);
      assert.equal(result.flaky, true, result.test);
      assert.equal(result.attempts, 2, result.test);
      assert.equal(attempts.length, 2);
      assert.equal(attempts[0]!.status, "FAIL", `${result.test} failed on the host's failed first run`);
      assert.match(attempts[0]!.message, /exit code 1, expected 0/, attempts[0]!.message);
    }
    assert.equal(results.length, 2);
    assert.equal(seen.length, 2, "one final result per test");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
