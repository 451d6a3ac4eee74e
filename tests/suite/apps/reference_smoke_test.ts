/**
 * Smoke test of the bundled suite in a real page: the esbuild asset is served by the conformance server of the
 * reference host, rendered in headless Chromium behind the sandbox proxy, and driven by the Runner through
 * `window.__mcpConformance`. All three renders run (CSP, no-CSP, precedence); the teardown verdicts come from
 * the server log. Every test must PASS, and no browser process may survive. (The full variant table lives in
 * tests/hosts/web/reference_variants_test.ts.)
 */
import assert from "node:assert/strict";
import { ReferenceHost } from "../../../hosts/web/reference.ts";
import { judgeTeardown, TEARDOWN_TEST_IDS } from "../../../src/fixtures.ts";
import { type LauncherName, runsUnder, type SubtestResult } from "../../../src/protocol.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import { Runner, SuiteRunInterrupted } from "../../../src/runner/runner.ts";
import { buildSuiteHtml } from "../../../suite/apps/build.ts";

const LAUNCHERS: LauncherName[] = ["run_conformance_precedence", "run_conformance_nocsp", "run_conformance"];

Deno.test({
  name: "the bundled suite passes every test on the reference host, and its browser is gone afterwards",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const html = await buildSuiteHtml();
    const host = new ReferenceHost(null);
    const signal = new AbortController().signal;
    const verdicts = new Map<string, SubtestResult>();
    let pid: number | null = null;
    let listed = 0;
    await host.setup({
      headful: false,
      live: false,
      trace: "off",
      artifactsDir: null,
      timeoutMultiplier: 2,
      signal,
      appHtml: () => html,
    });
    try {
      pid = host.browserPid;
      for (const launcher of LAUNCHERS) {
        const bridge = await host.launch(launcher);
        const metas = await bridge.listTests();
        listed = metas.length;
        const ids = metas.filter((meta) => runsUnder(meta, launcher)).map((meta) => meta.id);
        const since = Date.now();
        let results: SubtestResult[];
        try {
          results = await new Runner(host, { pollIntervalMs: 50, stallMs: 60_000 }).run(bridge, { ids });
        } catch (error) {
          // The View is removed by the teardown test: the verdicts come from the server vantage.
          if (!(error instanceof SuiteRunInterrupted) || !bridge.isDetached()) throw error;
          results = error.results.filter((result) =>
            !(TEARDOWN_TEST_IDS as readonly string[]).includes(result.id)
          );
          for (const judged of judgeTeardown(host.serverLog(), true, since)) {
            results.push({ ...judged, name: judged.id, vantage: "server", manual: true, durationMs: 0 });
          }
        }
        for (const result of results) verdicts.set(result.id, result);
      }
    } finally {
      await host.teardown();
    }
    assert.ok(listed >= 46, `the suite listed ${listed} tests`);
    assert.equal(verdicts.size, listed, "every test ran in its render");
    const failing = [...verdicts.values()].filter((result) => result.status !== "PASS")
      .map((result) => `${result.id}: ${result.status} ${result.message ?? ""}`);
    assert.deepEqual(failing, []);
    assert.ok(pid !== null, "the host reported its browser pid");
    assert.equal(await groupAlive(pid), false, `browser process group ${pid} survived the run`);
  },
});
