/**
 * The ACP tier's gate (suite/cli/acp.ts): the fake ACP agent passes every ACP case, each PASS naming what it
 * observed; each broken variant (hosts/cli/fake_acp.ts) fails exactly the cases listed for it and passes the
 * rest; every ACP case is failed by some variant; every run leaves its process group gone.
 *
 * While iterating, `FAKE_ACP_VARIANTS=defect,defect` runs only those variants.
 */
import assert from "node:assert/strict";
import { FAKE_ACP_HOST, FAKE_ACP_VARIANT_HOSTS, FAKE_ACP_VARIANTS } from "../../../hosts/cli/fake_acp.ts";
import { FAKE_ACP_DEFECTS } from "../../../fake_acp_agent/mod.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { onGroupTracking } from "../../../src/exec/process_group.ts";
import { ACP_CASES, acpTier } from "../../../suite/cli/acp.ts";
import { headlessSettings } from "../../_settings.ts";

const settings = headlessSettings();
const only = (Deno.env.get("FAKE_ACP_VARIANTS") ?? "").split(",").filter((name) => name !== "");

async function runHost(entry: CliHostEntry): Promise<Map<string, Outcome>> {
  const results = new Map<string, Outcome>();
  for (const test of acpTier.list(entry, settings)) {
    results.set(test.id, await acpTier.run(entry, test, settings, settings.signal));
  }
  return results;
}

/** Runs `jobs` at most `width` at a time. */
async function pool<T, R>(items: readonly T[], width: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await job(items[index]!);
    }
  }));
  return out;
}

Deno.test("every ACP case is targeted by a variant, and every defect of the fake has one", () => {
  const ids = ACP_CASES.map((name) => `cli/acp/${name}`);
  const targeted = new Set(FAKE_ACP_VARIANTS.flatMap((variant) => variant.fails));
  assert.deepEqual(ids.filter((id) => !targeted.has(id)), [], "ACP cases no variant fails");
  assert.deepEqual([...targeted].filter((id) => !ids.includes(id)), [], "targets that are not ACP cases");
  assert.deepEqual(FAKE_ACP_VARIANTS.map((v) => v.defect).sort(), [...FAKE_ACP_DEFECTS].sort());
  assert.deepEqual(acpTier.list(FAKE_ACP_HOST, settings).map((test) => test.id), ids);
});

Deno.test({
  name: "the fake ACP agent passes every case, each variant fails exactly its targets, every group gone",
  sanitizeResources: false,
  async fn() {
    const live = new Set<number>();
    const stop = onGroupTracking((change, pgid) => change === "+" ? live.add(pgid) : live.delete(pgid));
    try {
      const hosts = [FAKE_ACP_HOST, ...FAKE_ACP_VARIANT_HOSTS].filter((host) =>
        only.length === 0 || host === FAKE_ACP_HOST || only.some((name) => host.id === `fake-acp:${name}`)
      );
      const runs = await pool(hosts, 3, runHost);
      const problems: string[] = [];
      hosts.forEach((host, index) => {
        const variant = FAKE_ACP_VARIANTS.find((v) => host.id === `fake-acp:${v.defect}`);
        const expected = new Set(variant?.fails ?? []);
        for (const [id, outcome] of runs[index]!) {
          const want = expected.has(id) ? "FAIL" : "PASS";
          if (outcome.status !== want) {
            problems.push(`${host.id} ${id}: ${outcome.status} (${outcome.message ?? ""}), expected ${want}`);
          }
          if (outcome.status === "PASS" && typeof outcome.details?.observed !== "string") {
            problems.push(`${host.id} ${id}: a PASS that names nothing observed`);
          }
        }
      });
      assert.deepEqual(problems, []);
      assert.deepEqual([...live], [], "process groups left tracked (not seen gone)");
    } finally {
      stop();
    }
  },
});
