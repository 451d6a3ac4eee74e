/**
 * {@linkcode ChatHost}: a web chat product driven like a person would: a prompt typed into its composer makes
 * the model call a launcher, the app renders somewhere in the page, and the host's own surface (dialogs,
 * conversation, theme setting) is read and clicked through the DOM. What one product looks like is a
 * {@linkcode ChatDom}; ChatGPT, Claude and Mistral give theirs in a `ChatProduct` record (`chat_product.ts`),
 * a YAML `hosts:` entry gives one in YAML. Real products run headful on a persistent profile (see `profile.ts`),
 * with pacing between interactions. A desktop app is a chat host too, attached over CDP
 * (`hosts/desktop/desktop_host.ts`).
 *
 * @module
 */
import type { Browser, ElementHandle, Frame, Page } from "playwright-core";
import {
  type CapabilityKind,
  type CapabilityResult,
  consoleAnswer,
  conversationAnswer,
  type DialogKind,
  type LauncherName,
  RESET_INLINE_TEST_ID,
} from "../../src/protocol.ts";
import { BrowserHost, type BrowserSession, readDownload } from "../../src/runner/browser_host.ts";
import type { CapabilityContext, HostSetupOptions, RequestOf, SuiteBridge } from "../../src/runner/host.ts";
import { loadPlaywright } from "../../src/runner/playwright.ts";
import { FrameSuiteBridge } from "../../src/runner/suite_bridge.ts";
import { settleWithin } from "../../src/runner/abort.ts";
import { startCdpProcess } from "../../src/runner/cdp_process.ts";
import { clickByLabel, findAppFrame, findConversationText, inspectAppFrame } from "./app_frames.ts";
import { type LogPane, logPaneLines, redactedMatch } from "./log_pane.ts";
import { NativeConsents } from "./native_dialogs.ts";
import { OpenedTabs } from "./opened_tabs.ts";
import { Pacer } from "./pacing.ts";
import { profileDirFor } from "./profile.ts";
import { actionTimeoutMs } from "../../src/runner/deadlines.ts";

/** The longest a theme switch in `resetIsolation` gets to reach the View (it ends once the View shows it). */
const THEME_SETTLE_MS = 5_000;

/** How long a click that asks for a browser-dialog consent keeps the gate armed for the consent request. */
const CONSENT_ARM_MS = 20_000;

/**
 * How long a `confirm()` that opened without a `consent` hint on the click is held open for the consent
 * request that may follow (an upstream suite sends `clickTrigger`, then `confirmDialog`, with no hint).
 */
const CONSENT_HOLD_MS = 10_000;

/**
 * The capability requests a {@linkcode ChatHost} services, for the chat products and YAML web hosts alike (the
 * theme through the product's control, or the OS scheme).
 */
export const CHAT_HOST_CAPABILITIES: readonly CapabilityKind[] = [
  "clickTrigger",
  "confirmDialog",
  "checkLinkOpen",
  "conversationContains",
  "toggleTheme",
  "inspectFrame",
  "readConsole",
  "resetIsolation",
];

