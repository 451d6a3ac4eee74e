/**
 * A YAML web host (a {@linkcode YamlWebHost}, so its {@linkcode ChatHost} underneath) against a small local page
 * on loopback, for what only a page can show: `readConsole` also searching the host's own log pane (`log:`),
 * entry by entry, after its `reveal` steps, redacted and saying which source matched; a consent that is the
 * browser's own `confirm()` (`nativeDialogs:`) accepted only while it is serviced, every other dialog dismissed
 * and recorded; a link whose tab opened but could not load counted as opened.
 */
import assert from "node:assert/strict";
import { YamlWebHost } from "../../../hosts/web/yaml_host.ts";
import { parseConfig, type WebHostConfig } from "../../../src/config.ts";
import { cspAuditPattern } from "../../../src/fixtures.ts";
import type { ConsoleMatch } from "../../../src/protocol.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import type { CapabilityContext } from "../../../src/runner/host.ts";
import { FrameSuiteBridge } from "../../../src/runner/suite_bridge.ts";
import { TRIGGER_TEST_ID } from "../../../src/protocol.ts";
import type { Page } from "playwright-core";
import { headlessSetup } from "../../_settings.ts";

const RESOURCE = "ui://conformance/runner";
const DECLARED = "http://127.0.0.1:4000";
const SECRET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A monitor pane whose message bodies stay hidden until "Expand all" is pressed, as the MCP Inspector's do. */
const MONITOR_PAGE = `<!doctype html><meta charset="utf-8"><body>
<h1 id="ready">host</h1>
<button id="expand" onclick="document.querySelectorAll('.body').forEach((b) => b.hidden = false); this.remove()">
  Expand all</button>
<button id="collapse" onclick="document.querySelectorAll('.body').forEach((b) => b.hidden = true)">Collapse all</button>
<section id="monitor">
  <div class="entry">tools/call run_conformance <pre class="body" hidden>{ "name": "run_conformance" }</pre></div>
  <div class="entry">Refused to connect to '${DECLARED}/x' because it violates the following Content Security
    Policy directive: "connect-src 'none'" (${RESOURCE})</div>
  <div class="entry">resources/read ${RESOURCE} <pre class="body" hidden>{
  "headers": { "Authorization": "Bearer ${SECRET}" },
  "_meta": { "ui": { "csp": {
    "connectDomains": [
      "${DECLARED}"
    ] } } }
}</pre></div>
</section>
<script>if (location.search === "?console") console.log("CSP for ${RESOURCE}: connect-src ${DECLARED}");</script>
</body>`;

function serveMonitorPage(): { url: string } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(MONITOR_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}/`, [Symbol.asyncDispose]: () => server.shutdown() };
}

function hostConfig(url: string, log: string): WebHostConfig {
  const [config] = parseConfig(
    `hosts:
  - id: monitor-page
    kind: web
    url: ${url}
    launch: [{ waitFor: "#ready" }]
${log}    live: false
`,
    "monitor.yaml",
  ).hosts;
  assert.ok(config?.kind === "web");
  return config;
}

const SETUP = headlessSetup();

/** `readConsole` with the CSP audit pattern on a fresh host for `config`. */
async function readCsp(config: WebHostConfig): Promise<ConsoleMatch> {
  const host = new YamlWebHost(config, { headless: true });
  await host.setup(SETUP);
  try {
    const context: CapabilityContext = { signal: new AbortController().signal, timeoutMs: 2_000 };
    const pattern = cspAuditPattern(RESOURCE, [DECLARED]);
    const answer = await host.readConsole({ kind: "readConsole", pattern, timeoutMs: 1_500 }, context);
    assert.equal(answer.error, undefined, answer.error);
    assert.equal(
      answer.ok,
      (answer.value as ConsoleMatch).matched,
      "ok is the answer: whether a line matched",
    );
    return answer.value as ConsoleMatch;
  } finally {
    await host.teardown();
  }
}

const REVEALED_ENTRIES = `    log:
      selector: "#monitor"
      entry: ".entry"
      reveal: [{ click: "#expand", optional: true, timeoutMs: 5000 }]
