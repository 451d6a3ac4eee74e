/**
 * Host controls on the View under test, end to end, with several Views on one page: the reference host page
 * served with a panel per View (each with its own "Close app" and "Cancel tool" buttons and its own consent
 * dialogs, like a chat thread that keeps every tool call's View), driven as a YAML web host by the real Runner
 * and Chromium. The `run_conformance_nocsp` render comes first and stays on the page above the main one, and
 * asks for a download and a sampling completion of its own that nobody answers; so the first "Close app",
 * "Cancel tool", "Download" and "Allow" on the page are that other View's.
 *
 * With `ofView: true` on the `teardown:` and `cancel:` steps and on `dialogs:`, every control pressed is the
 * View under test's, and its tests PASS. Without it, the same run presses the other View's and the verdicts
 * show it: tool-cancelled FAILs (the View under test got no tool-cancelled), download-file/confirm and
 * sampling/create-message WARN (SHOULD clauses) because their own requests were never allowed, and
 * teardown-notify SKIPs as "the host kept the View".
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { configHosts } from "../../../hosts/from_config.ts";
import { CHAT_SURFACE, VIEW_PANEL } from "../../../hosts/web/reference/chat_surface.ts";
import { startReferenceListeners } from "../../../hosts/web/reference/listeners.ts";
import type { YamlWebHost } from "../../../hosts/web/yaml_host.ts";
import { parseConfig } from "../../../src/config.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import type { FrameSuiteBridge } from "../../../src/runner/suite_bridge.ts";
import { loadSuiteHtml } from "../../../suite/apps/build.ts";
import { runApps } from "./_apps_run.ts";
import { freePorts } from "./_ports.ts";

/** The render that comes first and stays on the page: the other View. */
const OTHER_LAUNCHER = "run_conformance_nocsp";

/** The other View's own file, which an un-scoped "Download" lets through instead of the test's. */
const OTHER_FILE = "other-view.txt";

const IDS = [
  // Renders the other View first (its launcher's render runs before the main one) and passes there.
  "apps/security/csp-default-deny",
  "apps/lifecycle/tool-cancelled",
  "apps/download-file/confirm",
  "apps/sampling/create-message",
  "apps/lifecycle/teardown-notify",
  "apps/lifecycle/teardown-await",
];

function panelYaml(url: string, ports: readonly [number, number], ofView: boolean): string {
  const scoped = ofView ? ", ofView: true" : "";
  return `hosts:
  - id: reference-panels
    kind: web
    url: ${url}
    launch:
      - waitFor: "${CHAT_SURFACE.ready}"
      - fill: "${CHAT_SURFACE.composer}"
        text: "Please call {launcher} now."
      - press: Enter
        on: "${CHAT_SURFACE.composer}"
    teardown: [{ click: "${VIEW_PANEL.close}"${scoped} }]
    cancel: [{ click: "${VIEW_PANEL.cancel}"${scoped} }]
    dialogs: { download: ["${VIEW_PANEL.accept.download}"], sampling: ["${VIEW_PANEL.accept.sampling}"]${scoped} }
    server: { listen: "127.0.0.1:${ports[0]}", second: "127.0.0.1:${ports[1]}" }
    live: false
`;
}

/**
 * The other View asks its host for a download and a sampling completion (through its sandbox proxy, as any
 * View's requests go), and both consents wait in its panel.
 */
async function otherViewAsks(view: Frame): Promise<void> {
  await view.evaluate((file) => {
    const send = (id: string, method: string, params: unknown) =>
      parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
    send("other-download", "ui/download-file", {
      contents: [{
        type: "resource",
        resource: { uri: `file:///${file}`, mimeType: "text/plain", text: "the other View's file" },
      }],
    });
    send("other-sampling", "sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "the other View asks" } }],
      maxTokens: 8,
    });
  }, OTHER_FILE);
  const consents = view.page().locator(`${VIEW_PANEL.panel} [role=dialog]`);
  await consents.nth(1).waitFor({ timeout: 10_000 });
  assert.equal(await consents.count(), 2, "both consents of the other View wait in its panel");
}

/** A View's panel on the page: its label and how many consents wait in it. */
interface Panel {
  readonly label: string;
  readonly consents: number;
}

/** The panels on the page just before each teardown step, and when the host was torn down. */
interface PanelTimeline {
  readonly beforeTeardownSteps: Panel[][];
  atEnd: Panel[] | null;
}

/**
 * The entry, its hosts made to have the other View ask once it is rendered, and `timeline` filled in with the
 * panels on the page before each teardown step and at the end.
 */
