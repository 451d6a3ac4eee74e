/**
 * The reference host: a local, strictly conformant MCP Apps web host (the embedded default), and its broken
 * variants (`reference:<variant>`), each flipping one behaviour. Everything runs in this process on loopback
 * (host page, sandbox proxy on a distinct origin, CSP control origins, two conformance MCP servers) plus one
 * headless Chromium.
 *
 * @module
 */
import type { Frame, Page } from "playwright-core";
import type { AppsHostEntry } from "../../src/host.ts";
import {
  CAPABILITY_KINDS,
  type CapabilityResult,
  conversationAnswer,
  type LauncherName,
  type ModelToolList,
  RESET_INLINE_TEST_ID,
} from "../../src/protocol.ts";
import { readDownload } from "../../src/runner/browser_host.ts";
import type { CapabilityContext, RequestOf, SuiteBridge } from "../../src/runner/host.ts";
import { findSuiteFrame, FrameSuiteBridge } from "../../src/runner/suite_bridge.ts";
import { APPS_DEADLINES } from "../../src/runner/deadlines.ts";
import { pollUntil, scaled } from "../../src/time.ts";
import { LoopbackPageHost } from "./loopback_page_host.ts";
import { DIALOG_ACCEPT_TEST_IDS } from "./reference/page_dialogs.ts";
import type { ReferenceListeners } from "./reference/listeners.ts";
import { type VariantName, VARIANTS } from "./reference/variants.ts";

/** The longest a theme switch in `resetIsolation` gets to reach the View (it ends once the View shows it). */
const THEME_SETTLE_MS = 5_000;

/** How a {@linkcode ReferenceHost} runs besides its variant: conditions of the world around the host. */
export interface ReferenceHostOptions {
  /**
   * The launchers' CSP declares a control origin on a dead port (it closes every connection unanswered), as a dead network leaves a public one: the
   * host is still conformant, so the tests whose positive control needs that origin must be not testable.
   */
  readonly unreachableDeclaredControl?: boolean;
}

/** The local reference host, conformant unless a variant is named. */
export class ReferenceHost extends LoopbackPageHost<ReferenceListeners> {
  readonly id: string;
  readonly #variant: VariantName | null;
  readonly #options: ReferenceHostOptions;
  #seenFrames = new Set<Frame>();
  /** The second host page of `launchAside`, opened on first use. */
  #aside: Promise<Page> | null = null;
  #asideFrames = new Set<Frame>();

  /** A host for `variant` (`null`: the conformant reference). */
  constructor(variant: VariantName | null = null, options: ReferenceHostOptions = {}) {
    super();
    this.#variant = variant;
    this.#options = options;
    this.id = variant === null ? "reference" : `reference:${variant}`;
  }

  /** The listeners; with `suiteServer`, the host page's main MCP client connects there instead. */
  protected startListeners(
    appHtml: () => string | Promise<string>,
    suiteServer?: string,
  ): Promise<ReferenceListeners> {
    const variant = this.#variant;
    return import("./reference/listeners.ts").then(({ startReferenceListeners }) =>
      startReferenceListeners({
        appHtml,
        variant,
        ...(suiteServer === undefined ? {} : { suiteServer }),
        ...(this.#options.unreachableDeclaredControl ? { unreachableDeclaredControl: true } : {}),
      })
    );
  }

  /** Navigates `page` to the host page and waits until its MCP clients are connected. */
  protected async loadHostPage(page: Page): Promise<void> {
    await page.goto(this.listeners.hostPageUrl.href, {
      timeout: scaled(APPS_DEADLINES.hostPageGotoMs, this.options.timeoutMultiplier),
    });
    await page.waitForFunction(
      () => globalThis.__referenceHost?.ready || globalThis.__referenceHost?.error,
      null,
      {
        timeout: scaled(APPS_DEADLINES.hostPageLoadMs, this.options.timeoutMultiplier),
      },
    );
    const error = await page.evaluate(() => globalThis.__referenceHost!.error);
    if (error) {
      throw new Error(`The reference host page could not connect to the conformance server: ${error}`);
    }
  }

  /** Renders the suite through `launcher` and returns the bridge to the new View. */
  async launch(launcher: LauncherName): Promise<SuiteBridge> {
    this.bridge = await this.#render(this.page, this.#seenFrames, launcher);
    return this.bridge;
  }

  /**
   * Renders the suite through `launcher` in a second host page, in a context of its own (so its tab is no
   * popup and `resetIsolation` leaves it open), while the main page runs its own render.
   */
  async launchAside(launcher: LauncherName): Promise<SuiteBridge> {
    this.#aside ??= this.#openAside();
    return await this.#render(await this.#aside, this.#asideFrames, launcher);
  }

  async #openAside(): Promise<Page> {
    const context = await this.openContext("aside", { colorScheme: "light" });
    const page = await context.newPage();
    await this.loadHostPage(page);
    return page;
  }

