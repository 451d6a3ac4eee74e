/**
 * The launch vocabulary end to end: a YAML web host with `launch:` steps instead of `prompt:` drives the
 * reference host page's composer, renders the suite twice (the second launch starts from the state the first
 * left), presses the page's own "Cancel tool" and "Close app" buttons for `cancel:` and `teardown:`; and a
 * YAML host's `server:` starts the conformance server, its control origins and the second server for the run
 * and closes every port at teardown; `visibility/cross-server-blocked` runs there from the second server's log
 * and SKIPs, naming the missing control, when the page never connects to it.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { configHosts } from "../../../hosts/from_config.ts";
import { startReferenceListeners } from "../../../hosts/web/reference/listeners.ts";
import { CHAT_SURFACE } from "../../../hosts/web/reference/chat_surface.ts";
import type { YamlWebHost } from "../../../hosts/web/yaml_host.ts";
import { parseConfig } from "../../../src/config.ts";
import { CONTROL_FILES } from "../../../src/fixtures.ts";
import { startConformanceServer } from "../../../src/server/server.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { loadSuiteHtml } from "../../../suite/apps/build.ts";
import { headlessSetup } from "../../_settings.ts";
import { runApps } from "./_apps_run.ts";
import { freePorts } from "./_ports.ts";

function launchYaml(url: string): string {
  return `hosts:
  - id: reference-steps
    kind: web
    url: ${url}
    launch:
      - waitFor: "${CHAT_SURFACE.ready}"
      - fill: "${CHAT_SURFACE.composer}"
        text: "Please call {launcher} now."
      - press: Enter
        on: "${CHAT_SURFACE.composer}"
    teardown: [{ click: "${CHAT_SURFACE.close}" }]
    cancel: [{ click: "${CHAT_SURFACE.cancel}" }]
    live: false
`;
}

function run(entry: AppsHostEntry, ids: readonly string[]): Promise<Map<string, Outcome>> {
  return runApps(entry, { only: ids });
}

Deno.test({
  name:
    "a YAML host launched by steps (fill + press, no prompt) renders the suite twice and presses the host's own cancel and close",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using listeners = await startReferenceListeners({ appHtml: loadSuiteHtml, variant: null });
  const [entry] = configHosts(
    parseConfig(launchYaml(listeners.hostPageUrl.href), "steps.yaml"),
  ) as AppsHostEntry[];
  assert.ok(entry !== undefined);
  const outcomes = await run(entry, [
    "apps/lifecycle/initialize-result",
    "apps/lifecycle/tool-input",
    "apps/security/iframe-sandboxed",
    "apps/lifecycle/tool-cancelled",
    "apps/lifecycle/teardown-notify",
    // Another launcher: a second render, launched from the page state the first one left.
    "apps/security/csp-default-deny",
  ]);
  const summary = JSON.stringify(Object.fromEntries(outcomes));
  for (const id of ["initialize-result", "tool-input", "tool-cancelled"]) {
    assert.equal(outcomes.get(`apps/lifecycle/${id}`)?.status, "PASS", summary);
  }
  assert.equal(outcomes.get("apps/security/iframe-sandboxed")?.status, "PASS", summary);
  assert.equal(outcomes.get("apps/security/csp-default-deny")?.status, "PASS", summary);
  // The close button removed the View; without server: the verdict has no server log to come from.
  const teardown = outcomes.get("apps/lifecycle/teardown-notify");
  assert.equal(teardown?.status, "SKIP", summary);
  assert.match(teardown?.message ?? "", /View was removed and this host cannot read the server log/);
});

Deno.test({
  name:
    "with server:, the host page talks to the harness's own server and the teardown tests are judged from its log",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const [port, second] = freePorts();
  const main = `http://127.0.0.1:${port}/mcp`;
  await using listeners = await startReferenceListeners({
    appHtml: loadSuiteHtml,
    variant: null,
    mcpUrls: { main, second: `http://127.0.0.1:${second}/mcp` },
  });
  const yaml = launchYaml(listeners.hostPageUrl.href).replace(
    "    live: false\n",
    `    server: { listen: "127.0.0.1:${port}", second: "127.0.0.1:${second}" }\n    live: false\n`,
  );
  const [entry] = configHosts(parseConfig(yaml, "served.yaml")) as AppsHostEntry[];
  const ids = [
    "apps/lifecycle/tool-input",
    "apps/lifecycle/tool-cancelled",
    "apps/lifecycle/teardown-notify",
    "apps/lifecycle/teardown-await",
    "apps/visibility/cross-server-blocked",
  ];
  const outcomes = await run(entry!, ids);
  const summary = JSON.stringify(Object.fromEntries(outcomes));
  // cross-server-blocked runs too: no DOM-driven host can read the model's tool list, but the second server's
  // log shows the page initialised it and listed its tools (its positive control from the server vantage).
  for (const id of ids) assert.equal(outcomes.get(id)?.status, "PASS", `${id}: ${summary}`);
  // The listeners' own servers saw nothing: every call went to the ones the YAML host started.
  assert.deepEqual(listeners.server.log.snapshot().toolCalls, []);
  assert.deepEqual(listeners.secondServer.log.snapshot().methods, []);
});

Deno.test({
  name:
    "cross-server-blocked SKIPs naming the missing control when the host never connects to the second server, or none runs",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const [port, second] = freePorts();
  // The page's other server is one of its own: a second server the YAML host starts never hears from it.
  await using elsewhere = await startConformanceServer({
    appHtml: loadSuiteHtml,
    controls: { declared: "http://127.0.0.1:9", undeclared: "http://127.0.0.1:10" },
    role: "second",
  });
  await using listeners = await startReferenceListeners({
    appHtml: loadSuiteHtml,
    variant: null,
    mcpUrls: { main: `http://127.0.0.1:${port}/mcp`, second: elsewhere.url.href },
  });
  const page = listeners.hostPageUrl.href;
  const cases = [
    {
      server: `{ listen: "127.0.0.1:${port}", second: "127.0.0.1:${second}" }`,
      reason: /the host never connected to the second server \(its log shows no initialize\)/,
    },
    { server: `{ listen: "127.0.0.1:${port}" }`, reason: /no second server runs beside the main one/ },
  ];
  for (const { server, reason } of cases) {
    const yaml = launchYaml(page).replace("    live: false\n", `    server: ${server}\n    live: false\n`);
    const [entry] = configHosts(parseConfig(yaml, "main-only.yaml")) as AppsHostEntry[];
    const outcomes = await run(entry!, ["apps/visibility/cross-server-blocked"]);
    const cross = outcomes.get("apps/visibility/cross-server-blocked");
    assert.equal(cross?.status, "SKIP", server);
    assert.match(cross?.message ?? "", /^No second server is connected \(positive control\): /, server);
    assert.match(cross?.message ?? "", /the model's tool list cannot be read/, server);
    assert.match(cross?.message ?? "", reason, server);
  }
});

Deno.test({
  name: "launch steps run before the prompt when a YAML host gives both",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using listeners = await startReferenceListeners({ appHtml: loadSuiteHtml, variant: null });
  const yaml = `hosts:
  - id: reference-steps-then-prompt
    kind: web
    url: ${listeners.hostPageUrl.href}
    launch: [{ waitFor: "${CHAT_SURFACE.ready}" }, { click: "${CHAT_SURFACE.composer}" }]
    prompt: { selector: "${CHAT_SURFACE.composer}", key: Enter, text: "Please call {launcher} now." }
    conversation: { selector: "${CHAT_SURFACE.conversation}" }
    live: false
`;
  const [entry] = configHosts(parseConfig(yaml, "both.yaml")) as AppsHostEntry[];
  assert.ok(entry!.capabilities.includes("conversationContains"));
  const outcomes = await run(entry!, ["apps/lifecycle/tool-input"]);
  assert.equal(
    outcomes.get("apps/lifecycle/tool-input")?.status,
    "PASS",
    JSON.stringify(Object.fromEntries(outcomes)),
  );
});

Deno.test({
  name: "a launch step that finds nothing fails the render with the step named, not a 120 s frame search",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using listeners = await startReferenceListeners({ appHtml: loadSuiteHtml, variant: null });
  const yaml = launchYaml(listeners.hostPageUrl.href).replace(
    `- waitFor: "${CHAT_SURFACE.ready}"`,
    `- click: "text='Launch {launcher}'"\n        timeoutMs: 500`,
  );
  const [entry] = configHosts(parseConfig(yaml, "steps.yaml")) as AppsHostEntry[];
  const started = Date.now();
  const outcomes = await run(entry!, ["apps/lifecycle/tool-input"]);
  const outcome = outcomes.get("apps/lifecycle/tool-input");
  assert.equal(outcome?.status, "ERROR", JSON.stringify(outcome));
  assert.match(
    outcome?.message ?? "",
    /launch step 1 \(click "text='Launch run_conformance'"\) found nothing within 0\.5 s/,
  );
  assert.ok(Date.now() - started < 60_000, "the run stopped at the step");
});

async function toolNames(url: URL): Promise<string[]> {
  const client = new Client({ name: "yaml-server-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

async function refused(url: string): Promise<boolean> {
  try {
    const { hostname, port } = new URL(url);
    const conn = await Deno.connect({ hostname, port: Number(port) });
    conn.close();
    return false;
  } catch (error) {
    return error instanceof Deno.errors.ConnectionRefused;
  }
}

Deno.test({
  name:
    "server.listen: the YAML host starts the conformance server, local control origins and the second server, serves serverLog, and closes every port",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<number>();
  const page = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: abort.signal, onListen: ({ port }) => resolve(port) },
    () => new Response("<!doctype html><title>host</title>", { headers: { "content-type": "text/html" } }),
  );
  try {
    const [port, second] = freePorts();
    const yaml = `hosts:
  - id: served
    kind: web
    url: http://127.0.0.1:${await listening}/
    launch: [{ fill: "#url", text: "{serverUrl}" }]
    server: { listen: "127.0.0.1:${port}", second: "127.0.0.1:${second}" }
    live: false
`;
    const [entry] = configHosts(parseConfig(yaml, "served.yaml")) as AppsHostEntry[];
    const host = entry!.create() as YamlWebHost;
    const before = host.serverUrl;
    assert.equal(before, null, "nothing listens before setup");
    await host.setup(headlessSetup({ appHtml: loadSuiteHtml }));
    let endpoints: readonly string[];
    try {
      assert.equal(host.serverUrl?.href, `http://127.0.0.1:${port}/mcp`);
      const serving = host.serving!;
      assert.equal(serving.secondServer?.url.href, `http://127.0.0.1:${second}/mcp`);
      assert.ok((await toolNames(host.serverUrl!)).includes("run_conformance"));
      assert.ok((await toolNames(serving.secondServer!.url)).includes("second_server_probe"));
      for (const origin of [serving.controls.declared, serving.controls.undeclared]) {
        assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/, "local control origins");
        assert.equal(await (await fetch(`${origin}/${CONTROL_FILES.text}`)).text(), "ok");
      }
      const log = host.serverLog!();
      assert.ok(
        log.clientInfo?.some((info) => info.name === "yaml-server-test"),
        JSON.stringify(log.clientInfo),
      );
      endpoints = serving.endpoints;
      assert.equal(endpoints.length, 4, endpoints.join(", "));
    } finally {
      await host.teardown();
    }
    for (const endpoint of endpoints) {
      assert.ok(await refused(endpoint), `${endpoint} still listens after teardown`);
    }
    assert.equal(host.serverUrl, null);

    // A port already taken: the setup fails saying so, and leaves nothing listening.
    const taken = Deno.listen({ hostname: "127.0.0.1", port });
    try {
      const busy = entry!.create() as YamlWebHost;
      await assert.rejects(
        busy.setup(headlessSetup({ appHtml: loadSuiteHtml })),
        new RegExp(
          `Host "served" could not start its conformance server: 127\\.0\\.0\\.1:${port} or .* is in use`,
        ),
      );
      assert.ok(await refused(`http://127.0.0.1:${second}`), "the second server did not stay up");
    } finally {
      taken.close();
    }
  } finally {
    abort.abort();
    await page.finished;
  }
});

Deno.test("a YAML host without server: has no serverLog and no server URL", () => {
  const [entry] = configHosts(
    parseConfig(launchYaml("http://127.0.0.1:1/"), "steps.yaml"),
  ) as AppsHostEntry[];
  const host = entry!.create() as YamlWebHost;
  assert.equal(host.serverLog, undefined);
  assert.equal(host.serverUrl, null);
});
