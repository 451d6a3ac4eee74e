import assert from "node:assert/strict";
import { CATALOGUE } from "../../../suite/apps/catalogue/mod.ts";
import { inRunOrder, phaseOf } from "../../../suite/apps/harness/test_api.ts";
import { shuffledInPhases } from "../../../suite/apps/harness/engine.ts";
import { RESOURCE_URIS, TEARDOWN_TEST_IDS } from "../../../src/fixtures.ts";
import { runTestId } from "../../../src/protocol.ts";

/** The numbered test catalogue the suite was planned from (#1–#46, with #46 split per directive). */
const RESEARCH_IDS = [
  "lifecycle/initialize-result",
  "lifecycle/nothing-before-initialized",
  "lifecycle/tool-input",
  "lifecycle/tool-input-once",
  "lifecycle/tool-input-before-result",
  "lifecycle/tool-input-partial-stop",
  "lifecycle/tool-result",
  "lifecycle/tool-result-fidelity",
  "lifecycle/tool-cancelled",
  "lifecycle/teardown-notify",
  "lifecycle/teardown-await",
  "lifecycle/ping",
  "tools/proxy-call",
  "tools/proxy-error-passthrough",
  "resources/proxy-read",
  "capabilities/server-passthrough",
  "resources/read-referenced",
  "capabilities/ui-extension-advertised",
  "resources/meta-precedence",
  "visibility/app-tool-call-guard",
  "visibility/app-tool-hidden",
  "visibility/empty-array-hidden",
  "visibility/default-both",
  "visibility/cross-server-blocked",
  "context/initialize-hostcontext",
  "context/shape-valid",
  "context/display-mode-consistent",
  "context/toolinfo-matches",
  "context/style-variables",
  "context/theme-change-notify",
  "context/partial-merge",
  "context/palette-follows-theme",
  "dimensions/listen-size-changed",
  "display/return-resulting-mode",
  "display/no-undeclared-mode",
  "display/unavailable-returns-current",
  "display/change-notifies-context",
  "links/open-external",
  "messages/add-to-conversation",
  "model-context/provide-future-turns",
  "model-context/last-wins",
  "download-file/confirm",
  "sampling/create-message",
  "security/sandbox-isolation",
  "security/iframe-sandboxed",
];

const ids = CATALOGUE.map((test) => test.id);

Deno.test("the catalogue has at least 46 tests, unique ids of the form <area>/<name>", () => {
  assert.ok(CATALOGUE.length >= 46, `only ${CATALOGUE.length} tests`);
  assert.equal(new Set(ids).size, ids.length, "duplicate ids");
  for (const id of ids) {
    assert.match(id, /^[a-z][a-z-]*\/[a-z][a-z0-9-]*$/, id);
    assert.match(runTestId(id), /^apps\/[a-z-]+\/[a-z0-9-]+$/);
  }
});

Deno.test("every numbered test of the research catalogue is present, and #46 has one test per directive", () => {
  const missing = RESEARCH_IDS.filter((id) => !ids.includes(id));
  assert.deepEqual(missing, []);
  const csp = ids.filter((id) => id.startsWith("security/csp-"));
  for (const directive of ["connect", "default-deny", "frame-src", "base-uri", "object-src", "sanitized"]) {
    assert.ok(csp.includes(`security/csp-${directive}`), directive);
  }
});

Deno.test("every test declares a clause, a vantage, a name and a valid launcher", () => {
  for (const test of CATALOGUE) {
    assert.ok(test.clause, `${test.id} has no clause`);
    assert.ok(["in-view", "host", "server"].includes(test.vantage), test.id);
    assert.ok(test.name.length > 10, test.id);
    if (test.launcher) assert.ok(test.launcher in RESOURCE_URIS, test.id);
  }
});

Deno.test("run order: automatic tests, then manual ones, and the teardown tests last", () => {
  const ordered = inRunOrder(CATALOGUE).map((test) => ({ id: test.id, phase: phaseOf(test) }));
  const phases = ordered.map((entry) => entry.phase);
  const firstManual = phases.indexOf("manual");
  assert.ok(firstManual > 0);
  assert.ok(phases.slice(0, firstManual).every((phase) => phase === "automatic"));
  assert.ok(phases.slice(firstManual).every((phase) => phase !== "automatic"));
  assert.deepEqual(ordered.slice(-2).map((entry) => entry.id), [...TEARDOWN_TEST_IDS]);
  for (const test of CATALOGUE) {
    if (phaseOf(test) !== "automatic") assert.equal(test.manual, true, `${test.id} is manual`);
  }
});

Deno.test("suite/apps/README.md has one table row per test, in catalogue order", async () => {
  const readme = await Deno.readTextFile(new URL("../../../suite/apps/README.md", import.meta.url));
  const rows = [...readme.matchAll(/^\| `([a-z-]+\/[a-z0-9-]+)`\s*\|/gm)].map((match) => match[1]);
  assert.deepEqual(rows, ids);
});

Deno.test("a shuffled run order keeps the phases, differs from catalogue order and repeats with its seed", () => {
  const ordered = inRunOrder(CATALOGUE).map((test) => test.id);
  const shuffled = shuffledInPhases(CATALOGUE, 7).map((test) => test.id);
  assert.deepEqual([...shuffled].sort(), [...ordered].sort(), "the same tests");
  assert.notDeepEqual(shuffled, ordered, "another order");
  assert.deepEqual(
    shuffledInPhases(CATALOGUE, 7).map((test) => test.id),
    shuffled,
    "the same seed, the same order",
  );
  assert.notDeepEqual(
    shuffledInPhases(CATALOGUE, 8).map((test) => test.id),
    shuffled,
    "another seed, another",
  );
  const phase = new Map(CATALOGUE.map((test) => [test.id, phaseOf(test)]));
  const phases = shuffled.map((id) => phase.get(id));
  assert.deepEqual(phases, inRunOrder(CATALOGUE).map(phaseOf), "automatic, then manual, then last");
});
