/**
 * The `mcp-ui` host: a host page written as the `@mcp-ui/client` 7.1.1 documentation writes one (its Client
 * SDK Walkthrough: an SDK 1.x client, a React `App` listing the tools with UI, a `ToolUI` rendering the chosen
 * one with `AppRenderer`, the walkthrough's sandbox proxy page), served in this process on loopback with the
 * conformance MCP server and driven headless. It stands for the products built on that SDK; its page source
 * is `hosts/web/mcp_ui/`.
 *
 * It services only what such a page can do through its own DOM and the browser: the View's trigger, the OS
 * colour scheme, the frame element, the console, the tab a link opens. The page shows no conversation (the
 * walkthrough's `onMessage` logs to the console) and has no teardown, cancel or partial-input control, so
 * those requests answer unsupported.
 *
 * @module
 */
import type { Frame, Page } from "playwright-core";
import type { AppsHostEntry } from "../../src/host.ts";
import type { CapabilityKind, CapabilityResult, LauncherName } from "../../src/protocol.ts";
import type { SuiteBridge } from "../../src/runner/host.ts";
import { FrameSuiteBridge } from "../../src/runner/suite_bridge.ts";
import { APPS_DEADLINES } from "../../src/runner/deadlines.ts";
import { scaled } from "../../src/time.ts";
import { findAppFrame, inspectAppFrame } from "./app_frames.ts";
import type { McpUiListeners } from "./mcp_ui/listeners.ts";
import { TOOLS_HEADING } from "./mcp_ui/page_config.ts";
import { LoopbackPageHost } from "./loopback_page_host.ts";
import { SANDBOX_PROXY_TITLE } from "./mcp_ui/sandbox_proxy.ts";

/** How long a theme switch in `resetIsolation` may take to reach a View that shows one. */
const THEME_SETTLE_MS = 1_000;

/** A host page built on `@mcp-ui/client`'s `AppRenderer`, as its documentation shows. */
export class McpUiHost extends LoopbackPageHost<McpUiListeners> {
  readonly id = "mcp-ui";
  #seenFrames = new Set<Frame>();
  #stalledRenders = 0;

  protected startListeners(appHtml: () => string | Promise<string>): Promise<McpUiListeners> {
    return import("./mcp_ui/listeners.ts").then(({ startMcpUiListeners }) =>
      startMcpUiListeners({ appHtml })
    );
  }

  /** Loads the host page (at setup: a page that cannot connect fails the setup, not the first test). */
  protected async loadHostPage(page: Page): Promise<void> {
    await page.goto(this.listeners.hostPageUrl.href, {
      timeout: scaled(APPS_DEADLINES.hostPageGotoMs, this.options.timeoutMultiplier),
    });
    const listed = page.getByRole("heading", { name: TOOLS_HEADING });
    const failed = page.getByText(/^Error: /);
    const timeout = scaled(APPS_DEADLINES.hostPageLoadMs, this.options.timeoutMultiplier);
    await listed.or(failed).first().waitFor({ timeout });
    if (await failed.count() > 0) {
      throw new Error(`The mcp-ui host page could not connect: ${await failed.first().innerText()}`);
    }
  }

  /**
   * Renders `launcher` the way a user of the page does: a click on its button in the tool list. Every launch
   * but the first starts from a fresh page load (a new session): the walkthrough's `App` keeps one `ToolUI`,
   * and `AppRenderer` keeps its bridge and sandbox frame across a change of tool, so on the same page the
   * second tool's result and HTML go to the first tool's View and the second View never renders (seen here).
   */
  async launch(launcher: LauncherName): Promise<SuiteBridge> {
    const page = this.page;
    if (this.bridge !== null) await this.loadHostPage(page);
    let frame = await this.#click(page, launcher, 10_000).catch(async (error: unknown) => {
      if (!await this.#stalled(page)) throw error;
      // A user facing the blank frame reloads and tries again; so does the harness, once.
      this.#stalledRenders++;
      await this.loadHostPage(page);
      return null;
    });
    frame ??= await this.#click(page, launcher, 15_000);
    this.bridge = new FrameSuiteBridge(frame);
    return this.bridge;
  }

  /**
   * How many renders stayed blank and were launched again. `AppRenderer`'s frame setup keys on the identity
   * of `sandbox.url`, which the documented `ToolUI` creates anew on every render: when the tool result
   * arrives while the sandbox proxy loads, the re-render cancels the setup, and the setup run again finds
   * the frame in place and stops, so the bridge never connects and the View stays blank, with no error.
   */
  get stalledRenders(): number {
    return this.#stalledRenders;
  }

  async #click(page: Page, launcher: LauncherName, timeoutMs: number): Promise<Frame> {
    for (const frame of page.frames()) this.#seenFrames.add(frame);
    await page.getByRole("button", { name: launcher, exact: true }).click({ timeout: 10_000 });
    return await findAppFrame(() => [page], {
      timeoutMs: scaled(timeoutMs, this.options.timeoutMultiplier),
      exclude: this.#seenFrames,
      signal: this.options.signal,
      intervalMs: 100,
    });
  }

  /** Whether the page holds a sandbox frame that still shows the proxy's own page: the render stalled. */
  async #stalled(page: Page): Promise<boolean> {
    const frames = page.frames().filter((frame) => frame !== page.mainFrame() && !frame.isDetached());
    const titles = await Promise.all(frames.map((frame) => frame.title().catch(() => null)));
    return titles.includes(SANDBOX_PROXY_TITLE);
  }

  /** The View's outermost frame element on the page, and the frame chain down to the View. */
  override async inspectFrame(): Promise<CapabilityResult> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return { ok: false, error: "No View is rendered" };
    return { ok: true, value: await inspectAppFrame(bridge.frame) };
  }

  /** Between manual tests: tabs the View opened are closed, and the OS colour scheme is light again. */
  async resetIsolation(): Promise<CapabilityResult> {
    for (const page of this.page.context().pages()) if (page !== this.page) await page.close();
    this.tabs.clear();
    await this.restoreLightScheme(THEME_SETTLE_MS);
    return { ok: true };
  }

  /** Closes the browser, then every listener. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      this.#seenFrames.clear();
    }
  }
}

/** What the `mcp-ui` host services; every other request answers unsupported. */
const CAPABILITIES: readonly CapabilityKind[] = [
  "clickTrigger",
  "checkLinkOpen",
  "toggleTheme",
  "inspectFrame",
  "readConsole",
  "resetIsolation",
];

/** The registry entry of the `mcp-ui` host. */
export const MCP_UI_HOST: AppsHostEntry = {
  id: "mcp-ui",
  kind: "web",
  summary: "A host page written as the @mcp-ui/client 7.1.1 docs show (React AppRenderer; headless Chromium)",
  capabilities: CAPABILITIES,
  create: () => new McpUiHost(),
};