`;

Deno.test({
  name: "readConsole also searches the host's log pane, entry by entry, after its reveal steps, redacted",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using page = serveMonitorPage();
  const found = await readCsp(hostConfig(page.url, REVEALED_ENTRIES));
  assert.equal(found.matched, true, "the revealed resources/read entry names the resource and shows its csp");
  assert.equal(found.source, "log");
  assert.match(
    found.line ?? "",
    new RegExp(`^resources/read ${RESOURCE} \\{ "headers"`),
    "one line per entry",
  );
  assert.match(found.line ?? "", /"connectDomains": \[ "http:\/\/127\.0\.0\.1:4000" \]/);
  assert.ok(!found.line?.includes(SECRET), `credentials are redacted: ${found.line}`);

  // Collapsed, the entry shows no CSP; the violation report names both but never counts.
  const collapsed = REVEALED_ENTRIES.replace(/ {6}reveal: .*\n/, "");
  assert.deepEqual(await readCsp(hostConfig(page.url, collapsed)), { matched: false });
  // Line by line, pretty-printed JSON splits the CSP from the origin: an entry is one message.
  const byLine = REVEALED_ENTRIES.replace(/ {6}entry: .*\n/, "");
  assert.deepEqual(await readCsp(hostConfig(page.url, byLine)), { matched: false });
  // Without log: only the console counts.
  assert.deepEqual(await readCsp(hostConfig(page.url, "")), { matched: false });
});

Deno.test({
  name: "with a log pane, a console line still matches first and says it came from the console",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using page = serveMonitorPage();
  const found = await readCsp(hostConfig(`${page.url}?console`, REVEALED_ENTRIES));
  assert.deepEqual(found, {
    matched: true,
    line: `log: CSP for ${RESOURCE}: connect-src ${DECLARED}`,
    source: "console",
  });
});

Deno.test("log: is schema-checked: a selector, entries and reveal steps, no stray keys", () => {
  const parse = (log: string) => () => hostConfig("http://127.0.0.1:9/", log);
  assert.throws(parse(`    log: { selector: "" }\n`), /log\.selector/);
  assert.throws(parse(`    log: { selector: "#m", entries: ".e" }\n`), /entries/);
  assert.throws(parse(`    log: { selector: "#m", reveal: [{ clik: "#x" }] }\n`), /did you mean "click"/);
  assert.throws(
    parse(`    log: { selector: "#m", reveal: [{ click: "{serverUrl}" }] }\n`),
    /log\.reveal.*serverUrl/,
  );
  assert.throws(
    parse(`    log: { selector: "#m", conceal: [{ click: "{serverUrl}" }] }\n`),
    /log\.conceal.*serverUrl/,
  );
  assert.deepEqual(hostConfig("http://127.0.0.1:9/", `    log: { selector: "#m" }\n`).log, {
    selector: "#m",
  });
});

/** A link on loopback where nothing listens: its tab opens but ends on the browser's error page. */
const UNREACHABLE_LINK = "http://127.0.0.1:9/conformance/link.html?n=7";

/** A page whose download consent is `confirm()`, as the MCP Inspector's is; its trigger asks for a download. */
const CONFIRM_PAGE = `<!doctype html><meta charset="utf-8"><body>
<h1 id="ready">host</h1>
<button data-testid="${TRIGGER_TEST_ID}" onclick="download()">trigger</button>
<button id="open-unreachable" onclick="window.open('${UNREACHABLE_LINK}', '_blank')">link</button>
<script>
  globalThis.answers = [];
  function download() {
    const yes = confirm("Download report.txt?");
    answers.push(yes);
    if (!yes) return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob(["conformance download"], { type: "text/plain" }));
    a.download = "report.txt";
    document.body.append(a);
    a.click();
  }
