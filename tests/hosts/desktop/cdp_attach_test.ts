/**
 * The desktop attach path for real: a Chromium we start ourselves (own process group, --remote-debugging-port=0)
 * shows the reference host page, the `vscode` host attaches to it over CDP, finds the app frame among the
 * app's pages, and part of the catalogue runs through the Runner. Teardown must leave the attached app
 * running (it is the user's), and closing the app must leave no process of its group.
 */
import assert from "node:assert/strict";
import { startCdpProcess } from "../../../src/runner/cdp_process.ts";
import { VsCodeHost } from "../../../hosts/desktop/vscode.ts";
import { startReferenceListeners } from "../../../hosts/web/reference/listeners.ts";
import { loadSuiteHtml } from "../../../suite/apps/build.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import { loadPlaywright } from "../../../src/runner/playwright.ts";
import { Runner } from "../../../src/runner/runner.ts";
import { VSCODE_HOST } from "../../../hosts/desktop/vscode.ts";
import type { ConsoleMatch, ConversationMatch } from "../../../src/protocol.ts";
import type { BrowserContext } from "playwright-core";

const TESTS = [
  "lifecycle/initialize-result",
  "lifecycle/tool-input",
  "lifecycle/tool-result",
  "security/iframe-sandboxed",
  "security/csp-audit-log",
  "messages/add-to-conversation",
];

Deno.test({
  name: "vscode attaches over CDP to a Chromium showing the reference host and runs catalogue tests",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using listeners = await startReferenceListeners({ appHtml: loadSuiteHtml, variant: null });
  const app = await startCdpProcess({ headless: true });
  const pgid = app.pid;
  try {
    assert.ok(await groupAlive(pgid), "the app runs in its own process group");
    // The person at the keyboard: a second CDP client that opens the host page and later asks it to render
    // the app. (Attaching while the app is still loading its first URL makes connectOverCDP wait forever.)
    const { chromium } = await loadPlaywright();
    const user = await chromium.connectOverCDP(app.endpoint);
    const userPage = user.contexts()[0]!.pages()[0]!;
    await userPage.goto(listeners.hostPageUrl.href);
    await userPage.waitForFunction(() => globalThis.__referenceHost?.ready === true, null, {
      timeout: 30_000,
    });

    const host = new VsCodeHost({ endpoint: app.endpoint, paceMs: 0, renderTimeoutMs: 30_000 });
    const abort = new AbortController();
    await host.setup({
      headful: false,
      live: true,
      trace: "off",
      artifactsDir: null,
      timeoutMultiplier: 1,
      signal: abort.signal,
    });
    try {
      const launched = host.launch("run_conformance");
      await userPage.evaluate(() => void globalThis.__referenceHost!.launch("run_conformance"));
      const bridge = await launched;
      assert.ok((await bridge.listTests()).length > 40, "the suite's catalogue is listed through CDP");
      const results = await new Runner(host, { pollIntervalMs: 50 }).run(bridge, { ids: TESTS });
      const byId = new Map(results.map((result) => [result.id, result]));
      for (const id of TESTS) {
        const result = byId.get(id);
        assert.ok(result, `${id} has a result`);
        assert.equal(result.status, "PASS", `${id}: ${result.message}`);
      }
      const frame = await host.inspectFrame();
      assert.equal(frame.ok, true);
      assert.match(String((frame.value as { firstSandbox: string }).firstSandbox), /allow-scripts/);
      await everyWindowIsTheUsers(host, user.contexts()[0]!);
    } finally {
      await host.teardown();
    }
    assert.ok(await groupAlive(pgid), "detaching leaves the user's app running");
    assert.equal(userPage.isClosed(), false, "detaching closes none of the app's windows");
    await user.close();
  } finally {
    await app.close();
  }
  assert.equal(await groupAlive(pgid), false, `no process of group ${pgid} is left`);
  assert.deepEqual(
    await processesNaming(app.userDataDir),
    [],
    "no process outside the group uses its profile",
  );
});

/**
 * A window the user opens after the host attached is the app's too: its console and its conversation are read,
 * and resetting between tests leaves it open. Links and the theme are not the host's to drive in a desktop app.
 */
async function everyWindowIsTheUsers(host: VsCodeHost, app: BrowserContext): Promise<void> {
  const context = { signal: new AbortController().signal, timeoutMs: 5_000 };
  const second = await app.newPage();
  await second.setContent("<p>turn: second-window-marker</p>");
  await second.evaluate(() => console.log("logged in the second window"));
  const logged = await host.readConsole(
    { kind: "readConsole", pattern: "logged in the second window", timeoutMs: 5_000 },
    context,
  );
  assert.equal(logged.ok, true, "the console of a later window is read");
  assert.equal((logged.value as ConsoleMatch).matched, true);
  const said = await host.conversationContains(
    { kind: "conversationContains", marker: "second-window-marker", timeoutMs: 5_000 },
    context,
  );
  assert.equal(said.ok, true, "the conversation is read in every window");
  assert.equal((said.value as ConversationMatch).found, true);
  assert.deepEqual(await host.resetIsolation({}, context), { ok: true });
  assert.equal(second.isClosed(), false, "resetting between tests closes none of the app's windows");
  assert.deepEqual(
    await host.checkLinkOpen({ kind: "checkLinkOpen", url: "https://example.com/" }, context),
    { ok: false, unsupported: true },
    "a desktop app opens links in the OS browser",
  );
  assert.deepEqual(
    await host.toggleTheme({ kind: "toggleTheme", to: "dark" }),
    { ok: false, unsupported: true },
    "the app's theme is the user's",
  );
}

/** Command lines that mention `text` (a daemon that left the group would still name its profile). */
async function processesNaming(text: string): Promise<string[]> {
  const { stdout } = await new Deno.Command("ps", {
    detached: true,
    args: ["-eo", "args"],
    stdin: "null",
    stderr: "null",
  })
    .output();
  return new TextDecoder().decode(stdout).split("\n").filter((line) => line.includes(text));
}

Deno.test("a desktop host whose app is not running says how to start it", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const host = new VsCodeHost({ endpoint: `http://127.0.0.1:${port}`, paceMs: 0 });
  await assert.rejects(
    () =>
      host.setup({
        headful: false,
        live: true,
        trace: "off",
        artifactsDir: null,
        timeoutMultiplier: 1,
        signal: new AbortController().signal,
      }),
    (error: Error) => {
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}.*code --remote-debugging-port=9222`));
      assert.match(error.message, /CONFORMANCE_VSCODE_CDP/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    },
  );
  await host.teardown();
});

Deno.test("the vscode registry entry needs --live and checks its endpoint before a run", async () => {
  assert.equal(VSCODE_HOST.kind, "desktop");
  assert.ok(VSCODE_HOST.requiresLive);
  const previous = Deno.env.get("CONFORMANCE_VSCODE_CDP");
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  Deno.env.set("CONFORMANCE_VSCODE_CDP", `http://127.0.0.1:${port}`);
  try {
    const problem = await VSCODE_HOST.preflight!({});
    assert.ok(problem !== null);
    assert.match(problem, /start it with "code --remote-debugging-port=9222"/);
  } finally {
    if (previous === undefined) Deno.env.delete("CONFORMANCE_VSCODE_CDP");
    else Deno.env.set("CONFORMANCE_VSCODE_CDP", previous);
  }
});
