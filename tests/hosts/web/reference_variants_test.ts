/**
 * Mutation testing of the MCP Apps suite: the reference host passes every catalogue test, each broken
 * variant fails exactly the tests listed for it in hosts/web/reference/variants.ts (no more, no fewer), and
 * every catalogue test is targeted by some variant. Every run also proves that no browser process and no
 * listener survives it.
 *
 * Order does not change a verdict: each variant runs its catalogue in a shuffled order (phases kept; the seed is
 * printed, `REFERENCE_SHUFFLE_SEED=n` repeats it), the reference runs once more shuffled, and the tests known
 * to share state with others run alone on the reference and on each variant that targets them, with the
 * status they have in the full run.
 *
 * While iterating, `REFERENCE_VARIANTS=name,name` runs only those variants in the table and order tests (they
 * say so).
 */
import assert from "node:assert/strict";
import { REFERENCE_HOST, REFERENCE_VARIANT_HOSTS, type ReferenceHost } from "../../../hosts/web/reference.ts";
import { VARIANTS } from "../../../hosts/web/reference/variants.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { CATALOGUE } from "../../../suite/apps/catalogue/mod.ts";
import { headlessSettings } from "../../_settings.ts";
import { byCatalogueId, runApps, SharedChromium, watchHosts } from "./_apps_run.ts";

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

/**
 * Runs the catalogue (or `only` these ids) against `entry`, shuffled by `shuffleSeed` when given, recording the
 * browser session and listener URLs of its host. With `shared`, the host opens its context in that browser
 * instead of launching its own.
 */
async function runCatalogue(
  entry: AppsHostEntry,
  shuffleSeed?: number,
  only?: readonly string[],
  shared?: SharedChromium,
): Promise<Observed> {
  const watched = watchHosts<ReferenceHost>(entry, shared);
  const settings = headlessSettings({
    timeoutMultiplier: 2,
    ...(shuffleSeed === undefined ? {} : { shuffleSeed }),
  });
  const results = await runApps(watched.entry, {
    settings,
    ...(only ? { only: only.map((id) => `apps/${id}`) } : {}),
  });
  return { results: byCatalogueId(results), hosts: watched.hosts, endpoints: watched.endpoints };
}

/** The seed of this file's shuffled runs: `REFERENCE_SHUFFLE_SEED`, or a new one each run (printed). */
const SHUFFLE_SEED = (() => {
  const given = Deno.env.get("REFERENCE_SHUFFLE_SEED");
  const seed = given === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(given);
  if (!Number.isInteger(seed)) throw new Error(`REFERENCE_SHUFFLE_SEED is not an integer: ${given}`);
  return seed;
})();

/**
 * Catalogue tests that share state with other tests of their render, each with what it shares: they must give
 * the same status run alone as in the full (shuffled) catalogue.
 */
const SHARED_STATE: Readonly<Record<string, string>> = {
  "resources/read-referenced": "counts the host's reads against the View's own (resources/proxy-read)",
  "resources/proxy-read": "its read is in the log resources/read-referenced reads",
  "security/csp-applied-policy": "may reuse a CSP violation an earlier CSP test provoked",
  "security/csp-sanitized": "may reuse a CSP violation an earlier CSP test provoked",
  "lifecycle/teardown-notify": "ends the View (last phase), judged from the server log",
  "lifecycle/teardown-await": "ends the View (last phase), judged from the server log",
  "lifecycle/tool-cancelled": "cancels the launching tool call, which other tests' View still holds",
  "display/no-undeclared-mode": "starts from the display mode earlier tests left",
  "display/unavailable-returns-current": "starts from the display mode earlier tests left",
  "model-context/provide-future-turns": "the model context earlier updates left",
  "model-context/last-wins": "the model context earlier updates left",
  "context/theme-change-notify": "the theme earlier tests left",
};

/** The full-run results of each variant the table test ran, by name, for the order test. */
const FULL_RUNS = new Map<string, Map<string, Outcome>>();

/** The variants `REFERENCE_VARIANTS` names, or all of them. */
function selectedVariants(): typeof VARIANTS {
  const only = Deno.env.get("REFERENCE_VARIANTS")?.split(",").map((name) => name.trim()).filter(Boolean);
  return only ? VARIANTS.filter((variant) => only.includes(variant.name)) : VARIANTS;
}

/**
 * After a host run: its browser is gone (its own, or its context in a shared one is closed), and so is every
 * listener it opened.
 */