</script></body>`;

/** A YAML host whose page is its own View, so its trigger is clickable without a render. */
class ConfirmPageHost extends YamlWebHost {
  /** A short hold keeps the tests quick; what is held and when is the same as with the default. */
  protected override get consentHoldMs(): number {
    return 1_000;
  }
  get hostPage(): Page {
    return this.page;
  }
  attachPageAsView(): void {
    this.bridge = new FrameSuiteBridge(this.page.mainFrame());
  }
}

async function withConfirmPage(
  nativeDialogs: string,
  body: (host: ConfirmPageHost, context: CapabilityContext) => Promise<void>,
): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(CONFIRM_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  const host = new ConfirmPageHost(hostConfig(`http://127.0.0.1:${server.addr.port}/`, nativeDialogs), {
    headless: true,
  });
  try {
    await host.setup(SETUP);
    host.attachPageAsView();
    await body(host, { signal: new AbortController().signal, timeoutMs: 5_000 });
  } finally {
    await host.teardown();
    await server.shutdown();
  }
}

const answers = (host: ConfirmPageHost) =>
  host.hostPage.evaluate(() => (globalThis as { answers?: boolean[] }).answers);

Deno.test({
  name:
    "nativeDialogs: the click asking for the consent arms it, confirmDialog gets the file, other dialogs are dismissed",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await withConfirmPage("    nativeDialogs: [download]\n", async (host, context) => {
    // A dialog nobody is servicing: held for a consent request that never comes, then dismissed, and
    // recorded in the console record; an alert() is dismissed at once.
    assert.equal(await host.hostPage.evaluate(() => confirm("Stray question?")), false);
    assert.ok(
      host.consoleLines.includes(
        'dialog: dismissed confirm "Stray question?" after holding it for a consent nobody claimed',
      ),
      `${host.consoleLines}`,
    );
    await host.hostPage.evaluate(() => alert("Stray alert"));
    assert.ok(host.consoleLines.includes('dialog: dismissed alert "Stray alert"'), `${host.consoleLines}`);
    // A click that does not say it asks for the download consent answers at once; unclaimed, its dialog
    // is dismissed.
    assert.deepEqual(await host.clickTrigger({ kind: "clickTrigger" }, context), { ok: true });
    assert.deepEqual(await answers(host), [false]);

    assert.deepEqual(await host.clickTrigger({ kind: "clickTrigger", consent: "download" }, context), {
      ok: true,
    });
    const answer = await host.confirmDialog({ kind: "confirmDialog", dialog: "download" }, context);
    assert.deepEqual(answer, {
      ok: true,
      value: { filename: "report.txt", content: "conformance download" },
    });
    assert.deepEqual(await answers(host), [false, true]);
    assert.ok(
      host.consoleLines.includes('dialog: accepted as the download consent confirm "Download report.txt?"'),
    );

    // Serviced: the gate is closed again (held, unclaimed, dismissed).
    assert.equal(await host.hostPage.evaluate(() => confirm("After the consent?")), false);
  });
});

Deno.test({
  name:
    "nativeDialogs: an unannounced confirm() is held open for the confirmDialog that follows (upstream's order)",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await withConfirmPage("    nativeDialogs: [download]\n", async (host, context) => {
    // No consent hint, as an upstream suite sends it: the click answers while its confirm() is held.
    assert.deepEqual(await host.clickTrigger({ kind: "clickTrigger" }, context), { ok: true });
    assert.deepEqual(await host.confirmDialog({ kind: "confirmDialog", dialog: "download" }, context), {
      ok: true,
      value: { filename: "report.txt", content: "conformance download" },
    });
    assert.deepEqual(await answers(host), [true]);
    assert.ok(
      host.consoleLines.includes(
        'dialog: accepted as the download consent confirm "Download report.txt?" after holding it',
      ),
      `${host.consoleLines}`,
    );
  });
});

