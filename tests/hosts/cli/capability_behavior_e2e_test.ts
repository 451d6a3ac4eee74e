/**
 * The capability-behaviour tier on by default in the test suite: every test of `cli/capability-behavior/` for
 * every installed real CLI that declares its tools, end to end against the scripted mock model, judged against
 * `hosts/expectations/<host>.yaml`, exactly (tests/_exact.ts): each result must be the listed status, a SKIP
 * the host file declares, or PASS (so a PASS that becomes a SKIP or a WARN fails), and a non-PASS must carry
 * the observed reason. A CLI that is not installed is an ignored step with the reason, never a pass; a
 * real CLI without tool declarations must SKIP naming what is missing.
 *
 * By default it runs every check of the tier (three to six host runs per CLI: 1 min 11 s over the thirteen CLIs
 * that reach the mock model, on an idle two-core machine); `CONFORMANCE_BEHAVIOR_TESTS` narrows it to a
 * comma-separated list of case names (e.g. `tool-round-trip,resume-positive`).
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import { loadExpectations } from "../../../src/expectations.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { capabilityBehaviorTier } from "../../../suite/cli/capability_behavior.ts";
import { isRealCli } from "../../../suite/cli/mock_model.ts";
import { headlessSettings } from "../../_settings.ts";
import { exactMismatches, type GateRow, listedIn } from "../../_exact.ts";

/**
 * The SKIPs a host's own file declares (what the tier cannot run there): without tool names every test; without
 * agent files both directions of agentSelect; without a structured-output tool its positive direction. Every
 * other result must be what hosts/expectations lists, else PASS.
 */
function declaredSkips(entry: CliHostEntry, tests: Iterable<string>): Record<string, GateRow> {
  const behavior = entry.runner.toolBehavior;
  const rows: Record<string, GateRow> = {};
  for (const test of tests) {
    const name = test.slice("cli/capability-behavior/".length);
    const because = !behavior
      ? "no tool names declared in its host file"
      : name.startsWith("agentSelect-") && !behavior.agentFiles
      ? "no agent definition files declared in its host file"
      : name === "structuredOutput-positive" && !behavior.structuredOutput
      ? "no structured-output tool declared in its host file"
      : undefined;
    if (because !== undefined) rows[test] = { status: "SKIP", because };
  }
  return rows;
}

const real = HOSTS.filter((entry): entry is CliHostEntry =>
  entry.kind === "cli" && isRealCli(entry) && !entry.testOnly
);
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
        const mine = new Map<string, Outcome>();
        for (const test of tests) {
          const outcome = await outcomes.get(`${entry.id} ${test.id}`);
          if (!outcome) continue;
          mine.set(test.id, outcome);
          if (outcome.details && "groupGone" in outcome.details) {
            assert.equal(outcome.details.groupGone, true, `${entry.id} ${test.id} left its process group`);
          }
        }
        const problems = exactMismatches({
          outcomes: mine,
          listed: listedIn(expectations, entry.id),
          table: declaredSkips(entry, mine.keys()),
        });
        assert.deepEqual(problems, [], `${entry.id}:\n${problems.join("\n")}`);
      },
    });
  }
});
