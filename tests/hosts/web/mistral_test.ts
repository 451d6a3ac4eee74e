/**
 * The Le Chat host against a local stand-in of its DOM (never the product): the cookie banner dismissed, the
 * app's draft awaited in the composer and sent with the Send button, an open-link consent accepted with
 * "Confirm" and the new tab seen, and the browser's process group gone afterwards.
 */
import assert from "node:assert/strict";
import { MISTRAL } from "../../../hosts/web/mistral.ts";
import { chatProductHost } from "../../../hosts/web/chat_product.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import type { FrameSuiteBridge } from "../../../src/runner/suite_bridge.ts";
import { startProductPage } from "./_product_page.ts";

const context = () => ({ signal: new AbortController().signal, timeoutMs: 15_000 });

Deno.test({
  name: "mistral: banner, draft commit and link consent on a stand-in page",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using product = startProductPage({ flavour: "mistral", signedIn: true });
  const profile = await Deno.makeTempDir({ prefix: "conformance-profile-" });
  const host = chatProductHost(MISTRAL, {
    url: product.url,
    paceMs: 0,
    headless: true,
    renderTimeoutMs: 20_000,
  });
  await host.setup({
    headful: false,
    live: true,
    trace: "off",
    artifactsDir: null,
    timeoutMultiplier: 1,
    signal: new AbortController().signal,
    profileDir: profile,
  });
  const pid = host.browserPid;
  try {
    const bridge = await host.launch("run_conformance") as FrameSuiteBridge;
    assert.deepEqual(
      await host.clickTrigger({ kind: "clickTrigger", commitDraftedMessage: true }, context()),
      { ok: true },
    );
    const found = await host.conversationContains(
      { kind: "conversationContains", marker: "draft-marker-42", timeoutMs: 10_000 },
      context(),
    );
    assert.deepEqual(found.value, { found: true, text: "draft-marker-42" }, "the late draft was waited for");

    await bridge.frame.locator("#link").click();
    const opened = await host.checkLinkOpen({ kind: "checkLinkOpen", url: product.linkTarget }, context());
    assert.equal(opened.ok, true, JSON.stringify(opened));
    assert.deepEqual(await host.resetIsolation({}, context()), { ok: true });
    const missing = await host.checkLinkOpen(
      { kind: "checkLinkOpen", url: "http://localhost:1/never" },
      { ...context(), timeoutMs: 500 },
    );
    assert.equal(missing.ok, false, "a link that never opened is not reported as opened");
  } finally {
    await host.teardown();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
  assert.equal(await groupAlive(pid!), false, "no browser process is left");
});
