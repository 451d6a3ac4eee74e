/**
 * Mutation testing of the CLI suite, the counterpart of tests/hosts/web/reference_variants_test.ts: the
 * reference agent passes every CLI test, each PASS naming what it observed (`details.observed`); each broken
 * variant (hosts/cli/reference_agent_variants.ts, and the fake's, hosts/cli/fake_variants.ts) ends exactly the
 * tests listed for it with exactly the listed statuses, and passes the rest; and every CLI test any host of the
 * registry lists is targeted by some variant, or named below with the reason no host can fail it. Every run
 * proves its process group gone. How the table runs (multipliers, hosts at once): tests/hosts/cli/_agent_table.ts.
 *
 * While iterating, `REFERENCE_AGENT_VARIANTS=name,name` runs only those variants.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import { FLAWS } from "../../../reference_agent/flaws.ts";
import { REFERENCE_AGENT_HOST, REFERENCE_AGENT_VARIANT_HOSTS } from "../../../hosts/cli/reference_agent.ts";
import { AGENT_VARIANTS } from "../../../hosts/cli/reference_agent_variants.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { cliDriver } from "../../../suite/cli/driver.ts";
import { headlessSettings } from "../../_settings.ts";
import { type HostRun, nonPassing, runTable, sorted, VARIANTS } from "./_agent_table.ts";

const SCRIPTED_ROW =
  "a scripted row's host behaviour is its own script (the fake does what the row says, whatever its host), and " +
  "the row fixes how the executor must observe it: only the executor can fail it, which " +
  "tests/suite/cli/tiers_test.ts shows with a mutated row";

/**
 * CLI tests no host flaw can make non-PASS, each with the reason: the scripted rows that no flaw of the fake
 * reaches (the fake's banner fails the rows that check stderr). An entry here must stay untargeted and listed.
 */
const UNTARGETABLE: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "idle-timeout",
    "abort-from-callback",
    "wall-clock-hang",
    "result-then-hang",
    "flood-100mb",
    "output-after-terminal",
    "malformed-json",
    "line-over-limit",
    "invalid-utf8",
  ].map((name) => [`cli/scripted/${name}`, SCRIPTED_ROW]),
);

/**
 * Every CLI test id some host of the registry lists with the mock-model tiers on, but the ACP tier's: it has
 * its own agent and variants (the fake ACP agent), gated by tests/suite/cli/acp_variants_test.ts.
 */
function everyCliTest(): Set<string> {
  const settings = headlessSettings({ mockModel: true });
  return new Set(
    HOSTS.flatMap((entry) =>
      entry.kind === "cli" ? cliDriver.list(entry, settings).map((test) => test.id) : []
    ).filter((id) => !id.startsWith("cli/acp/")),
  );
}

Deno.test("every CLI test is targeted by a broken variant, and every target is a CLI test", () => {
  const ids = everyCliTest();
  const targeted = new Set(VARIANTS.flatMap((variant) => Object.keys(variant.fails)));
  const untargeted = [...ids].filter((id) => !targeted.has(id) && !(id in UNTARGETABLE)).sort();
  assert.deepEqual(untargeted, [], `CLI tests no variant makes non-PASS: ${untargeted.join(", ")}`);
  const unknown = VARIANTS.flatMap((variant) =>
    Object.keys(variant.fails).filter((id) => !ids.has(id)).map((id) => `${variant.name}: ${id}`)
  );
  assert.deepEqual(unknown, [], "variant targets that are not CLI tests");
  const stale = Object.keys(UNTARGETABLE).filter((id) => !ids.has(id) || targeted.has(id));
  assert.deepEqual(stale, [], "exceptions that are gone from the suite or targeted after all");
  assert.ok(VARIANTS.every((variant) => variant.entry !== undefined), "every variant has a registry entry");
  const names = VARIANTS.map((variant) => variant.entry.id);
  assert.equal(new Set(names).size, names.length, "variant names are unique");
});