/** One chat product's DOM. Selectors are CSS, tried in order; labels are exact accessible names. */
export interface ChatDom {
  readonly url: string;
  /** The composer the launch prompt goes into. */
  readonly composer: readonly string[];
  /** The key that sends the composer's text. */
  readonly sendKey: string;
  /** The launch prompt; names the launcher. */
  readonly prompt: (launcher: LauncherName) => string;
  /** Buttons that approve the tool call after the prompt (clicked when they show). */
  readonly approve: readonly string[];
  /** Buttons of banners and modals to dismiss on arrival and before each prompt. */
  readonly dismiss: readonly string[];
  /** Where the conversation is read; the body text outside the app when nothing matches. */
  readonly transcript: string | null;
  /** What sends a message the app drafted into the composer (`clickTrigger{commitDraftedMessage}`). */
  readonly commit: {
    /** Labels clicked first when they show (e.g. accepting a draft that would replace the composer). */
    readonly labels: readonly string[];
    /** Then the first visible of these is clicked (the send button). */
    readonly selectors: readonly string[];
    /** Pressed after clicking the selector (e.g. Enter in the composer). */
    readonly key?: string;
    /** The product drafts the app's message into the composer: wait for it before sending. */
    readonly awaitDraft?: boolean;
  } | null;
  /** Buttons that stop a reply still being generated (clicked between manual tests). */
  readonly stop: readonly string[];
  /** Accept buttons of the host's consent dialogs. */
  readonly dialogs: {
    readonly download: readonly string[];
    readonly sampling: readonly string[];
    readonly link: readonly string[];
    /**
     * Each View's consent dialog shows in its own panel: accept the one nearest the View under test's frame,
     * not the first on the page (which may be another View's).
     */
    readonly ofView?: boolean | undefined;
  };
  /** The theme control: `{to}` in the selector becomes `light` or `dark`. Absent: the page follows the OS. */
  readonly theme: { readonly selector: string } | null;
  /** Present only in a signed-in session; its absence after arrival means the profile is signed out. */
  readonly signedIn: string | null;
  /** The host's own visible log pane, searched by `readConsole` besides the console (see {@linkcode LogPane}). */
  readonly log?: LogPane;
  /** The consents that are a browser dialog (`confirm()`), accepted while servicing them (`native_dialogs.ts`). */
  readonly nativeDialogs?: readonly DialogKind[];
}

/** How a {@linkcode ChatHost} runs. */
export interface ChatHostOptions {
  readonly id: string;
  /** The product's name for messages. */
  readonly product: string;
  readonly dom: ChatDom;
  /** Gap between interactions (prompts, clicks, reads). */
  readonly paceMs: number;
  /** A persistent profile (real products, sign-in kept); otherwise a throwaway browser context. */
  readonly persistent: boolean;
  /** Run headless even when persistent (tests against local pages; real products need a window). */
  readonly headless?: boolean;
  /** How long the app may take to render after the prompt. */
  readonly renderTimeoutMs?: number;
  /** How to add the conformance server to the product, shown after `conformance login`. */
  readonly connectorHelp?: string;
}

/** A chat product in a browser. */
export class ChatHost extends BrowserHost {
  readonly id: string;
  /** The product's name. */
  readonly product: string;
  readonly #options: ChatHostOptions;
  readonly #pacer: Pacer;
  #seenFrames = new Set<Frame>();
  readonly #tabs = new OpenedTabs();
  #profileDir: string | null = null;
  readonly #consents: NativeConsents;

