/**
 * The built-in `mcp-inspector` host end to end: the real MCP Inspector (installed by `deno task hosts:install`)
 * started on loopback, the whole MCP Apps catalogue run through its Apps tab headless, every result as
 * hosts/expectations/mcp-inspector.yaml or the gate's own table says, exactly (tests/_exact.ts: a PASS that
 * becomes a SKIP or a WARN fails), every non-PASS with a reason, and nothing left running: the Inspector's process group, the browser, the servers. Ignored only
 * when the Inspector is not installed (or there is no Chromium); a broken install fails.
 */
import { inspectorInstalled } from "./_inspector.ts";
import assert from "node:assert/strict";
import { configHosts } from "../../../hosts/from_config.ts";
import {
  MCP_INSPECTOR_HOST,
  MCP_INSPECTOR_YAML,
  mcpInspectorConfig,
  type McpInspectorHost,
  mcpInspectorYaml,
} from "../../../hosts/web/mcp_inspector.ts";
import {
  InspectorPortInUse,
  MCP_INSPECTOR_ID,
  startInspector,
} from "../../../hosts/web/mcp_inspector_process.ts";
import { freeLoopbackPort } from "../../../hosts/web/_server_process.ts";
import { yamlHostCapabilities } from "../../../hosts/web/yaml_host.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import { parseConfig } from "../../../src/config.ts";
import { type ExpectationSet, loadExpectations } from "../../../src/expectations.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import type { HostSetupOptions } from "../../../src/runner/host.ts";
import { runApps } from "./_apps_run.ts";
import { exactMismatches, type GateRow } from "../../_exact.ts";

const ignore = !inspectorInstalled() || chromiumPath() === null;

/** The built-in host's results, once its catalogue test ran: the YAML test compares with them. */
let builtInOutcomes: ReadonlyMap<string, Outcome> | null = null;

const EXPECTATIONS = new URL("../../../hosts/expectations/mcp-inspector.yaml", import.meta.url).pathname;

/** Runs the whole apps catalogue on `entry`; fails when its setup failed. */
async function runInspector(entry: AppsHostEntry): Promise<Map<string, Outcome>> {
  const outcomes = await runApps(entry);
  const setupFailed = [...outcomes.values()].find((outcome) =>
    /Host setup failed/.test(outcome.message ?? "")
  );
  assert.equal(setupFailed, undefined, `the installed Inspector starts: ${setupFailed?.message}`);
  return outcomes;
}

/**
 * What the gate expects beyond mcp-inspector.yaml: the SKIPs of controls the Inspector does not have, each with
 * the words its message says. Every other test must PASS (tests/_exact.ts).
 */
const INSPECTOR_GATE: Readonly<Record<string, GateRow>> = {
  "apps/lifecycle/tool-cancelled": { status: "SKIP", because: 'does not support "cancelTool"' },
  "apps/lifecycle/teardown-await": { status: "SKIP", because: "No ui/resource-teardown arrived to await" },
  "apps/visibility/app-tool-hidden": { status: "SKIP", because: 'does not support "readModelToolList"' },
  "apps/visibility/empty-array-hidden": { status: "SKIP", because: 'does not support "readModelToolList"' },
  "apps/visibility/cross-server-blocked": { status: "SKIP", because: "No second server is connected" },
  "apps/dimensions/listen-size-changed": { status: "SKIP", because: "gives the View a fixed height" },
  // The Inspector sends the theme change or not, by timing: either is its behaviour, a SKIP or WARN is not.
  "apps/context/theme-change-notify": { status: ["INFO", "PASS"], because: "No host-context-changed" },
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
  "apps/sampling/create-message": { status: "SKIP", because: "does not advertise hostCapabilities.sampling" },
};

/** The results that are not exactly what the Inspector's expectations and the gate's table say. */
function surprisesOf(
  outcomes: ReadonlyMap<string, Outcome>,
  sets: ReadonlyMap<string, ExpectationSet>,
): string[] {
  return exactMismatches({
    outcomes,
    listed: (test) => {
      const entry = sets.get(MCP_INSPECTOR_ID)?.tests.get(test);
      return entry && { statuses: entry.statuses, reason: entry.reason };
    },
    table: INSPECTOR_GATE,
  });
}

Deno.test("the MCP Inspector's description is a YAML web host: launched by steps, closed by its own button, no cancel", () => {
  const [config] = parseConfig(MCP_INSPECTOR_YAML, "my-inspector.yaml").hosts;
  assert.ok(config?.kind === "web");
  assert.deepEqual(
    mcpInspectorConfig({ id: "my-inspector" }),
    config,
    "the constant is the default description",
  );
  assert.equal(config.id, "my-inspector");
  assert.equal(config.url, "http://127.0.0.1:6274/");
  assert.equal(config.server?.listen, "127.0.0.1:6280");
  assert.equal(config.live, false);
  assert.ok(config.launch && config.launch.length > 0 && config.teardown);
  const capabilities = yamlHostCapabilities(config);
  assert.ok(capabilities.includes("triggerTeardown"));
  assert.ok(!capabilities.includes("cancelTool"), "the Inspector has no control that cancels a tool call");
  assert.ok(!capabilities.includes("conversationContains"), "the Inspector has no conversation");
  assert.equal(MCP_INSPECTOR_HOST.testOnly, undefined, "a real host, on the board");
  assert.equal(MCP_INSPECTOR_HOST.requiresLive, undefined, "runs offline, without --live");
});