Deno.test({
  name:
    "nativeDialogs: a confirmDialog the click did not announce waits for the dialog; none opens: an error",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await withConfirmPage("    nativeDialogs: [download]\n", async (host, context) => {
    const answer = host.confirmDialog({ kind: "confirmDialog", dialog: "download" }, context);
    await host.hostPage.getByTestId(TRIGGER_TEST_ID).click();
    assert.deepEqual(await answer, {
      ok: true,
      value: { filename: "report.txt", content: "conformance download" },
    });
    const none = await host.confirmDialog({ kind: "confirmDialog", dialog: "download" }, {
      ...context,
      timeoutMs: 300,
    });
    assert.deepEqual(none, {
      ok: false,
      error: "monitor-page opened no browser dialog for the download consent",
    });
  });
  // Without nativeDialogs (and without labels) the host cannot accept it, and a dialog is still dismissed.
  await withConfirmPage("", async (host, context) => {
    assert.deepEqual(await host.confirmDialog({ kind: "confirmDialog", dialog: "download" }, context), {
      ok: false,
      unsupported: true,
    });
    assert.deepEqual(await host.clickTrigger({ kind: "clickTrigger", consent: "download" }, context), {
      ok: true,
    });
    assert.deepEqual(await answers(host), [false]);
  });
});

Deno.test("nativeDialogs: is schema-checked, each consent once, never also given button labels", () => {
  const parse = (yaml: string) => () => hostConfig("http://127.0.0.1:9/", yaml);
  assert.throws(parse("    nativeDialogs: [downlaod]\n"), /nativeDialogs/);
  assert.throws(parse("    nativeDialogs: [link, link]\n"), /name each consent once/);
  assert.throws(
    parse("    nativeDialogs: [download]\n    dialogs: { download: [Save] }\n"),
    /dialogs\.download.*browser dialog/,
  );
  assert.deepEqual(hostConfig("http://127.0.0.1:9/", "").nativeDialogs, []);
});

Deno.test({
  name: "checkLinkOpen counts a tab that opened the link but could not load it (its navigation request)",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await withConfirmPage("", async (host, context) => {
    const request = { kind: "checkLinkOpen", url: UNREACHABLE_LINK } as const;
    assert.deepEqual(await host.checkLinkOpen(request, { ...context, timeoutMs: 300 }), {
      ok: false,
      error: `No tab opened ${UNREACHABLE_LINK}`,
      value: { opened: false },
    });
    await host.hostPage.click("#open-unreachable");
    assert.deepEqual(await host.checkLinkOpen(request, context), {
      ok: true,
      value: { opened: true, url: UNREACHABLE_LINK },
    });
    const [, tab] = host.hostPage.context().pages();
    assert.match(tab?.url() ?? "", /^chrome-error:/, "the tab itself shows only the browser's error page");
  });
});

Deno.test({
  name: "log: conceal steps put the pane back after the read",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using page = serveMonitorPage();
  const log = `${REVEALED_ENTRIES}      conceal: [{ click: "#collapse" }]\n`;
  const host = new ConfirmPageHost(hostConfig(page.url, log), { headless: true });
  await host.setup(SETUP);
  try {
    const pattern = cspAuditPattern(RESOURCE, [DECLARED]);
    const context: CapabilityContext = { signal: new AbortController().signal, timeoutMs: 2_000 };
    const answer = await host.readConsole({ kind: "readConsole", pattern, timeoutMs: 1_500 }, context);
    assert.equal((answer.value as ConsoleMatch).source, "log", JSON.stringify(answer));
    const shown = await host.hostPage.evaluate(() => document.querySelectorAll(".body:not([hidden])").length);
    assert.equal(shown, 0, "the entries are collapsed again");
  } finally {
    await host.teardown();
  }
});