async function assertNothingSurvives(observed: Observed): Promise<void> {
  assert.equal(observed.hosts.length, 1, "one browser session per host run");
  for (const host of observed.hosts) {
    assert.deepEqual(await host.browserSurvivors(), [], "the run's browser (or its context) survived it");
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

/**
 * Runs `count` workers at once, each with a browser of its own that its host runs share; when all are done,
 * every browser is closed and must have left no process.
 */
async function inWorkers(count: number, work: (shared: SharedChromium) => Promise<void>): Promise<void> {
  const browsers = Array.from({ length: count }, () => new SharedChromium());
  const worked = await Promise.allSettled(browsers.map((shared) => work(shared)));
  const survivors = (await Promise.all(browsers.map((shared) => shared.close()))).flat();
  for (const outcome of worked) if (outcome.status === "rejected") throw outcome.reason;
  assert.deepEqual(survivors, [], "the workers' browsers left processes behind");
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
    const queue = [...selectedVariants()];
    if (queue.length < VARIANTS.length) {
      console.log(`REFERENCE_VARIANTS: running only ${queue.map((variant) => variant.name).join(", ")}`);
    }
    assert.ok(queue.length > 0, `REFERENCE_VARIANTS names no variant: ${Deno.env.get("REFERENCE_VARIANTS")}`);
    console.log(
      `catalogue order shuffled with seed ${SHUFFLE_SEED} (REFERENCE_SHUFFLE_SEED=${SHUFFLE_SEED})`,
    );
    // Four variants at a time (a run mostly waits on the View and on its deadlines), each with its own
    // listeners and its own context in its worker's browser (one launch per worker rather than per variant),
    // so they cannot interfere.
    await inWorkers(4, async (shared) => {
      for (let variant = queue.shift(); variant !== undefined; variant = queue.shift()) {
        const entry = REFERENCE_VARIANT_HOSTS.find((candidate) =>
          candidate.id === `reference:${variant.name}`
        );
        if (entry === undefined) {
          mismatches.push(`reference:${variant.name}: no registry entry`);
          continue;
        }
        const started = performance.now();
        const observed = await runCatalogue(entry, SHUFFLE_SEED, undefined, shared);
        FULL_RUNS.set(variant.name, observed.results);
        const failing = nonPassing(observed.results);
        const expected = [...variant.fails].sort();
        const verdict = JSON.stringify(failing) === JSON.stringify(expected) ? "as listed" : "MISMATCH";
        console.log(`reference:${variant.name}: ${verdict} (${Math.round(performance.now() - started)} ms)`);
        if (verdict !== "as listed") console.log(describe(observed.results, failing));
        if (JSON.stringify(failing) !== JSON.stringify(expected)) {
          mismatches.push(
            `reference:${variant.name} (seed ${SHUFFLE_SEED}): expected non-PASS [${
              expected.join(", ")
            }], got\n` +
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
    });
    assert.deepEqual(mismatches, [], mismatches.join("\n\n"));
  },
});

Deno.test({
  name: "order does not change a verdict: the reference shuffled, and the tests that share state run alone",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ids = new Set(CATALOGUE.map((test) => test.id));
    const unknown = Object.keys(SHARED_STATE).filter((id) => !ids.has(id));
    assert.deepEqual(unknown, [], "SHARED_STATE names tests that are not in the catalogue");
    console.log(
      `catalogue order shuffled with seed ${SHUFFLE_SEED} (REFERENCE_SHUFFLE_SEED=${SHUFFLE_SEED})`,
    );
    const shuffled = await runCatalogue(REFERENCE_HOST, SHUFFLE_SEED);
    const failing = nonPassing(shuffled.results);
    assert.deepEqual(
      failing,
      [],
      `reference, shuffled (seed ${SHUFFLE_SEED}):\n${describe(shuffled.results, failing)}`,
    );
    await assertNothingSurvives(shuffled);

    // Each shared-state test alone: on the reference (where it PASSes) and on every variant that targets it
    // (where it has the status of that variant's full run, or at least stays non-PASS).
    const jobs: { entry: AppsHostEntry; id: string; want: (status: string) => boolean; wanted: string }[] =
      [];
    for (const id of Object.keys(SHARED_STATE)) {
      jobs.push({ entry: REFERENCE_HOST, id, want: (status) => status === "PASS", wanted: "PASS" });
      for (const variant of selectedVariants().filter((candidate) => candidate.fails.includes(id))) {
        const entry = REFERENCE_VARIANT_HOSTS.find((candidate) =>
          candidate.id === `reference:${variant.name}`
        )!;
        const full = FULL_RUNS.get(variant.name)?.get(id)?.status;
        jobs.push(
          full === undefined
            ? {
              entry,
              id,
              want: (status) => status !== "PASS",
              wanted: "not PASS (its full run did not run here)",
            }
            : { entry, id, want: (status) => status === full, wanted: `${full}, as in its full run` },
        );
      }
    }
    const mismatches: string[] = [];
    await inWorkers(3, async (shared) => {
      for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
        const alone = await runCatalogue(job.entry, undefined, [job.id], shared);
        const outcome = alone.results.get(job.id);
        const verdict = job.want(outcome?.status ?? "") ? "as in the full run" : "MISMATCH";
        console.log(`${job.entry.id} ${job.id} alone: ${outcome?.status} ${verdict}`);
        if (verdict !== "as in the full run") {
          mismatches.push(
            `${job.entry.id}: ${job.id} alone is ${outcome?.status} (${outcome?.message ?? ""}), expected ` +
              `${job.wanted}; it shares state: ${SHARED_STATE[job.id]}`,
          );
        }
        await assertNothingSurvives(alone);
      }
    });
    assert.deepEqual(mismatches, [], mismatches.join("\n"));
  },
});
