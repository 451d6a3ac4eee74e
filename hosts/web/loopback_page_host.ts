/**
 * {@linkcode LoopbackPageHost}: a browser host whose host page this process serves on loopback with the
 * conformance MCP server (the reference and `mcp-ui` hosts). The listeners start while the browser launches,
 * `open` waits for them, teardown closes them after the browser; links the page opens are its tabs.
 *
 * @module
 */
import type { Page } from "playwright-core";
import type { ServerLog } from "../../src/fixtures.ts";
import type { CapabilityResult } from "../../src/protocol.ts";
import { BrowserHost } from "../../src/runner/browser_host.ts";
import type { CapabilityContext, HostSetupOptions, RequestOf } from "../../src/runner/host.ts";
import type { ConformanceServer } from "../../src/server/server.ts";
import { OpenedTabs } from "./opened_tabs.ts";

/** What a host page's listeners give the host. */
export interface PageListeners {
  readonly hostPageUrl: URL;
  readonly server: ConformanceServer;
  /** One URL per listener. */
  readonly endpoints: readonly string[];
  close(): Promise<void>;
}

/**
 * A browser host serving its own host page: a subclass says how its listeners start and how its page loads.
 *
 * @example
 * ```ts ignore
 * class MyHost extends LoopbackPageHost<MyListeners> {
 *   readonly id = "mine";
 *   protected startListeners(appHtml: () => string | Promise<string>) {
 *     return import("./mine/listeners.ts").then(({ startMyListeners }) => startMyListeners({ appHtml }));
 *   }
 *   protected async loadHostPage(page: Page) {
 *     await page.goto(this.listeners.hostPageUrl.href);
 *   }
 * }
 * ```
 */
export abstract class LoopbackPageHost<L extends PageListeners> extends BrowserHost {
  #listeners: L | null = null;
  /** The listeners while they start (alongside the browser), until `open` or `teardown` takes them over. */
  #listening: Promise<L> | null = null;
  /** The tabs the host page opened, for `checkLinkOpen`; `resetIsolation` clears them. */
  protected readonly tabs = new OpenedTabs();

  /**
   * Starts this host's listeners, serving `appHtml` as the app resource (a host whose entry says
   * `suiteServers` connects to `suiteServer` instead, when given). Called at setup: import the
   * listeners' module lazily there, so commands that only list hosts load no server SDK or esbuild.
   */
  protected abstract startListeners(
    appHtml: () => string | Promise<string>,
    suiteServer?: string,
  ): Promise<L>;

  /** Loads the host page in `page` and waits until it is ready; throws when it cannot connect. */
  protected abstract loadHostPage(page: Page): Promise<void>;

  /** The listeners, once `open` took them over. */
  protected get listeners(): L {
    if (this.#listeners === null) throw new Error(`Host "${this.id}" is not set up`);
    return this.#listeners;
  }

  /** Starts the listeners alongside the browser. */
  override async setup(options: HostSetupOptions): Promise<void> {
    const appHtml = options.appHtml;
    if (appHtml === undefined) {
      throw new TypeError(`Host "${this.id}" needs the suite HTML: pass appHtml in the setup options`);
    }
    this.#listening = this.startListeners(appHtml, options.suiteServer);
    this.#listening.catch(() => {});
    // On failure, BrowserHost.setup runs this.teardown(), which closes the listeners too.
    await super.setup(options);
  }

  /** Waits for the listeners, watches the tabs the page opens and loads the host page once. */
  protected async open(page: Page): Promise<void> {
    this.#listeners = await this.#listening!;
    this.tabs.watch(page);
    await this.loadHostPage(page);
  }

  /** Every loopback URL this host listens on while set up (for tests proving they close). */
  get endpoints(): readonly string[] {
    return this.#listeners?.endpoints ?? [];
  }

  /** What the conformance MCP server saw: the harness's own vantage, read directly (it runs the server). */
  serverLog(): ServerLog {
    return this.listeners.server.log.snapshot();
  }

  /** Whether the host page opened `url` in a new tab (now or within the deadline). */
  async checkLinkOpen(
    request: RequestOf<"checkLinkOpen">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    return await this.tabs.waitFor(request.url, context);
  }

  /** Closes the browser, then every listener. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      const listeners = this.#listeners ?? await this.#listening?.catch(() => null);
      this.#listeners = null;
      this.#listening = null;
      await listeners?.close();
    }
  }
}
