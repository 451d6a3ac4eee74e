/**
 * The ChatGPT host against a local stand-in of its DOM (never the product): a signed-out profile stops setup
 * with what to do; signed in, the "Got it" banner is dismissed, the prompt goes into `#prompt-textarea`, the
 * write-action "Confirm" is clicked, the app's message is read from the `[data-message-author-role]` turns,
 * and the browser's process group is gone afterwards.
 */
import assert from "node:assert/strict";
import { CHATGPT } from "../../../hosts/web/chatgpt.ts";
import { chatProductHost } from "../../../hosts/web/chat_product.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import type { HostSetupOptions } from "../../../src/runner/host.ts";
import type { FrameSuiteBridge } from "../../../src/runner/suite_bridge.ts";
import { startProductPage } from "./_product_page.ts";

const context = () => ({ signal: new AbortController().signal, timeoutMs: 15_000 });
const setup = (profileDir: string): HostSetupOptions => ({
  headful: false,
  live: true,
  trace: "off",
  artifactsDir: null,
  timeoutMultiplier: 1,
  signal: new AbortController().signal,
  profileDir,
});
const options = { ignore: chromiumPath() === null, sanitizeResources: false, sanitizeOps: false };

Deno.test({
  ...options,
  name: "chatgpt: a signed-out profile stops setup with the login command, and leaves no browser",
}, async () => {
  await using product = startProductPage({ flavour: "chatgpt", signedIn: false });
  const profile = await Deno.makeTempDir({ prefix: "conformance-profile-" });
  const host = chatProductHost(CHATGPT, { url: product.url, paceMs: 0, headless: true });
  try {
    await assert.rejects(
      () => host.setup({ ...setup(profile), timeoutMultiplier: 0.1 }),
      /ChatGPT shows no signed-in session \(profile ".*"\): run "conformance login --host chatgpt"/,
    );
    assert.equal(host.browserPid, null, "setup cleaned up after itself");
  } finally {
    await host.teardown();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  ...options,
  name: "chatgpt: banner, prompt, Confirm, and the app's message in the turns on a stand-in page",
}, async () => {
  await using product = startProductPage({ flavour: "chatgpt", signedIn: true });
  const profile = await Deno.makeTempDir({ prefix: "conformance-profile-" });
  const host = chatProductHost(CHATGPT, {
    url: product.url,
    paceMs: 0,
    headless: true,
    renderTimeoutMs: 20_000,
  });
  await host.setup(setup(profile));
  const pid = host.browserPid;
  try {
    const bridge = await host.launch("run_conformance_nocsp") as FrameSuiteBridge;
    const sent = await bridge.frame.page().evaluate(() =>
      (globalThis as unknown as { __sent: string[] }).__sent
    );
    assert.deepEqual(sent, ["Use the conformance connector: call its run_conformance_nocsp tool now."]);
    assert.deepEqual(await host.clickTrigger({ kind: "clickTrigger" }, context()), { ok: true });
    const found = await host.conversationContains(
      { kind: "conversationContains", marker: "draft-marker-42", timeoutMs: 10_000 },
      context(),
    );
    // The stand-in marks its turns as ChatGPT does (data-message-author-role): the draft is a user turn.
    assert.deepEqual(found.value, { found: true, text: "draft-marker-42", role: "user" });
    assert.deepEqual(
      await host.confirmDialog({ kind: "confirmDialog", dialog: "sampling" }, context()),
      { ok: false, unsupported: true },
      "ChatGPT offers no sampling, so that test SKIPs",
    );
    assert.deepEqual(await host.toggleTheme({ kind: "toggleTheme", to: "dark" }), { ok: true });
    assert.equal(
      await bridge.frame.page().evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches),
      true,
      "ChatGPT's System theme follows the OS scheme, which the host switches",
    );
  } finally {
    await host.teardown();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
  assert.equal(await groupAlive(pid!), false, "no browser process is left");
});
