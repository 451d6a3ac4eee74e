/**
 * The `mcp-ui` host (a page written as the `@mcp-ui/client` 7.1.1 docs show) runs the whole MCP Apps
 * catalogue headless: every result is exactly what `hosts/expectations/mcp-ui.yaml` or the gate's own table
 * says (tests/_exact.ts: a listed test has its listed status, a SKIP or INFO is named with its reason, every
 * other test PASSes, so a PASS that becomes a SKIP or a WARN fails), and no browser process or listener
 * survives the run.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { MCP_UI_HOST, McpUiHost } from "../../../hosts/web/mcp_ui.ts";
import { buildMcpUiPageScript } from "../../../hosts/web/mcp_ui/bundle.ts";
// So that `deno check tests/` checks the page's source too: esbuild only strips its types.
import type {} from "../../../hosts/web/mcp_ui/page.tsx";
import type { AppsHostEntry } from "../../../src/host.ts";
import { parseExpectations } from "../../../src/expectations.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { loadSuiteHtml } from "../../../suite/apps/build.ts";
import { headlessSettings, headlessSetup } from "../../_settings.ts";
import { runApps, watchHosts } from "./_apps_run.ts";
import { exactMismatches, type GateRow } from "../../_exact.ts";

const EXPECTATIONS = new URL("../../../hosts/expectations/mcp-ui.yaml", import.meta.url);

/**
 * What the gate expects beyond mcp-ui.yaml: the SKIPs of controls the documented page does not have and the
 * INFOs, each with the words its message says. Every other test must PASS (tests/_exact.ts).
 */
const MCP_UI_GATE: Readonly<Record<string, GateRow>> = {
  "apps/lifecycle/tool-input-partial-stop": {
    status: "SKIP",
    because: "The host sent no tool-input-partial",
  },
  "apps/lifecycle/tool-cancelled": { status: "SKIP", because: 'does not support "cancelTool"' },
  "apps/lifecycle/teardown-notify": { status: "SKIP", because: "The host kept the View" },
  "apps/lifecycle/teardown-await": { status: "SKIP", because: "The View was not torn down" },
  "apps/logging/accepted": { status: "SKIP", because: "does not advertise hostCapabilities.logging" },
  "apps/visibility/app-tool-hidden": { status: "SKIP", because: 'does not support "readModelToolList"' },
  "apps/visibility/empty-array-hidden": { status: "SKIP", because: 'does not support "readModelToolList"' },
  "apps/visibility/cross-server-blocked": { status: "SKIP", because: "No second server is connected" },
  "apps/context/display-mode-consistent": {
    status: "SKIP",
    because: "lacks displayMode or availableDisplayModes",
  },
  "apps/context/theme-change-notify": { status: "INFO", because: "No host-context-changed" },
  // Its initial hostContext is {}: nothing to judge, so no PASS.
  "apps/context/shape-valid": { status: "SKIP", because: "has none of the fields this test checks" },
  "apps/context/partial-merge": { status: "SKIP", because: "No host-context-changed arrived" },
  "apps/context/palette-follows-theme": { status: "SKIP", because: "sends no colour variables" },
  "apps/display/change-notifies-context": { status: "SKIP", because: "did not grant fullscreen" },
  "apps/security/csp-no-unsafe-eval": { status: "INFO", because: "'unsafe-eval' is allowed" },
  "apps/messages/add-to-conversation": {
    status: "SKIP",
    because: "does not advertise hostCapabilities.message",
  },
  "apps/model-context/provide-future-turns": {
    status: "SKIP",
    because: "does not advertise hostCapabilities.updateModelContext",
  },
  "apps/model-context/last-wins": {
    status: "SKIP",
    because: "does not advertise hostCapabilities.updateModelContext",
  },
  "apps/download-file/confirm": {
    status: "SKIP",
    because: "does not advertise hostCapabilities.downloadFile",
  },
  "apps/sampling/create-message": { status: "SKIP", because: "does not advertise hostCapabilities.sampling" },
};

interface Observed {
  readonly results: Map<string, Outcome>;
  readonly hosts: McpUiHost[];
  readonly endpoints: string[];
}

async function runCatalogue(entry: AppsHostEntry): Promise<Observed> {
  const watched = watchHosts<McpUiHost>(entry);
  const results = await runApps(watched.entry, { settings: headlessSettings({ timeoutMultiplier: 2 }) });
  return { results, hosts: watched.hosts, endpoints: watched.endpoints };
}

Deno.test("the mcp-ui page bundles AppRenderer and one SDK client: the page's and AppRenderer's are one", async () => {
  const script = await buildMcpUiPageScript();
  // Messages of the SDK 1.x Client class and of AppRenderer, each present once in a single-copy bundle.
  assert.equal(script.split("Server's protocol version is not supported").length - 1, 1, "SDK Client copies");
  assert.ok(script.includes("[AppRenderer]"), "AppRenderer is in the bundle");
});

Deno.test({
  name: "the mcp-ui host runs the whole catalogue with every result as its expectations say",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const expectations = parseExpectations(await Deno.readTextFile(EXPECTATIONS), EXPECTATIONS.pathname);
  assert.equal(expectations.host, "mcp-ui");
  const observed = await runCatalogue(MCP_UI_HOST);

  for (const test of expectations.tests.keys()) {
    assert.ok(observed.results.has(test), `${test} is listed in mcp-ui.yaml but is no catalogue test`);
  }
  const wrong = exactMismatches({
    outcomes: observed.results,
    listed: (test) => {
      const entry = expectations.tests.get(test);
      return entry && { statuses: entry.statuses, reason: entry.reason };
    },
    table: MCP_UI_GATE,
  });
  assert.deepEqual(wrong, [], "results that differ from hosts/expectations/mcp-ui.yaml");

  assert.equal(observed.hosts.length, 1, "one browser per host run");
  assert.deepEqual(await observed.hosts[0]!.browserSurvivors(), [], "browser processes survived the run");
  assert.ok(observed.endpoints.length >= 5, `listeners: ${observed.endpoints}`);
  for (const url of observed.endpoints) {
    await assert.rejects(fetch(url), `listener ${url} is still open`);
  }
});

/** The host, with the first sandbox proxy load slowed down and the first tool result arriving during it. */
class ResultDuringProxyLoad extends McpUiHost {
  protected override async open(page: Page): Promise<void> {
    let proxyDelayed = false;
    let callDelayed = false;
    await page.context().route(/\/sandbox_proxy\.html/, async (route) => {
      if (!proxyDelayed) {
        proxyDelayed = true;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      await route.continue();
    });
    await page.context().route(/\/mcp$/, async (route) => {
      if (!callDelayed && /"tools\/call"/.test(route.request().postData() ?? "")) {
        callDelayed = true;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await route.continue();
    });
    await super.open(page);
  }
}

Deno.test({
  name: "a render AppRenderer leaves blank (tool result during the proxy load) is launched once more",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const host = new ResultDuringProxyLoad();
  try {
    await host.setup(headlessSetup({ appHtml: loadSuiteHtml }));
    const bridge = await host.launch("run_conformance");
    assert.equal(host.stalledRenders, 1, "the first render stayed blank and was launched again");
    assert.ok((await bridge.listTests()).length > 0, "the second render carries the suite");
  } finally {
    await host.teardown();
  }
});
