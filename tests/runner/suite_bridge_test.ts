/**
 * `FrameSuiteBridge.pollChange` in a real Chromium frame: it answers as soon as the suite's state moves past
 * what the Runner saw, and after its wait when nothing moves.
 */
import assert from "node:assert/strict";
import { chromiumPath, launchChromium } from "../../src/runner/chromium.ts";
import { FrameSuiteBridge } from "../../src/runner/suite_bridge.ts";

/** A stand-in channel: one running test whose request the test parks from outside. */
const CHANNEL_PAGE = `<!doctype html><script>
  let request = null, seq = 0;
  globalThis.park = (kind) => { request = { kind }; seq++; };
  globalThis.__mcpConformance = {
    listTests: () => [],
    start: () => {},
    resolve: () => { request = null; },
    poll: () => ({ state: "running", runningId: "t/one", request,
      ...(request ? { requestSeq: seq } : {}), results: [] }),
  };
</script>`;

Deno.test({
  name: "pollChange answers once a request is parked, and after its wait when nothing changes",
  ignore: chromiumPath() === null,
  async fn() {
    await using launched = await launchChromium();
    const page = await launched.browser.newPage();
    await page.setContent(CHANNEL_PAGE);
    const bridge = new FrameSuiteBridge(page.mainFrame());
    const seen = { results: 0, runningId: "t/one", request: "" };

    let started = performance.now();
    const quiet = await bridge.pollChange(seen, 400);
    assert.ok(performance.now() - started >= 400, "an unchanged suite is held for the whole wait");
    assert.equal(quiet.state === "running" && quiet.request, null);

    started = performance.now();
    const waiting = bridge.pollChange(seen, 20_000);
    await page.evaluate(() =>
      setTimeout(() => (globalThis as unknown as { park(kind: string): void }).park("inspectFrame"), 200)
    );
    const moved = await waiting;
    assert.ok(performance.now() - started < 15_000, "the change ends the wait long before it runs out");
    assert.ok(moved.state === "running" && moved.request?.kind === "inspectFrame", JSON.stringify(moved));
    assert.equal(moved.state === "running" ? moved.requestSeq : null, 1);

    // The same request again is no change; a new test id is.
    const parked = { ...seen, request: "1:inspectFrame" };
    started = performance.now();
    await bridge.pollChange(parked, 300);
    assert.ok(performance.now() - started >= 300, "the request the Runner already saw is no change");
    const other = await bridge.pollChange({ ...parked, runningId: "t/zero" }, 20_000);
    assert.equal(other.state === "running" && other.runningId, "t/one");
  },
});
