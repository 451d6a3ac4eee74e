import assert from "node:assert/strict";
import { ReferenceHost } from "../../hosts/web/reference.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { Runner } from "../../src/runner/runner.ts";
import { miniSuiteHtml } from "./mini_suite_html.ts";

function setupOptions(signal: AbortSignal) {
  return {
    headful: false,
    live: false,
    trace: "off" as const,
    artifactsDir: null,
    timeoutMultiplier: 1,
    signal,
    appHtml: miniSuiteHtml,
  };
}

Deno.test("the Runner drives an in-page suite on the reference host through poll, dispatch and resolve", async () => {
  const host = new ReferenceHost();
  const abort = new AbortController();
  let pid: number | null = null;
  try {
    await host.setup(setupOptions(abort.signal));
    pid = host.browserPid;
    assert.ok(pid !== null && await groupAlive(pid), "the browser runs in its own process group");
    const bridge = await host.launch("run_conformance");
    const listed = await bridge.listTests();
    assert.equal(listed.length, 6);
    const requests: string[] = [];
    const runner = new Runner(host, { onRequest: (request) => requests.push(request.kind) });
    const results = await runner.run(bridge, null);
    const byId = Object.fromEntries(results.map((result) => [result.id, result]));
    for (const result of results) assert.equal(result.status, "PASS", `${result.id}: ${result.message}`);
    assert.equal(results.length, 6);
    assert.equal(byId["mini/theme"]?.manual, true);
    assert.deepEqual(requests, [
      "readModelToolList",
      "readConsole",
      "resetIsolation",
      "toggleTheme",
      "resetIsolation",
      "clickTrigger",
      "conversationContains",
    ]);
  } finally {
    await host.teardown();
  }
  assert.ok(pid !== null && !(await groupAlive(pid)), "the browser's process group is gone");
  assert.deepEqual(
    await host.browserSurvivors(),
    [],
    "no browser process (crashpad included) survives teardown",
  );
});
