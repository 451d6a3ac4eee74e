/**
 * A positive control that fails because of the network is "not testable", never the host's FAIL or WARN: the
 * conformant reference host runs with its declared CSP control origin on a dead port, one that closes every connection unanswered (what a dead network
 * makes of a public one), and every test whose control needs that origin ends as ERROR with the reason, while
 * the checks the policy alone decides still PASS.
 */
import assert from "node:assert/strict";
import { REFERENCE_HOST, REFERENCE_VARIANT_HOSTS, ReferenceHost } from "../../../hosts/web/reference.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import type { VariantName } from "../../../hosts/web/reference/variants.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { headlessSettings } from "../../_settings.ts";
import { byCatalogueId, runApps } from "./_apps_run.ts";
import { startReferenceListeners } from "../../../hosts/web/reference/listeners.ts";

/** The tests whose positive control loads from the declared origin. */
const NOT_TESTABLE = [
  "security/csp-connect",
  "security/csp-resource-img",
  "security/csp-resource-script",
  "security/csp-frame-src",
  "security/csp-sanitized",
];

/** Decided by the policy alone (a violation is the evidence), so a dead control origin changes nothing. */
const STILL_PASS = [
  "security/csp-base-uri",
  "security/csp-object-src",
  "security/csp-applied-policy",
  "security/csp-default-deny",
  "resources/meta-precedence",
  // The reference host sees the tab's navigation request even though the page cannot load.
  "links/open-external",
];

async function run(entry: AppsHostEntry, ids: readonly string[]): Promise<Map<string, Outcome>> {
  const only = ids.map((id) => `apps/${id}`);
  return byCatalogueId(await runApps(entry, { only, settings: headlessSettings({ timeoutMultiplier: 2 }) }));
}

function unreachable(entry: AppsHostEntry, variant: VariantName | null): AppsHostEntry {
  return { ...entry, create: () => new ReferenceHost(variant, { unreachableDeclaredControl: true }) };
}

function describe(results: Map<string, Outcome>): string {
  return [...results].map(([id, outcome]) => `${id}: ${outcome.status} ${outcome.message ?? ""}`).join("\n");
}

Deno.test({
  name: "an unreachable origin makes a test not testable (ERROR), never the host's FAIL or WARN",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    // Both runs spend most of their time waiting out deadlines (a violation that never comes, a tab that never
    // opens), so they run side by side, each with its own browser and listeners.
    // open-link-dropped opens nothing; with the origin unreachable the suite cannot tell that from a tab
    // that opened and failed to load (as a Runner that watches tab URLs sees it), so it blames nobody.
    const dropped = REFERENCE_VARIANT_HOSTS.find((entry) => entry.id === "reference:open-link-dropped")!;
    const [closedControl, droppedLink] = await Promise.all([
      run(unreachable(REFERENCE_HOST, null), [...NOT_TESTABLE, ...STILL_PASS]),
      run(unreachable(dropped, "open-link-dropped"), ["links/open-external"]),
    ]);

    await t.step("a declared control origin on a dead port: the CSP pairs are ERROR, never FAIL", () => {
      for (const id of NOT_TESTABLE) {
        const outcome = closedControl.get(id);
        assert.equal(outcome?.status, "ERROR", describe(closedControl));
        assert.match(outcome.message ?? "", /^Not testable: .*unreachable/, `${id}: ${outcome.message}`);
      }
      for (const id of STILL_PASS) {
        assert.equal(closedControl.get(id)?.status, "PASS", describe(closedControl));
      }
    });

    await t.step(
      "a link to an unreachable origin a Runner cannot see open is ERROR, not the host's WARN",
      () => {
        const outcome = droppedLink.get("links/open-external");
        assert.equal(outcome?.status, "ERROR", describe(droppedLink));
        assert.match(outcome.message ?? "", /^Not testable: the link's origin .* is unreachable/);
      },
    );
  },
});

Deno.test("the dead control origin holds its port while the listeners run: no other listener can answer on it", async () => {
  const listeners = await startReferenceListeners({
    appHtml: () => "<p>suite</p>",
    variant: null,
    unreachableDeclaredControl: true,
  });
  const port = Number(new URL(listeners.controls.declared).port);
  try {
    // A port bound and let go was handed to the next listener under load, and the "dead" origin answered.
    assert.throws(() => Deno.listen({ hostname: "127.0.0.1", port }), Deno.errors.AddrInUse);
    await assert.rejects(fetch(`${listeners.controls.declared}/ok.txt`), TypeError);
  } finally {
    await listeners.close();
  }
});
