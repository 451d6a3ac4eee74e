/**
 * The claude.ai host against a local stand-in of its DOM (never the product): a persistent profile in its own
 * folder, the cookie banner dismissed before the composer is used, the tool call approved ("Allow once"), the
 * app found in its cross-origin frame, a drafted message accepted ("Replace current text?") and sent, the
 * conversation read, interactions paced, and the browser's process group gone afterwards.
 */
import assert from "node:assert/strict";
import { CLAUDE_AI } from "../../../hosts/web/claude_ai.ts";
import { chatProductHost } from "../../../hosts/web/chat_product.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import type { FrameInspection } from "../../../src/protocol.ts";
import type { FrameSuiteBridge } from "../../../src/runner/suite_bridge.ts";
import { startProductPage } from "./_product_page.ts";

const context = () => ({ signal: new AbortController().signal, timeoutMs: 15_000 });

Deno.test({
  name: "claude-ai: banner, prompt, approval, draft commit and conversation on a stand-in page, paced",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using product = startProductPage({ flavour: "claude", signedIn: true });
  const profile = await Deno.makeTempDir({ prefix: "conformance-profile-" });
  const gap = 200;
  const host = chatProductHost(CLAUDE_AI, {
    url: product.url,
    paceMs: gap,
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
    assert.ok(pid !== null && (await groupAlive(pid)));
    const before = host.interactions;
    const started = Date.now();
    const bridge = await host.launch("run_conformance") as FrameSuiteBridge;
    const elapsed = Date.now() - started;
    const paced = host.interactions - before;
    assert.ok(paced >= 2, `the launch went through the pacer (${paced} interactions)`);
    assert.ok(
      elapsed >= (paced - 1) * gap,
      `${paced} interactions took ${elapsed} ms, at least ${gap} ms apart`,
    );
    const page = bridge.frame.page();
    const sent = await page.evaluate(() => (globalThis as unknown as { __sent: string[] }).__sent);
    assert.deepEqual(sent, ["Call the run_conformance tool of the conformance connector now."]);

    const clicked = await host.clickTrigger({ kind: "clickTrigger", commitDraftedMessage: true }, context());
    assert.deepEqual(clicked, { ok: true });
    const found = await host.conversationContains(
      { kind: "conversationContains", marker: "draft-marker-42", timeoutMs: 10_000 },
      context(),
    );
    assert.deepEqual(found, { ok: true, value: { found: true, text: "draft-marker-42" } });
    const absent = await host.conversationContains(
      { kind: "conversationContains", marker: "never-said", timeoutMs: 300 },
      context(),
    );
    assert.deepEqual(absent, { ok: false, value: { found: false } }, "ok is the answer: not found");
    const frame = await host.inspectFrame();
    assert.equal((frame.value as FrameInspection).firstSandbox, "allow-scripts allow-same-origin");
    assert.ok(
      await Deno.stat(`${profile}/Default`).then(() => true, () => false),
      "the profile is in its folder",
    );
  } finally {
    await host.teardown();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
  assert.equal(await groupAlive(pid!), false, "no browser process is left");
});