  async #render(page: Page, seen: Set<Frame>, launcher: LauncherName): Promise<FrameSuiteBridge> {
    for (const frame of page.frames()) seen.add(frame);
    await page.evaluate((name) => globalThis.__referenceHost!.launch(name), launcher);
    const frame = await findSuiteFrame(page, {
      timeoutMs: scaled(APPS_DEADLINES.renderMs, this.options.timeoutMultiplier),
      exclude: seen,
      signal: this.options.signal,
    });
    return new FrameSuiteBridge(frame);
  }

  /** Polls the host conversation for a marker; `ok` says it was found. */
  async conversationContains(
    request: RequestOf<"conversationContains">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const turn = await pollUntil(async () => {
      const turns = await this.page.evaluate(() => globalThis.__referenceHost!.conversation);
      return turns.find((entry) => entry.text.includes(request.marker));
    }, { timeoutMs: request.timeoutMs, intervalMs: 100, signal: context.signal });
    return conversationAnswer(
      turn === undefined ? { found: false } : { found: true, role: turn.role, text: turn.text.trim() },
    );
  }

  /** The tool names the model sees, as an array. */
  async readModelToolList(): Promise<CapabilityResult> {
    if (this.#variant === "driver-throws-tool-list") {
      // What a product driver does when the page changed under its selector: it throws, it does not answer.
      await this.page.locator("#model-tool-list-gone").innerText({ timeout: 500 });
    }
    const tools: ModelToolList = await this.page.evaluate(() => globalThis.__referenceHost!.modelTools);
    return { ok: true, value: tools };
  }

  /**
   * Accepts the host's download or sampling dialog; checks a link like `checkLinkOpen` (upstream's
   * `open-link` names no URL: then any tab the page opened counts).
   */
  async confirmDialog(
    request: RequestOf<"confirmDialog">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    if (request.dialog === "link") {
      return await this.checkLinkOpen({ kind: "checkLinkOpen", url: request.url ?? "" }, context);
    }
    const button = this.page.getByTestId(DIALOG_ACCEPT_TEST_IDS[request.dialog]);
    try {
      await button.waitFor({ timeout: Math.min(context.timeoutMs, 10_000) });
    } catch {
      return { ok: false, error: `The host showed no ${request.dialog} dialog` };
    }
    if (request.dialog === "sampling") {
      await button.click();
      return { ok: true };
    }
    const [download] = await Promise.all([
      this.page.waitForEvent("download", { timeout: 10_000 }),
      button.click(),
    ]);
    return { ok: true, value: await readDownload(download) };
  }

  /** Isolation between manual tests without re-rendering: stray tabs, dialogs, inline mode, light theme, logs. */
  async resetIsolation(): Promise<CapabilityResult> {
    for (const page of this.page.context().pages()) if (page !== this.page) await page.close();
    this.tabs.clear();
    const mode = await this.page.evaluate(() => {
      for (const dialog of document.querySelectorAll<HTMLElement>("[role=dialog]")) dialog.remove();
      return globalThis.__referenceHost!.clearTransient();
    });
    await this.restoreLightScheme(THEME_SETTLE_MS);
    // Only a View that is not inline needs the (real) click on its "back to inline" button.
    const reset = this.bridge?.frame.getByTestId(RESET_INLINE_TEST_ID);
    if (mode !== "inline" && reset && !this.bridge?.isDetached() && await reset.count() > 0) {
      await reset.click({ timeout: 5_000 });
    }
    return { ok: true };
  }

  /** Local hook: tears the View down through `ui/resource-teardown`. */
  async triggerTeardown(request: RequestOf<"triggerTeardown">): Promise<CapabilityResult> {
    const reason = request.reason ?? "conformance teardown";
    // The View is gone once this resolves, so the answer may never reach it; the Runner tolerates that.
    const value = await this.page.evaluate((why) => globalThis.__referenceHost!.teardown(why), reason);
    return { ok: true, value };
  }

  /** Local hook: cancels the launching tool call. */
  async cancelTool(request: RequestOf<"cancelTool">): Promise<CapabilityResult> {
    const reason = request.reason ?? "cancelled by the conformance runner";
    const value = await this.page.evaluate((why) => globalThis.__referenceHost!.cancelTool(why), reason);
    return { ok: true, value };
  }

  /** Local hook: streams `tool-input-partial` snapshots (refused once `tool-input` is out). */
  async streamPartialInput(request: RequestOf<"streamPartialInput">): Promise<CapabilityResult> {
    const value = await this.page.evaluate(
      (snapshots) => globalThis.__referenceHost!.streamPartialInput(snapshots),
      request.arguments,
    );
    return { ok: true, value };
  }

  /** Closes the browser, then every listener. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      this.#seenFrames.clear();
      this.#aside = null;
      this.#asideFrames.clear();
    }
  }
}

/** The reference host services every request kind of the protocol. */
const CAPABILITIES = CAPABILITY_KINDS;

/** The registry entry of the conformant reference host. */
export const REFERENCE_HOST: AppsHostEntry = {
  id: "reference",
  kind: "web",
  summary: "Local, strictly conformant MCP Apps host on ext-apps AppBridge (headless Chromium)",
  capabilities: CAPABILITIES,
  suiteServers: true,
  create: () => new ReferenceHost(null),
};

/** One registry entry per variant (broken, or a legitimate layout that must pass), left off the board. */
export const REFERENCE_VARIANT_HOSTS: readonly AppsHostEntry[] = VARIANTS.map((variant) => ({
  id: `reference:${variant.name}`,
  kind: "web",
  summary: `Reference host, ${
    variant.harnessFault ? "its driver broken" : variant.fails.length === 0 ? "not broken" : "broken"
  }: ${variant.summary}`,
  testOnly: true,
  capabilities: CAPABILITIES,
  create: () => new ReferenceHost(variant.name),
}));