Deno.test("each program variant switches on one flaw of the reference agent, and every flaw has a variant", () => {
  const program = AGENT_VARIANTS.filter((variant) => variant.kind === "program").map((variant) =>
    variant.name
  );
  assert.deepEqual([...program].sort(), [...FLAWS].sort());
  const args = (host: CliHostEntry) => host.runner.build("streaming", { prompt: "P" }).args;
  for (const entry of REFERENCE_AGENT_VARIANT_HOSTS) {
    const variant = AGENT_VARIANTS.find((candidate) => entry.id === `reference-agent:${candidate.name}`)!;
    if (variant.kind === "program") {
      assert.deepEqual(args(entry), args(REFERENCE_AGENT_HOST), `${entry.id} runs the reference's argv`);
      assert.equal(
        entry.runner.build("streaming", { prompt: "P" }).env.CONFORMANCE_REFERENCE_AGENT_FLAW,
        variant.name,
      );
    }
    assert.equal(entry.variantOf, "reference-agent");
    assert.equal(entry.testOnly, true);
  }
});

Deno.test("docs/cli-hosts.md names every variant of the table", async () => {
  const doc = await Deno.readTextFile(new URL("../../../docs/cli-hosts.md", import.meta.url));
  const named = (variant: (typeof VARIANTS)[number]) =>
    doc.includes(`\`${variant.name}\``) || doc.includes(`\`${variant.entry.id}\``);
  const missing = VARIANTS.filter((variant) => !named(variant)).map((variant) => variant.entry.id);
  assert.deepEqual(missing, [], "variants docs/cli-hosts.md does not describe");
});

/** What is wrong with a host run beyond its statuses: a PASS naming nothing, a process group left. */
async function evidenceProblems(entry: CliHostEntry, run: HostRun): Promise<string[]> {
  const problems: string[] = [];
  for (const [id, outcome] of run.results) {
    const observed = outcome.details?.observed;
    if (
      outcome.status === "PASS" &&
      (typeof observed !== "object" || observed === null || Object.keys(observed).length === 0)
    ) {
      problems.push(`${entry.id} ${id}: a PASS with no details.observed`);
    }
    const pgid = outcome.details?.pgid;
    if (typeof pgid === "number" && await groupAlive(pgid)) {
      problems.push(`${entry.id} ${id}: group ${pgid} alive`);
    }
  }
  return problems;
}

function describe(results: Map<string, Outcome>, ids: readonly string[]): string {
  return ids.map((id) => `  ${id}: ${results.get(id)?.status} ${results.get(id)?.message ?? ""}`).join("\n");
}

Deno.test({
  name: "the reference agent passes every CLI test with evidence; each variant fails exactly its targets",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const only = Deno.env.get("REFERENCE_AGENT_VARIANTS")?.split(",").map((name) => name.trim()).filter(
      Boolean,
    );
    const chosen = only ? VARIANTS.filter((variant) => only.includes(variant.name)) : VARIANTS;
    if (only) console.log(`REFERENCE_AGENT_VARIANTS: running only ${chosen.map((v) => v.name).join(", ")}`);
    const { runs, done } = runTable(chosen);
    await t.step("reference-agent", async () => {
      const run = await runs.get(REFERENCE_AGENT_HOST.id)!;
      assert.ok(run.results.size >= 35, `only ${run.results.size} tests`);
      const failing = Object.keys(nonPassing(run));
      assert.deepEqual(failing, [], describe(run.results, failing));
      assert.deepEqual(await evidenceProblems(REFERENCE_AGENT_HOST, run), []);
      console.log(`reference-agent: all PASS (${run.ms} ms)`);
    });
    const mismatches: string[] = [];
    for (const variant of chosen) {
      const run = await runs.get(variant.entry.id)!;
      const got = nonPassing(run);
      const same = JSON.stringify(got) === JSON.stringify(sorted(variant.fails));
      console.log(`${variant.entry.id}: ${same ? "as listed" : "MISMATCH"} (${run.ms} ms)`);
      if (!same) {
        mismatches.push(
          `${variant.entry.id}: expected ${JSON.stringify(sorted(variant.fails))}, got\n` +
            describe(run.results, Object.keys(got)),
        );
      }
      mismatches.push(...await evidenceProblems(variant.entry, run));
    }
    await done;
    assert.deepEqual(mismatches, [], mismatches.join("\n\n"));
  },
});
