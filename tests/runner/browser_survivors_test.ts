/**
 * `BrowserHost.browserSurvivors()` reports what a teardown left of the browser: the tests that assert "no
 * browser process survives teardown" (runner, reference variants, mcp-ui, Inspector) rely on it seeing a
 * survivor when there is one, so here a host whose close leaves its browser running must be caught.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { BrowserHost, type BrowserSession } from "../../src/runner/browser_host.ts";
import type { HostSetupOptions, SuiteBridge } from "../../src/runner/host.ts";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { groupAlive } from "../../src/exec/process_group.ts";

/** A host on a blank page whose teardown, when `leaky`, forgets to close the browser. */
class BlankHost extends BrowserHost {
  readonly id = "blank";
  realClose: (() => Promise<void>) | null = null;
  constructor(private readonly leaky: boolean) {
    super();
  }
  protected override async startBrowser(options: HostSetupOptions): Promise<BrowserSession> {
    const session = await super.startBrowser(options);
    this.realClose = () => session.close();
    return this.leaky ? { ...session, close: () => Promise.resolve() } : session;
  }
  protected async open(page: Page): Promise<void> {
    await page.goto("about:blank");
  }
  launch(): Promise<SuiteBridge> {
    return Promise.reject(new Error("nothing to launch"));
  }
}

function setupOptions(signal: AbortSignal): HostSetupOptions {
  return {
    headful: false,
    live: false,
    trace: "off",
    artifactsDir: null,
    timeoutMultiplier: 1,
    signal,
  } as HostSetupOptions;
}

for (const leaky of [true, false]) {
  Deno.test({
    name: leaky
      ? "browserSurvivors() names the browser a teardown left running"
      : "browserSurvivors() is empty after a teardown that closed the browser",
    ignore: Deno.build.os !== "linux" || chromiumPath() === null,
    async fn() {
      const host = new BlankHost(leaky);
      await host.setup(setupOptions(new AbortController().signal));
      const pid = host.browserPid;
      assert.ok(pid !== null);
      try {
        await host.teardown();
        const survivors = await host.browserSurvivors();
        if (leaky) {
          assert.ok(survivors.includes(pid), `the browser ${pid} is reported: ${survivors.join(", ")}`);
        } else {
          assert.deepEqual(survivors, []);
          assert.equal(await groupAlive(pid), false);
        }
      } finally {
        await host.realClose?.();
      }
    },
  });
}