Deno.test({
  name:
    "startInspector: the banner gives both URLs, a taken UI port is one line, close proves the group gone",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const uiPort = freeLoopbackPort();
  const inspector = await startInspector({ serverUrl: "http://127.0.0.1:9/mcp", uiPort });
  try {
    assert.equal(inspector.uiUrl.href, `http://127.0.0.1:${uiPort}/`);
    assert.match(inspector.sandboxUrl.href, /^http:\/\/127\.0\.0\.1:\d+\/sandbox$/);
    assert.notEqual(inspector.sandboxUrl.port, "6275", "the sandbox port is a free one, not the default");
    const page = await fetch(inspector.uiUrl);
    assert.equal(page.status, 200);
    await page.body?.cancel();
    const taken = await startInspector({ serverUrl: "http://127.0.0.1:9/mcp", uiPort }).then(
      (second) => second.close().then(() => null),
      (error: unknown) => error,
    );
    assert.ok(taken instanceof InspectorPortInUse, `a second Inspector on ${uiPort} is refused: ${taken}`);
    assert.doesNotMatch(taken.message, /\n/);
  } finally {
    await inspector.close();
  }
  assert.equal(await groupAlive(inspector.pid), false, "the Inspector's process group is gone");
});

Deno.test({
  name:
    "the MCP Inspector runs the whole apps catalogue headless, every result as its expectations file says",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const sets = await loadExpectations([EXPECTATIONS]);
  const hosts: McpInspectorHost[] = [];
  const endpoints: string[] = [];
  const entry: AppsHostEntry = {
    ...MCP_INSPECTOR_HOST,
    create: () => {
      const host = MCP_INSPECTOR_HOST.create() as McpInspectorHost;
      const setup = host.setup.bind(host);
      host.setup = async (options: HostSetupOptions) => {
        hosts.push(host);
        await setup(options);
        endpoints.push(...(host.serving?.endpoints ?? []), host.inspector!.uiUrl.href);
      };
      return host;
    },
  };
  const outcomes = await runInspector(entry);
  builtInOutcomes = outcomes;
  assert.deepEqual(
    surprisesOf(outcomes, sets),
    [],
    "every result is as hosts/expectations/mcp-inspector.yaml says",
  );
  for (const test of sets.get(MCP_INSPECTOR_ID)?.tests.keys() ?? []) {
    assert.ok(outcomes.has(test), `${test}: listed in ${EXPECTATIONS} but not in the catalogue`);
  }
  const partial = outcomes.get("apps/lifecycle/tool-input-partial-stop");
  assert.equal(partial?.status, "PASS", `the staged partial input reaches the View: ${partial?.message}`);
  assert.ok(
    [...outcomes.values()].filter((outcome) => outcome.status === "PASS").length >= 35,
    "most of the catalogue runs and passes on the Inspector",
  );

  assert.equal(hosts.length, 1);
  const [host] = hosts;
  assert.ok(host!.inspectorPid !== null);
  assert.equal(await groupAlive(host!.inspectorPid!), false, "the Inspector's process group is gone");
  assert.deepEqual(await host!.browserSurvivors(), [], "no browser process is left");
  for (const endpoint of endpoints) {
    const closed = await fetch(endpoint, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return false;
      },
      () => true,
    );
    assert.ok(closed, `${endpoint} no longer answers`);
  }
});

Deno.test({
  name:
    "the same YAML drives an Inspector started by hand: a config-file host gives the built-in host's results",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const sets = await loadExpectations([EXPECTATIONS]);
  // As a user would: the Inspector on a port of their choosing, pointed where server.listen says.
  const uiPort = freeLoopbackPort();
  const listen = `127.0.0.1:${freeLoopbackPort()}`;
  await using _inspector = await startInspector({ serverUrl: `http://${listen}/mcp`, uiPort });
  const config = parseConfig(mcpInspectorYaml({ id: "my-inspector", uiPort, listen }), "my-inspector.yaml");
  const [entry] = configHosts(config) as AppsHostEntry[];
  assert.ok(entry !== undefined && entry.requiresLive === undefined);
  const outcomes = await runInspector(entry);
  assert.deepEqual(
    surprisesOf(outcomes, sets),
    [],
    "the hand-started Inspector gives the results its expectations record",
  );
  if (builtInOutcomes !== null) {
    const differ = [...outcomes].filter(([test, outcome]) =>
      builtInOutcomes!.get(test)?.status !== outcome.status
    )
      .map(([test, outcome]) =>
        `${test}: ${outcome.status} here, ${builtInOutcomes!.get(test)?.status} built in`
      );
    assert.deepEqual(differ, [], "the config-file host gives the built-in host's status for every test");
  }
  assert.equal(outcomes.get("apps/lifecycle/tool-input")?.status, "PASS");
  assert.equal(outcomes.get("apps/lifecycle/teardown-notify")?.status, "FAIL");
  assert.match(outcomes.get("apps/lifecycle/tool-cancelled")?.message ?? "", /does not support "cancelTool"/);
});
