/**
 * The ACP tier (suite/cli/acp.ts) on by default in the test suite, over the real agents whose ACP runs are
 * recorded in `hosts/expectations/*.yaml`: each installed one runs every `cli/acp/*` case end to end against the
 * scripted mock model (native `--acp` or its pinned adapter), judged exactly (tests/_exact.ts): each result is
 * the listed status, else PASS, and a non-PASS must carry the observed reason (a SKIP too: only one listed with
 * its reason, say a capability the agent does not claim, is accepted). Every run must leave its process
 * group gone. An agent that is not installed is an ignored step with the reason, never a pass; so is one whose
 * ACP runs are not recorded yet (docs/cli-hosts.md says which and why), so that the gate never guesses.
 *
 * `CONFORMANCE_ACP_HOSTS` narrows it to a comma-separated list of host ids.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import { loadExpectations } from "../../../src/expectations.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { acpTier } from "../../../suite/cli/acp.ts";
import { isRealCli } from "../../../suite/cli/mock_model.ts";
import { headlessSettings } from "../../_settings.ts";
import { exactMismatches, type GateRow, listedIn } from "../../_exact.ts";

/** The real agents whose ACP results are recorded (2026-12-05); the rest are declared but not yet run here. */
const RECORDED: readonly string[] = [
  "gemini",
  "qwen",
  "opencode",
  "claude-code",
  "codex",
  "kimi-code",
  "omp",
  "kilo",
];

/**
 * The gate's own rows, statuses an expectations file cannot list: INFO results observed here (2026-12-05; an
 * INFO is never unexpected), where a client capability was advertised and the agent did the work itself, a
 * MAY not taken (docs/cli-hosts.md); and the SKIPs of lifecycle methods an agent does not claim.
 */
const RAN_ITSELF: GateRow = { status: "INFO", because: "the agent ran the command itself" };
const WROTE_ITSELF: GateRow = { status: "INFO", because: "but the agent wrote" };
const NO_RESUME: GateRow = { status: "SKIP", because: "does not claim sessionCapabilities.resume" };
const NO_CLOSE: GateRow = { status: "SKIP", because: "does not claim sessionCapabilities.close" };
const INFO_ROWS: Readonly<Record<string, Readonly<Record<string, GateRow>>>> = {
  gemini: {
    "cli/acp/client-terminal": RAN_ITSELF,
    "cli/acp/session-resume": NO_RESUME,
    "cli/acp/session-close": NO_CLOSE,
  },
  qwen: { "cli/acp/client-terminal": RAN_ITSELF, "cli/acp/session-close": NO_CLOSE },
  "claude-code": { "cli/acp/client-terminal": RAN_ITSELF, "cli/acp/client-fs": WROTE_ITSELF },
  opencode: { "cli/acp/client-terminal": RAN_ITSELF, "cli/acp/client-fs": WROTE_ITSELF },
  kilo: { "cli/acp/client-terminal": RAN_ITSELF, "cli/acp/client-fs": WROTE_ITSELF },
  codex: { "cli/acp/client-fs": WROTE_ITSELF },
};

const chosen = (Deno.env.get("CONFORMANCE_ACP_HOSTS") ?? "").split(",").filter(Boolean);
const real = HOSTS.filter((entry): entry is CliHostEntry =>
  entry.kind === "cli" && isRealCli(entry) && !entry.testOnly && entry.runner.acp !== undefined &&
  (chosen.length === 0 || chosen.includes(entry.id))
);
const installed = new Map<string, boolean>();
for (const entry of real) installed.set(entry.id, await entry.runner.detect() !== null);
const expectations = await loadExpectations([
  new URL("../../../hosts/expectations", import.meta.url).pathname,
]);

/** Why an agent's step is ignored, or `null` when it runs. */
function ignored(entry: CliHostEntry): string | null {
  if (!RECORDED.includes(entry.id)) return "its ACP runs are not recorded yet (docs/cli-hosts.md)";
  if (!installed.get(entry.id)) {
    return `not installed: ${entry.runner.absentWhere ?? "run deno task hosts:install"}`;
  }
  if (!entry.runner.mockModel) {
    return `cannot reach the mock model: ${entry.runner.mockModelUnsupported ?? "?"}`;
  }
  return null;
}

Deno.test({
  name: "every recorded real agent meets its expectations on cli/acp/* over ACP",
  sanitizeResources: false,
  async fn(t) {
    const settings = headlessSettings({ mockModel: true, timeoutMultiplier: 2 });
    // All start together; the tier shares the mock-model tiers' run slots, which bound how many run at once.
    const outcomes = new Map<string, Promise<Outcome>>();
    for (const entry of real) {
      if (ignored(entry) !== null) continue;
      for (const test of acpTier.list(entry, settings)) {
        outcomes.set(`${entry.id} ${test.id}`, acpTier.run(entry, test, settings, settings.signal));
      }
    }
    for (const entry of real) {
      const why = ignored(entry);
      await t.step({
        name: `${entry.id}${why === null ? "" : ` (${why})`}`,
        ignore: why !== null,
        fn: async () => {
          const tests = acpTier.list(entry, settings);
          assert.ok(tests.length > 0, `${entry.id} lists no ACP case`);
          const mine = new Map<string, Outcome>();
          for (const test of tests) {
            const outcome = await outcomes.get(`${entry.id} ${test.id}`)!;
            mine.set(test.id, outcome);
          }
          const problems = exactMismatches({
            outcomes: mine,
            listed: listedIn(expectations, entry.id),
            ...(INFO_ROWS[entry.id] ? { table: INFO_ROWS[entry.id] } : {}),
          });
          assert.deepEqual(problems, [], `${entry.id}:\n${problems.join("\n")}`);
        },
      });
    }
  },
});