  /** A host for one product. */
  constructor(options: ChatHostOptions) {
    super();
    this.id = options.id;
    this.product = options.product;
    this.#options = options;
    this.#pacer = new Pacer(options.paceMs);
    this.#consents = new NativeConsents(
      options.dom.nativeDialogs ?? [],
      (line) => this.noteConsole(line),
      () => this.consentHoldMs,
    );
  }

  /** How long an unannounced `confirm()` is held open for a consent request to claim (scaled). */
  protected get consentHoldMs(): number {
    return CONSENT_HOLD_MS * this.options.timeoutMultiplier;
  }

  /** Where `conformance login` sends the user. */
  get loginUrl(): string {
    return this.#options.dom.url;
  }

  /** How to add the conformance server to the product, if the host knows. */
  get connectorHelp(): string | null {
    return this.#options.connectorHelp ?? null;
  }

  /** Whether this host keeps a signed-in profile. */
  get persistent(): boolean {
    return this.#options.persistent;
  }

  /** How many interactions went through the pacer. */
  get interactions(): number {
    return this.#pacer.count;
  }

  /** A persistent profile: our own Chromium on it, attached over CDP (no automation switches in sight). */
  protected override async startBrowser(options: HostSetupOptions): Promise<BrowserSession> {
    if (!this.#options.persistent) return await super.startBrowser(options);
    this.#profileDir = profileDirFor(this.id, options.profileDir);
    const app = await startCdpProcess({
      userDataDir: this.#profileDir,
      headless: this.#options.headless ?? false,
      args: ["--disable-blink-features=AutomationControlled", "--disable-popup-blocking"],
      signal: options.signal,
    });
    let browser: Browser;
    try {
      const { chromium } = await loadPlaywright();
      browser = await chromium.connectOverCDP(app.endpoint, { timeout: 30_000 * options.timeoutMultiplier });
    } catch (error) {
      await app.close();
      throw error;
    }
    const context = browser.contexts()[0];
    if (context === undefined) {
      await app.close();
      throw new Error(`The browser on profile "${this.#profileDir}" opened no window`);
    }
    const page = context.pages()[0];
    return {
      context,
      ...(page ? { page } : {}),
      pid: app.pid,
      close: async () => {
        // The app's SIGTERM closes the profile gracefully too: after an abort that is all it gets.
        if (!options.signal.aborted) await settleWithin(browser.close(), options.signal, 0, 10_000);
        await app.close();
      },
    };
  }

  /** Opens the product, dismisses banners, and checks the session is signed in. */
  protected async open(page: Page): Promise<void> {
    // Listening means answering: every dialog is dismissed (and recorded) unless armed for a consent.
    this.#consents.listen(page);
    this.#tabs.watch(page);
    await this.#pacer.step(this.options.signal);
    await page.goto(this.#options.dom.url, {
      waitUntil: "domcontentloaded",
      timeout: 60_000 * this.options.timeoutMultiplier,
    });
    await this.#dismiss(page);
    const signedIn = this.#options.dom.signedIn;
    if (signedIn === null) return;
    try {
      await page.locator(signedIn).first().waitFor({ timeout: 20_000 * this.options.timeoutMultiplier });
    } catch {
      const where = this.#profileDir ? ` (profile "${this.#profileDir}")` : "";
      throw new Error(
        `${this.product} shows no signed-in session${where}: run "conformance login --host ${this.id}"`,
      );
    }
  }

  async #dismiss(page: Page): Promise<void> {
    if (this.#options.dom.dismiss.length === 0) return;
    while (await clickByLabel(page, this.#options.dom.dismiss, 1_000, this.options.signal) !== null) {
      await this.#pacer.step(this.options.signal);
    }
  }

  /** Prompts the product to call `launcher` and waits for the new View. */
  async launch(launcher: LauncherName): Promise<SuiteBridge> {
    const page = this.page;
    for (const window of this.windows()) for (const frame of window.frames()) this.#seenFrames.add(frame);
    await this.#dismiss(page);
    await this.startRender(page, launcher);
    let frame: Frame;
    try {
      frame = await findAppFrame(() => this.windows(), {
        timeoutMs: (this.#options.renderTimeoutMs ?? 120_000) * this.options.timeoutMultiplier,
        exclude: this.#seenFrames,
        signal: this.options.signal,
      });
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}${this.renderHelp(launcher)}`,
      );
    }
    this.bridge = new FrameSuiteBridge(frame);
    return this.bridge;
  }

  /** The pages a render may show in: the product's tabs. */
  protected windows(): Page[] {
    return this.page.context().pages();
  }

  /** The pages the conversation is read in: the product's page. */
  protected conversationPages(): Page[] {
    return [this.page];
  }

  /** What the error of a render that never showed adds: how to add the conformance server, if known. */
  protected renderHelp(_launcher: LauncherName): string {
    const help = this.#options.connectorHelp;
    return help ? `. Is the conformance server added? ${help}` : "";
  }

  /**
   * Starts one render of `launcher`: the launch prompt typed into the composer and sent, then the tool call
   * approved when the product asks. A host launched otherwise (steps through its UI) overrides it; `launch`
   * then waits for the new View.
   */
  protected async startRender(page: Page, launcher: LauncherName): Promise<void> {
    await this.#type(page, this.#options.dom.prompt(launcher));
    await this.#pacer.step(this.options.signal);
    await page.keyboard.press(this.#options.dom.sendKey);
    if (this.#options.dom.approve.length > 0) {
      await clickByLabel(page, this.#options.dom.approve, 10_000, this.options.signal);
    }
  }

  /** Waits the pause between interactions (none on local pages). */
  protected async pace(signal: AbortSignal): Promise<void> {
    await this.#pacer.step(signal);
  }

  async #type(page: Page, text: string): Promise<void> {
    const deadline = Date.now() + 30_000 * this.options.timeoutMultiplier;
    while (true) {
      for (const selector of this.#options.dom.composer) {
        const composer = page.locator(selector).first();
        if (!await composer.isVisible().catch(() => false)) continue;
        await this.#pacer.step(this.options.signal);
        await composer.click();
        await composer.fill(text);
        return;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${this.product} shows no composer (${
            this.#options.dom.composer.join(", ")
          }): is the profile signed in?`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** A real click on the trigger; then, when asked, sends what the app drafted into the composer. */
  override async clickTrigger(
    request: RequestOf<"clickTrigger">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    if (request.consent !== undefined && this.#consents.has(request.consent)) {
      this.#consents.arm(this.page, request.consent, CONSENT_ARM_MS * this.options.timeoutMultiplier);
    }
    await this.#pacer.step(context.signal);
    const click = super.clickTrigger(request, context);
    // An unannounced confirm() the click opened blocks the page (and the click) while it is held for the
    // consent request that may follow: the click has done its part, and that request answers the dialog.
    const held = this.#consents.nextHeld().then((): CapabilityResult => ({ ok: true }));
    const clicked = await Promise.race([click, held]);
    if (this.#consents.holding) {
      click.catch(() => {});
      return clicked;
    }
    const commit = this.#options.dom.commit;
    if (!clicked.ok || !request.commitDraftedMessage || commit === null) return clicked;
    await this.#pacer.step(context.signal);
    if (commit.labels.length > 0) await clickByLabel(this.page, commit.labels, 3_000, context.signal);
    if (commit.awaitDraft) await this.#draftLanded(context);
    // A host that sends the app's message itself (the mcp-use Inspector's chat) leaves the composer empty:
    // there is nothing to commit, and its send button is then disabled or stops the reply being generated.
    if (await this.#composerText() === "") return clicked;
    for (const selector of commit.selectors) {
      const target = this.page.locator(selector).first();
      if (await target.isVisible().catch(() => false)) {
        await this.#pacer.step(context.signal);
        await target.click({ timeout: actionTimeoutMs(context) });
        if (commit.key !== undefined) await this.page.keyboard.press(commit.key);
        return clicked;
      }
    }
    return { ok: false, error: `${this.product} shows no send button (${commit.selectors.join(", ")})` };
  }

  /** Waits (up to 6 s) for the app's draft to reach the composer: the host writes it asynchronously. */
  async #draftLanded(context: CapabilityContext): Promise<void> {
    const deadline = Date.now() + 6_000;
    while (Date.now() < deadline && !context.signal.aborted) {
      const text = await this.#composerText();
      if (text !== null && text !== "") return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The text of the first visible composer, trimmed; `null` when no composer shows. */
  async #composerText(): Promise<string | null> {
    for (const selector of this.#options.dom.composer) {
      const composer = this.page.locator(selector).first();
      if (!await composer.isVisible().catch(() => false)) continue;
      const text = await composer.evaluate((node) =>
        node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement
          ? node.value
          : node.textContent ?? ""
      ).catch(() => null);
      if (text !== null) return text.trim();
    }
    return null;
  }

  /** Reads the conversation until the marker shows or the deadline passes; `ok` says it showed. */
  async conversationContains(
    request: RequestOf<"conversationContains">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const deadline = Date.now() + request.timeoutMs;
    while (true) {
      await this.#pacer.step(context.signal);
      const hit = await findConversationText(
        this.conversationPages(),
        request.marker,
        this.#options.dom.transcript,
      );
      if (hit !== null) {
        return conversationAnswer({ found: true, text: hit.text, ...(hit.role ? { role: hit.role } : {}) });
      }
      if (Date.now() >= deadline || context.signal.aborted) return conversationAnswer({ found: false });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Switches the product's theme setting, or the OS scheme when the product follows it. */
  override async toggleTheme(request: RequestOf<"toggleTheme">): Promise<CapabilityResult> {
    const theme = this.#options.dom.theme;
    if (theme === null) return await super.toggleTheme(request);
    await this.#pacer.step(this.options.signal);
    // A real click with Playwright's checks: the control must be stable and hit. The View above it resizes
    // as the suite reports, so a forced click at a measured point could land beside a moved button.
    await this.page.locator(theme.selector.replaceAll("{to}", request.to)).first().click({ timeout: 10_000 });
    return { ok: true };
  }

  /**
   * Accepts the product's download or sampling consent; a link consent goes through `checkLinkOpen`
   * (upstream's `open-link` names no URL: then any tab the page opened counts).
   */
  async confirmDialog(
    request: RequestOf<"confirmDialog">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    if (request.dialog === "link") {
      return await this.checkLinkOpen({ kind: "checkLinkOpen", url: request.url ?? "" }, context);
    }
    if (this.#consents.has(request.dialog)) {
      return await this.#consents.accept(this.page, request.dialog, {
        waitMs: Math.min(context.timeoutMs, 10_000),
        product: this.product,
      });
    }
    const labels = this.#options.dom.dialogs[request.dialog];
    if (labels.length === 0) return { ok: false, unsupported: true };
    await this.#pacer.step(context.signal);
    const wait = Math.min(context.timeoutMs, 10_000);
    const near = this.#dialogNear();
    const none = `${this.product} showed no ${request.dialog} dialog${near ? " in the View's panel" : ""}`;
    if (request.dialog === "sampling") {
      const clicked = await clickByLabel(this.page, labels, wait, context.signal, near);
      return clicked === null ? { ok: false, error: none } : { ok: true };
    }
    const download = this.page.waitForEvent("download", { timeout: wait + 5_000 });
    download.catch(() => {});
    if (await clickByLabel(this.page, labels, wait, context.signal, near) === null) {
      return { ok: false, error: none };
    }
    return { ok: true, value: await readDownload(await download) };
  }

  /** Whether a tab opened `url`, accepting the product's link consent when it shows one. */
  async checkLinkOpen(
    request: RequestOf<"checkLinkOpen">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const opened = () => this.#tabs.find(request.url);
    const deadline = Date.now() + Math.min(context.timeoutMs, 10_000);
    // A browser-dialog link consent the click did not announce is held open: it is this one.
    if (this.#consents.has("link") && this.#consents.holding) {
      this.#consents.arm(this.page, "link", Math.min(context.timeoutMs, 10_000));
    }
    let consented = false;
    try {
      while (true) {
        const url = opened();
        if (url !== undefined) return { ok: true, value: { opened: true, url } };
        if (!consented && this.#options.dom.dialogs.link.length > 0) {
          consented = await clickByLabel(
            this.page,
            this.#options.dom.dialogs.link,
            0,
            undefined,
            this.#dialogNear(),
          ) !== null;
        }
        if (Date.now() >= deadline || context.signal.aborted) {
          return { ok: false, error: `No tab opened ${request.url}`, value: { opened: false } };
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      // A browser-dialog link consent was armed by the click; it is serviced now.
      if (this.#consents.has("link")) this.#consents.reset();
    }
  }

  /** With `dialogs.ofView`, where a consent dialog is looked for: around the View's frame. */
  #dialogNear(): (() => Promise<ElementHandle | null>) | undefined {
    return this.#options.dom.dialogs.ofView ? () => this.viewFrameElement(this.page) : undefined;
  }

  /**
   * The frame element on `page` that holds the View under test (its outermost iframe), or `null` when no View
   * is rendered there: what a host control "of the View" is looked for around.
   */
  protected async viewFrameElement(page: Page): Promise<ElementHandle | null> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return null;
    let frame: Frame = bridge.frame;
    while (frame.parentFrame() !== null && frame.parentFrame() !== page.mainFrame()) {
      frame = frame.parentFrame()!;
    }
    if (frame.parentFrame() === null) return null;
    return await frame.frameElement();
  }

  /**
   * The console line that matched, or the entry of the host's own log pane (`dom.log`, a log too), saying
   * which; anything shaped like a credential redacted (a product logs a lot).
   */
  override async readConsole(
    request: RequestOf<"readConsole">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const log = this.#options.dom.log;
    if (log === undefined) return redactedMatch(await super.readConsole(request, context));
    let pattern: RegExp;
    try {
      pattern = new RegExp(request.pattern);
    } catch (error) {
      return { ok: false, error: `Invalid console pattern "${request.pattern}": ${String(error)}` };
    }
    const problem = (error: unknown) =>
      `${this.product}'s log pane: ${error instanceof Error ? error.message : error}`;
    try {
      await this.logPaneSteps("reveal", context.signal);
    } catch (error) {
      return { ok: false, error: problem(error) };
    }
    const deadline = Date.now() + request.timeoutMs;
    try {
      while (true) {
        const logged = await super.readConsole({ ...request, timeoutMs: 0 }, context);
        if (logged.ok || logged.error !== undefined) return redactedMatch(logged);
        const line = (await logPaneLines(this.page, log)).find((entry) => pattern.test(entry));
        if (line !== undefined) {
          return redactedMatch(consoleAnswer({ matched: true, line }), "log");
        }
        if (Date.now() >= deadline || context.signal.aborted) return consoleAnswer({ matched: false });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      // A pane left revealed can slow the host down for the tests after (expanded editors re-render).
      await this.logPaneSteps("conceal", context.signal).catch((error) => this.noteConsole(problem(error)));
    }
  }

  /**
   * Makes the log pane's entries readable before `readConsole` reads it, and puts the pane back afterwards
   * (a YAML host's `log.reveal` and `log.conceal`).
   */
  protected async logPaneSteps(_which: "reveal" | "conceal", _signal: AbortSignal): Promise<void> {}

  /** The app's outermost frame element (a product page has other iframes too). */
  override async inspectFrame(): Promise<CapabilityResult> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return { ok: false, error: "No View is rendered" };
    return { ok: true, value: await inspectAppFrame(bridge.frame) };
  }

  /** Between manual tests: stray tabs closed, overlays escaped, back to inline, light theme. */
  async resetIsolation(_request: unknown, context: CapabilityContext): Promise<CapabilityResult> {
    this.#consents.reset();
    for (const page of this.page.context().pages()) if (page !== this.page) await page.close();
    this.#tabs.clear();
    if (this.#options.dom.stop.length > 0) await clickByLabel(this.page, this.#options.dom.stop, 0);
    if (await this.page.locator("[role=dialog],[aria-modal=true]").count() > 0) {
      await this.page.keyboard.press("Escape");
    }
    await this.toggleTheme({ kind: "toggleTheme", to: "light" });
    // The next test reads the View's theme at once and toggles away from it: were the View still dark, it
    // would ask for light, which the host already is, and wait in vain for a notification.
    await this.viewShowsTheme("light", THEME_SETTLE_MS);
    const bridge = this.bridge;
    if (bridge !== null && !bridge.isDetached()) {
      const reset = bridge.frame.getByTestId(RESET_INLINE_TEST_ID);
      if (await reset.count() > 0) {
        await this.#pacer.step(context.signal);
        // Bounded by the request's deadline, at most 30 s: 5 s timed out at load 50 (fresh-clone CI, 2026-12-06).
        await reset.click({ timeout: actionTimeoutMs(context) });
      }
    }
    return { ok: true };
  }

  /** Closes the browser (on a persistent profile, the profile stays for the next run). */
  override async teardown(): Promise<void> {
    this.#seenFrames.clear();
    await super.teardown();
  }
}
