/**
 * `BrowserHost.browserSurvivors()` reports what a teardown left of the browser: the tests that assert "no
 * browser process survives teardown" (runner, reference variants, mcp-ui, Inspector) rely on it seeing a
 * survivor when there is one, so here a host whose close leaves its browser running must be caught.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  BrowserHost,
  type BrowserSession,
  type SharedBrowserSetupOptions,
} from "../../src/runner/browser_host.ts";
import type { HostSetupOptions, SuiteBridge } from "../../src/runner/host.ts";
import { chromiumPath, launchChromium } from "../../src/runner/chromium.ts";
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

for (const leaky of [true, false]) {
  Deno.test({
    name: leaky
      ? "in a shared browser, browserSurvivors() names it while the run's context is left open"
      : "in a shared browser, a teardown closes the run's context only, and nothing is reported",
    ignore: Deno.build.os !== "linux" || chromiumPath() === null,
    async fn() {
      const launched = await launchChromium();
      try {
        const host = new BlankHost(leaky);
        const options: SharedBrowserSetupOptions = {
          ...setupOptions(new AbortController().signal),
          sharedBrowser: { browser: launched.browser, pid: launched.pid },
        };
        await host.setup(options);
        assert.equal(host.browserPid, null, "a shared browser is not the run's own");
        assert.equal(launched.browser.contexts().length, 1);
        await host.teardown();
        const survivors = await host.browserSurvivors();
        assert.ok(launched.browser.isConnected(), "the teardown left the shared browser running");
        if (leaky) {
          assert.deepEqual(survivors, [launched.pid]);
          assert.equal(launched.browser.contexts().length, 1);
        } else {
          assert.deepEqual(survivors, []);
          assert.equal(launched.browser.contexts().length, 0);
        }
      } finally {
        await launched.close();
      }
      assert.deepEqual(await launched.survivors(), []);
    },
  });
}