function withOtherViewAsking(entry: AppsHostEntry, timeline: PanelTimeline): AppsHostEntry {
  return {
    ...entry,
    create: () => {
      const host = entry.create() as YamlWebHost;
      const launch = host.launch.bind(host);
      const teardown = host.teardown.bind(host);
      let other: Frame | null = null;
      host.launch = async (launcher) => {
        const bridge = await launch(launcher);
        if (launcher === OTHER_LAUNCHER) {
          other = (bridge as FrameSuiteBridge).frame;
          await otherViewAsks(other);
        }
        return bridge;
      };
      const panels = async (): Promise<Panel[]> =>
        await other?.page().locator(VIEW_PANEL.panel).evaluateAll((sections) =>
          sections.map((section) => ({
            label: section.getAttribute("aria-label") ?? "",
            consents: section.querySelectorAll("[role=dialog]").length,
          }))
        ) ?? [];
      const triggerTeardown = host.triggerTeardown.bind(host);
      host.triggerTeardown = async (request, context) => {
        timeline.beforeTeardownSteps.push(await panels());
        return await triggerTeardown(request, context);
      };
      host.teardown = async () => {
        timeline.atEnd = await panels();
        await teardown();
      };
      return host;
    },
  };
}

async function runPanels(
  ofView: boolean,
): Promise<{ outcomes: Map<string, Outcome>; timeline: PanelTimeline }> {
  const ports = freePorts();
  await using listeners = await startReferenceListeners({
    appHtml: loadSuiteHtml,
    variant: null,
    panels: true,
    mcpUrls: { main: `http://127.0.0.1:${ports[0]}/mcp`, second: `http://127.0.0.1:${ports[1]}/mcp` },
  });
  const yaml = panelYaml(listeners.hostPageUrl.href, ports, ofView);
  const [entry] = configHosts(parseConfig(yaml, "panels.yaml")) as AppsHostEntry[];
  const timeline: PanelTimeline = { beforeTeardownSteps: [], atEnd: null };
  return { outcomes: await runApps(withOtherViewAsking(entry!, timeline), { only: IDS }), timeline };
}

const browserTest = { ignore: chromiumPath() === null, sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    "with ofView: true, teardown, cancel and consent dialogs act on the View under test, not another View",
  ...browserTest,
  fn: async () => {
    const { outcomes, timeline } = await runPanels(true);
    const summary = JSON.stringify({ outcomes: Object.fromEntries(outcomes), timeline });
    // Before the close: the View under test's consents were answered, the other View's still wait. After it,
    // only the other View is left, untouched.
    const other = { label: `App 1: ${OTHER_LAUNCHER}`, consents: 2 };
    assert.deepEqual(timeline.beforeTeardownSteps, [[other, {
      label: "App 2: run_conformance",
      consents: 0,
    }]]);
    assert.deepEqual(timeline.atEnd, [other], summary);
    for (const id of IDS) assert.equal(outcomes.get(id)?.status, "PASS", `${id}: ${summary}`);
    // The host's own cancel control: its reason came to the View under test.
    assert.match(
      JSON.stringify(outcomes.get("apps/lifecycle/tool-cancelled")),
      /cancelled by the user/,
      summary,
    );
  },
});

Deno.test({
  name: "without ofView, the same steps press another View's controls, and the verdicts show it",
  ...browserTest,
  fn: async () => {
    const { outcomes, timeline } = await runPanels(false);
    const summary = JSON.stringify({ outcomes: Object.fromEntries(outcomes), timeline });
    // Before the first close: the other View's consents were the ones answered, the View under test's still
    // wait. That close removed the other View; teardown-await, finding no teardown, closed again: only then
    // was the first "Close app" on the page the View under test's.
    const underTest = { label: "App 2: run_conformance", consents: 2 };
    assert.deepEqual(timeline.beforeTeardownSteps, [
      [{ label: `App 1: ${OTHER_LAUNCHER}`, consents: 0 }, underTest],
      [underTest],
    ], summary);
    assert.deepEqual(timeline.atEnd, [], summary);
    const of = (id: string) => outcomes.get(`apps/${id}`);
    assert.equal(of("security/csp-default-deny")?.status, "PASS", summary);
    // The other View was cancelled; the View under test heard nothing.
    assert.equal(of("lifecycle/tool-cancelled")?.status, "FAIL", summary);
    assert.match(
      of("lifecycle/tool-cancelled")?.message ?? "",
      /No ui\/notifications\/tool-cancelled/,
      summary,
    );
    // The other View's download and sampling were let through; the View under test's requests never were
    // (SHOULD clauses: a failure is a WARN).
    for (
      const [id, what] of [["download-file/confirm", "download"], ["sampling/create-message", "sampling"]]
    ) {
      assert.equal(of(id!)?.status, "WARN", `${id}: ${summary}`);
      assert.match(
        of(id!)?.message ?? "",
        new RegExp(`failed after the ${what} dialog: .*timed out`),
        summary,
      );
    }
    // The other View was closed: the View under test stayed.
    assert.equal(of("lifecycle/teardown-notify")?.status, "SKIP", summary);
    assert.match(of("lifecycle/teardown-notify")?.message ?? "", /kept the View/, summary);
  },
});
