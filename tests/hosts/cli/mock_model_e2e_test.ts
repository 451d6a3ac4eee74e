/**
 * The mock-model tier on by default in the test suite: every installed real CLI (`deno task hosts:install`)
 * runs its streaming golden path end to end against the mock model, through the executor, in a sandbox, and
 * must pass with its process group gone. A CLI that is not installed, or that cannot be pointed at a local
 * endpoint (`mockModelUnsupported`, amp's and auggie's vendor-only services), is reported as an ignored step
 * with the reason, never as a pass.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { isRealCli, mockModelTier } from "../../../suite/cli/mock_model.ts";
import { headlessSettings } from "../../_settings.ts";

const real = HOSTS.filter((entry): entry is CliHostEntry =>
  entry.kind === "cli" && isRealCli(entry) && !entry.testOnly
);
const installed = new Map<string, boolean>();
for (const entry of real) installed.set(entry.id, await entry.runner.detect() !== null);
/** Why a real CLI's step is ignored: not installed, or no way to reach the mock model. */
const ignored = (entry: CliHostEntry): string | null =>
  !installed.get(entry.id)
    ? `not installed: ${entry.runner.absentWhere ?? "run deno task hosts:install"}`
    : entry.runner.mockModel
    ? null
    : `cannot reach the mock model: ${entry.runner.mockModelUnsupported ?? "no mockModel()"}`;

Deno.test("every installed real CLI passes cli/mock-model/streaming end to end", async (t) => {
  const settings = headlessSettings({ mockModel: true, timeoutMultiplier: 2 });
  // All start together; the tier itself bounds how many real CLIs run at once.
  const outcomes = new Map<string, Promise<Outcome>>();
  for (const entry of real) {
    if (ignored(entry) !== null) continue;
    outcomes.set(
      entry.id,
      mockModelTier.run(entry, { id: "cli/mock-model/streaming" }, settings, settings.signal),
    );
  }
  for (const entry of real) {
    await t.step({
      name: `${entry.id}${ignored(entry) === null ? "" : ` (${ignored(entry)})`}`,
      ignore: ignored(entry) !== null,
      fn: async () => {
        const outcome = await outcomes.get(entry.id)!;
        assert.equal(outcome.status, "PASS", `${entry.id}: ${outcome.message}`);
        assert.equal(outcome.details?.groupGone, true, `${entry.id} left its process group behind`);
        assert.ok(Number(outcome.details?.mockRequests) > 0, `${entry.id} never called the mock model`);
        const paths = outcome.details?.mockPaths as string[];
        assert.ok(paths.every((path) => path.startsWith("POST /v1")), `${entry.id} called ${paths}`);
      },
    });
  }
});
