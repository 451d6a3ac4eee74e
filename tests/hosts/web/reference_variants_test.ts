/**
 * Mutation testing of the MCP Apps suite: the reference host passes every catalogue test, each broken
 * variant fails exactly the tests listed for it in hosts/web/reference/variants.ts (no more, no fewer), and
 * every catalogue test is targeted by some variant. Every run also proves that no browser process and no
 * listener survives it.
 *
 * While iterating, `REFERENCE_VARIANTS=name,name` runs only those variants in the table test (it says so).
 */
import assert from "node:assert/strict";
import { REFERENCE_HOST, REFERENCE_VARIANT_HOSTS, type ReferenceHost } from "../../../hosts/web/reference.ts";
import { VARIANTS } from "../../../hosts/web/reference/variants.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { CATALOGUE } from "../../../suite/apps/catalogue/mod.ts";
import { headlessSettings } from "../../_settings.ts";
import { byCatalogueId, runApps, watchHosts } from "./_apps_run.ts";

/**
 * Catalogue tests no host flaw can make non-PASS, each with the reason. Empty: every test has a variant. An
 * entry here must stay untargeted and in the catalogue, or the coverage test fails.
 */
const UNTARGETABLE: Readonly<Record<string, string>> = {};

interface Observed {
  readonly results: Map<string, Outcome>;
  readonly hosts: ReferenceHost[];
  readonly endpoints: string[];
}

/** Runs the whole catalogue against `entry`, recording the browser pid and listener URLs of its host. */
async function runCatalogue(entry: AppsHostEntry): Promise<Observed> {
  const watched = watchHosts<ReferenceHost>(entry);
  const results = await runApps(watched.entry, { settings: headlessSettings({ timeoutMultiplier: 2 }) });
  return { results: byCatalogueId(results), hosts: watched.hosts, endpoints: watched.endpoints };
}

async function assertNothingSurvives(observed: Observed): Promise<void> {
  assert.equal(observed.hosts.length, 1, "one browser per host run");
  for (const host of observed.hosts) {
    assert.deepEqual(await host.browserSurvivors(), [], "browser processes survived the run");
  }
  assert.ok(observed.endpoints.length >= 6);
  for (const url of observed.endpoints) {
    await assert.rejects(fetch(url), `listener ${url} is still open`);
  }
}

function nonPassing(results: Map<string, Outcome>): string[] {
  return [...results].filter(([, outcome]) => outcome.status !== "PASS").map(([id]) => id).sort();
}

/** A catalogue MAY the variant breaks must show as INFO (a MAY not taken), never as a "cannot apply" SKIP. */
function mayNotInfo(results: Map<string, Outcome>, ids: string[]): string[] {
  const mays = new Set(CATALOGUE.filter((test) => test.clause === "MAY").map((test) => test.id));
  return ids.filter((id) => mays.has(id) && results.get(id)?.status !== "INFO");
}

function describe(results: Map<string, Outcome>, ids: string[]): string {
  return ids.map((id) => `${id}: ${results.get(id)?.status} ${results.get(id)?.message ?? ""}`).join("\n");
}

Deno.test("every catalogue test is targeted by a broken variant, and every target is a catalogue test", () => {
  const ids = new Set(CATALOGUE.map((test) => test.id));
  // A harness fault is no host flaw: it proves ERROR, not that a test can fail a host.
  const targeted = new Set(
    VARIANTS.filter((variant) => !variant.harnessFault).flatMap((variant) => variant.fails),
  );
  const untargeted = [...ids].filter((id) => !targeted.has(id) && !(id in UNTARGETABLE));
  assert.deepEqual(untargeted, [], `catalogue tests no variant makes non-PASS: ${untargeted.join(", ")}`);
  const unknown = VARIANTS.flatMap((variant) =>
    variant.fails.filter((id) => !ids.has(id)).map((id) => `${variant.name}: ${id}`)
  );
  assert.deepEqual(unknown, [], "variant targets that are not catalogue tests");
  const stale = Object.keys(UNTARGETABLE).filter((id) => !ids.has(id) || targeted.has(id));
  assert.deepEqual(stale, [], "exceptions that are gone from the catalogue or targeted after all");
  const misnamed = VARIANTS.flatMap((variant) =>
    (variant.passes ?? []).filter((id) => !ids.has(id) || variant.fails.includes(id)).map((id) =>
      `${variant.name}: ${id}`
    )
  );
  assert.deepEqual(misnamed, [], "`passes` entries that are not catalogue tests or are also in `fails`");
  const names = VARIANTS.map((variant) => variant.name);
  assert.equal(new Set(names).size, names.length, "variant names are unique");
});

Deno.test({
  name: "the reference host passes the whole catalogue and leaves no process or listener behind",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const observed = await runCatalogue(REFERENCE_HOST);
    assert.ok(observed.results.size >= 46, `only ${observed.results.size} tests`);
    const failing = nonPassing(observed.results);
    assert.deepEqual(failing, [], describe(observed.results, failing));
    await assertNothingSurvives(observed);
  },
});

Deno.test({
  name: "each broken variant fails exactly its targeted tests (the table in hosts/web/reference/variants.ts)",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const mismatches: string[] = [];
    const only = Deno.env.get("REFERENCE_VARIANTS")?.split(",").map((name) => name.trim()).filter(Boolean);
    const queue = only ? VARIANTS.filter((variant) => only.includes(variant.name)) : [...VARIANTS];
    if (only) {
      console.log(`REFERENCE_VARIANTS: running only ${queue.map((variant) => variant.name).join(", ")}`);
    }
    assert.ok(queue.length > 0, `REFERENCE_VARIANTS names no variant: ${only?.join(", ")}`);
    // Three variants at a time: each is its own browser and listeners, so they cannot interfere.
    await Promise.all(Array.from({ length: 3 }, async () => {
      for (let variant = queue.shift(); variant !== undefined; variant = queue.shift()) {
        const entry = REFERENCE_VARIANT_HOSTS.find((candidate) =>
          candidate.id === `reference:${variant.name}`
        );
        if (entry === undefined) {
          mismatches.push(`reference:${variant.name}: no registry entry`);
          continue;
        }
        const started = performance.now();
        const observed = await runCatalogue(entry);
        const failing = nonPassing(observed.results);
        const expected = [...variant.fails].sort();
        const verdict = JSON.stringify(failing) === JSON.stringify(expected) ? "as listed" : "MISMATCH";
        console.log(`reference:${variant.name}: ${verdict} (${Math.round(performance.now() - started)} ms)`);
        if (verdict !== "as listed") console.log(describe(observed.results, failing));
        if (JSON.stringify(failing) !== JSON.stringify(expected)) {
          mismatches.push(
            `reference:${variant.name}: expected non-PASS [${expected.join(", ")}], got\n` +
              describe(observed.results, failing),
          );
        }
        const notError = variant.harnessFault
          ? failing.filter((id) => observed.results.get(id)?.status !== "ERROR")
          : [];
        if (notError.length > 0) {
          mismatches.push(
            `reference:${variant.name}: a harness fault must be ERROR, never the host's verdict, got\n` +
              describe(observed.results, notError),
          );
        }
        const notInfo = mayNotInfo(observed.results, failing);
        if (notInfo.length > 0) {
          mismatches.push(
            `reference:${variant.name}: a broken MAY must be INFO, got\n` +
              describe(observed.results, notInfo),
          );
        }
        await assertNothingSurvives(observed);
      }
    }));
    assert.deepEqual(mismatches, [], mismatches.join("\n\n"));
  },
});
