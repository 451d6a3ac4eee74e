/**
 * The capability-behaviour tier on by default in the test suite: every test of `cli/capability-behavior/` for
 * every installed real CLI that declares its tools, end to end against the scripted mock model, judged against
 * `hosts/expectations/<host>.yaml`: each result must be the expected status, and an expected non-PASS must
 * carry the observed reason. A CLI that is not installed is an ignored step with the reason, never a pass; a
 * real CLI without tool declarations must SKIP naming what is missing.
 *
 * By default it runs every check of the tier (three to six host runs per CLI: 1 min 11 s over the thirteen CLIs
 * that reach the mock model, on an idle two-core machine); `CONFORMANCE_BEHAVIOR_TESTS` narrows it to a
 * comma-separated list of case names (e.g. `tool-round-trip,resume-positive`).
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import { expectedStatus, loadExpectations } from "../../../src/expectations.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import { compare, type Outcome } from "../../../src/outcome.ts";
import { capabilityBehaviorTier } from "../../../suite/cli/capability_behavior.ts";
import { isRealCli } from "../../../suite/cli/mock_model.ts";
import { headlessSettings } from "../../_settings.ts";

const real = HOSTS.filter((entry): entry is CliHostEntry => entry.kind === "cli" && isRealCli(entry));
const installed = new Map<string, boolean>();
for (const entry of real) installed.set(entry.id, await entry.runner.detect() !== null);
const chosen = Deno.env.get("CONFORMANCE_BEHAVIOR_TESTS");
const only = !chosen || chosen === "all" ? null : chosen.split(",").filter(Boolean);
const expectations = await loadExpectations([
  new URL("../../../hosts/expectations", import.meta.url).pathname,
]);

Deno.test("every installed real CLI meets its expectations on cli/capability-behavior/*", async (t) => {
  const settings = headlessSettings({ mockModel: true, timeoutMultiplier: 2 });
  // All start together; the tier shares the mock-model tier's run slots, which bound how many run at once.
  const outcomes = new Map<string, Promise<Outcome>>();
  for (const entry of real) {
    if (!installed.get(entry.id)) continue;
    for (const test of capabilityBehaviorTier.list(entry, settings)) {
      if (only && !only.some((name) => test.id.endsWith(`/${name}`))) continue;
      outcomes.set(
        `${entry.id} ${test.id}`,
        capabilityBehaviorTier.run(entry, test, settings, settings.signal),
      );
    }
  }
  for (const entry of real) {
    await t.step({
      name: `${entry.id}${
        installed.get(entry.id)
          ? ""
          : ` (not installed: ${entry.runner.absentWhere ?? "run deno task hosts:install"})`
      }`,
      ignore: !installed.get(entry.id),
      fn: async () => {
        const tests = capabilityBehaviorTier.list(entry, settings);
        assert.ok(tests.some((test) => test.id === "cli/capability-behavior/tool-round-trip"));
        const problems: string[] = [];
        for (const test of tests) {
          const outcome = await outcomes.get(`${entry.id} ${test.id}`);
          if (!outcome) continue;
          if (!entry.runner.toolBehavior) {
            assert.equal(outcome.status, "SKIP");
            assert.equal(outcome.message, "no tool names declared in its host file");
            continue;
          }
          const expected = expectedStatus(expectations, entry.id, test.id);
          const allowed = expected.statuses ?? [expected.status];
          // The run's own verdict: a SKIP naming what is missing is as expected, a failure or a stale entry is not.
          const verdict = compare({
            status: outcome.status,
            expected: expected.status,
            ...(expected.statuses ? { expectedAny: [...expected.statuses] } : {}),
          });
          if (verdict !== "expected") {
            problems.push(
              `${test.id}: ${outcome.status} (${outcome.message ?? ""}), expected ${allowed} (${verdict})`,
            );
          }
          if (outcome.status !== "PASS") {
            assert.ok(outcome.message, `${entry.id} ${test.id} is ${outcome.status} with no reason`);
          }
          if (outcome.details && "groupGone" in outcome.details) {
            assert.equal(outcome.details.groupGone, true, `${entry.id} ${test.id} left its process group`);
          }
        }
        assert.deepEqual(problems, [], `${entry.id}:\n${problems.join("\n")}`);
      },
    });
  }
});
