/**
 * The upstream-shaped suite (tests/suite/upstream_shaped/view.ts) through this project's Runner on the
 * reference host: a View that reads every answer the way an upstream suite does, one test per request kind,
 * positive and negative. The reference host is conformant, so every verdict must be PASS; a Runner answer
 * with the old meanings (a miss as `ok: true`, tool names inside `{ tools }`, no `viewSandboxed`, a thrown
 * error for `open-link` or an unknown kind) FAILs one of them.
 */
import { inspectorInstalled } from "../hosts/web/_inspector.ts";
import assert from "node:assert/strict";
import { McpInspectorHost } from "../../hosts/web/mcp_inspector.ts";
import { ReferenceHost } from "../../hosts/web/reference.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { Runner } from "../../src/runner/runner.ts";
import { viewHtml } from "../runner/mini_suite_html.ts";
import { INSPECTOR_VERDICTS, UPSTREAM_SHAPED_IDS } from "./upstream_shaped/verdicts.ts";

const KINDS_COVERED = [
  "clickTrigger",
  "conversationContains",
  "readConsole",
  "readModelToolList",
  "inspectFrame",
  "toggleTheme",
  "confirmDialog",
  "checkLinkOpen",
  "resetIsolation",
  "summonWeather",
];

Deno.test({
  name: "an upstream-shaped suite draws the right verdict from every answer on the reference host",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const host = new ReferenceHost();
  const abort = new AbortController();
  let pid: number | null = null;
  try {
    await host.setup({
      headful: false,
      live: false,
      trace: "off",
      artifactsDir: null,
      timeoutMultiplier: 1,
      signal: abort.signal,
      appHtml: () => viewHtml(new URL("./upstream_shaped/view.ts", import.meta.url)),
    });
    pid = host.browserPid;
    const bridge = await host.launch("run_conformance");
    const listed = await bridge.listTests();
    assert.deepEqual(listed.map((test) => test.id), UPSTREAM_SHAPED_IDS);
    const asked = new Set<string>();
    const runner = new Runner(host, { onRequest: (request) => asked.add(request.kind) });
    const results = await runner.run(bridge, null);
    assert.deepEqual(results.map((result) => result.id).sort(), listed.map((test) => test.id).sort());
    for (const result of results) assert.equal(result.status, "PASS", `${result.id}: ${result.message}`);
    assert.deepEqual([...asked].sort(), [...KINDS_COVERED].sort(), "one test per request kind");
  } finally {
    await host.teardown();
  }
  assert.ok(pid !== null && !(await groupAlive(pid)), "the browser's process group is gone");
});

Deno.test({
  name: "the upstream-shaped suite on the MCP Inspector: its download confirm() is held for the consent",
  ignore: !inspectorInstalled() || chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const host = new McpInspectorHost();
  const abort = new AbortController();
  try {
    await host.setup({
      headful: false,
      live: false,
      trace: "off",
      artifactsDir: null,
      timeoutMultiplier: 1,
      signal: abort.signal,
      appHtml: () => viewHtml(new URL("./upstream_shaped/view.ts", import.meta.url)),
    });
    const bridge = await host.launch("run_conformance");
    const results = await new Runner(host).run(bridge, null);
    const wrong = results.filter((result) => !(INSPECTOR_VERDICTS[result.id] ?? []).includes(result.status));
    assert.deepEqual(wrong.map((result) => `${result.id}: ${result.status} ${result.message ?? ""}`), []);
    assert.equal(results.length, Object.keys(INSPECTOR_VERDICTS).length);
  } finally {
    await host.teardown();
  }
  const pid = host.inspectorPid;
  assert.ok(pid !== null && !(await groupAlive(pid)), "the Inspector's process group is gone");
});
