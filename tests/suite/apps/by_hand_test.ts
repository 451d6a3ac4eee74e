/**
 * Running the suite by hand: the questions a person gets, and a real headless run on the reference host where
 * nobody polls the channel, so the View's action card answers the requests.
 */
import assert from "node:assert/strict";
import { ReferenceHost } from "../../../hosts/web/reference.ts";
import type { SubtestResult, SuitePoll } from "../../../src/protocol.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import type { FrameSuiteBridge } from "../../../src/runner/suite_bridge.ts";
import { buildSuiteHtml } from "../../../suite/apps/build.ts";
import { questionFor } from "../../../suite/apps/harness/by_hand.ts";

Deno.test("a person is asked what a person can see; the rest answers unsupported", () => {
  assert.equal(questionFor({ kind: "readModelToolList" }), null);
  assert.equal(questionFor({ kind: "inspectFrame" }), null);
  assert.equal(questionFor({ kind: "triggerTeardown" }), null);
  assert.deepEqual(questionFor({ kind: "clickTrigger" })?.answers, []);
  const conversation = questionFor({ kind: "conversationContains", marker: "m-1", timeoutMs: 10 });
  assert.match(conversation?.prompt ?? "", /"m-1"/);
  assert.deepEqual(conversation?.answers.map((a) => a.result), [
    { ok: true, value: { found: true } },
    { ok: false, value: { found: false } },
  ]);
  const link = questionFor({ kind: "checkLinkOpen", url: "https://x.test/a" });
  assert.match(link?.prompt ?? "", /https:\/\/x\.test\/a/);
  assert.equal(link?.answers[1]?.result.ok, false);
  assert.match(questionFor({ kind: "toggleTheme", to: "dark" })?.prompt ?? "", /dark theme/);
});

Deno.test({
  name: "with no Runner polling, the View's action card takes a person's answers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const html = await buildSuiteHtml();
    const host = new ReferenceHost(null);
    let pid: number | null = null;
    let results: SubtestResult[] = [];
    await host.setup({
      headful: false,
      live: false,
      trace: "off",
      artifactsDir: null,
      timeoutMultiplier: 2,
      signal: new AbortController().signal,
      appHtml: () => html,
    });
    try {
      pid = host.browserPid;
      const { frame } = await host.launch("run_conformance") as FrameSuiteBridge;
      await frame.evaluate(() =>
        globalThis.__mcpConformance!.start({
          ids: ["visibility/app-tool-hidden", "context/theme-change-notify"],
        })
      );
      const card = frame.getByTestId("conformance-action");
      await card.waitFor({ state: "visible", timeout: 30_000 });
      assert.match(await card.textContent() ?? "", /dark theme/);
      // The person switches their system theme, then answers.
      await frame.page().emulateMedia({ colorScheme: "dark" });
      await card.getByRole("button", { name: "Done" }).click();
      const snapshot = () => (globalThis.__mcpConformance as unknown as { snapshot(): SuitePoll }).snapshot();
      await frame.waitForFunction(
        () =>
          (globalThis.__mcpConformance as unknown as { snapshot(): SuitePoll }).snapshot().state === "done",
        null,
        { timeout: 30_000, polling: 100 },
      );
      const done = await frame.evaluate(snapshot);
      results = done.state === "idle" ? [] : done.results;
    } finally {
      await host.teardown();
    }
    assert.deepEqual(results.map((r) => [r.id, r.status]), [
      ["visibility/app-tool-hidden", "SKIP"],
      ["context/theme-change-notify", "PASS"],
    ]);
    assert.match(results[0]!.message ?? "", /does not support "readModelToolList"/);
    assert.ok(pid !== null && !(await groupAlive(pid)), "the browser process group is gone");
  },
});
