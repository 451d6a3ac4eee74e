/**
 * {@linkcode CdpHost}: an MCP Apps host that is a desktop app the user started with `--remote-debugging-port`
 * (VS Code, Goose, Cursor: all Electron). It attaches with `chromium.connectOverCDP`, finds the app frame
 * among the app's windows, and services what it can. It never starts or quits the user's app: teardown only
 * disconnects. Per-product DOM knowledge comes in a {@linkcode DesktopDom}; a product file may add methods
 * (e.g. `readModelToolList`).
 *
 * @module
 */
import type { Browser, Frame, Page } from "playwright-core";
import {
  type CapabilityResult,
  type ConsoleMatch,
  type ConversationMatch,
  type LauncherName,
  RESET_INLINE_TEST_ID,
  TRIGGER_TEST_ID,
} from "../../src/protocol.ts";
import { redact } from "../../src/report/redact.ts";
import { loadPlaywright } from "../../src/runner/playwright.ts";
import type {
  CapabilityContext,
  Host,
  HostSetupOptions,
  RequestOf,
  SuiteBridge,
} from "../../src/runner/host.ts";
import { FrameSuiteBridge } from "../../src/runner/suite_bridge.ts";
import { clickByLabel, findAppFrame, findConversationText, inspectAppFrame } from "../web/app_frames.ts";
import { Pacer } from "../web/pacing.ts";

/** What one desktop product looks like to the driver. Selectors are CSS, tried in order. */
export interface DesktopDom {
  /** The chat input the launch prompt is typed into; empty when the user must prompt by hand. */
  readonly composer: readonly string[];
  /** The key that sends the prompt. */
  readonly sendKey: string;
  /** Buttons that approve the tool call after the prompt, by exact label. */
  readonly approve: readonly string[];
  /** Where the conversation is read; the body text of each non-app frame when none matches. */
  readonly transcript: string | null;
  /** The button that sends a message the app drafted into the composer, if the product drafts. */
  readonly commit: readonly string[];
  /** The accept button of the product's sampling consent, by exact label; empty when it has none. */
  readonly samplingAccept: readonly string[];
}

/** How to reach and drive one desktop app. */
export interface CdpHostOptions {
  readonly id: string;
  /** The product's name for messages, e.g. "VS Code". */
  readonly product: string;
  /** The DevTools endpoint, e.g. `http://127.0.0.1:9222`. */
  readonly endpoint: string;
  /** How the user starts the app with the port, for the error when nothing answers. */
  readonly startHint: string;
  readonly dom: DesktopDom;
  /** The prompt that makes the agent call the launcher. */
  readonly prompt: (launcher: LauncherName) => string;
  /** How long to wait for the app to render after the prompt (a person may be prompting by hand). */
  readonly renderTimeoutMs?: number;
  /** Gap between interactions with the product. */
  readonly paceMs: number;
}

/** The environment variable that overrides a desktop host's DevTools endpoint: `CONFORMANCE_<ID>_CDP`. */
export function endpointVariable(id: string): string {
  return `CONFORMANCE_${id.toUpperCase().replaceAll(/[^A-Z0-9]+/g, "_")}_CDP`;
}

/** The endpoint from `CONFORMANCE_<ID>_CDP`, else `http://127.0.0.1:<defaultPort>`. */
export function endpointFor(id: string, defaultPort: number): string {
  let named: string | undefined;
  try {
    named = Deno.env.get(endpointVariable(id));
  } catch {
    named = undefined;
  }
  return named && named.trim() !== "" ? named.trim() : `http://127.0.0.1:${defaultPort}`;
}

/**
 * Whether a DevTools endpoint answers; `null` when it does, else one line saying how to start the app.
 * Used by the registry's `preflight`, so a live run without the app stops before anything starts.
 */
export async function checkEndpoint(
  endpoint: string,
  options: { id: string; product: string; startHint: string },
): Promise<string | null> {
  try {
    const response = await fetch(new URL("/json/version", endpoint), { signal: AbortSignal.timeout(3_000) });
    await response.body?.cancel();
    if (response.ok) return null;
  } catch {
    // Nothing listens; fall through to the hint.
  }
  return `Nothing answers on the DevTools endpoint ${endpoint} of ${options.product}: start it with ` +
    `${options.startHint}, or set ${endpointVariable(options.id)} to its endpoint`;
}

/** A desktop app attached over the Chrome DevTools Protocol. */
export class CdpHost implements Host {
  readonly id: string;
  readonly #options: CdpHostOptions;
  readonly #pacer: Pacer;
  #browser: Browser | null = null;
  #setup: HostSetupOptions | null = null;
  #console: string[] = [];
  #seenFrames = new Set<Frame>();
  #watched = new WeakSet<Page>();
  /** The bridge to the View rendered last. */
  protected bridge: FrameSuiteBridge | null = null;

  /** A host for one desktop product. */
  constructor(options: CdpHostOptions) {
    this.id = options.id;
    this.#options = options;
    this.#pacer = new Pacer(options.paceMs);
  }

  /** Every window of the attached app. */
  protected pages(): Page[] {
    return this.#browser?.contexts().flatMap((context) => context.pages()) ?? [];
  }

  /** The window that shows the View (the first window before a render). */
  protected appPage(): Page {
    const page = this.bridge?.frame.page() ?? this.pages()[0];
    if (page === undefined) throw new Error(`${this.#options.product} has no window open`);
    return page;
  }

  /** How many interactions the pacer let through (for tests of the pacing). */
  get interactions(): number {
    return this.#pacer.count;
  }

  /** Attaches to the running app. Nothing is launched, so nothing needs a process group here. */
  async setup(options: HostSetupOptions): Promise<void> {
    this.#setup = options;
    const problem = await checkEndpoint(this.#options.endpoint, this.#options);
    if (problem !== null) throw new Error(problem);
    const { chromium } = await loadPlaywright();
    this.#browser = await chromium.connectOverCDP(this.#options.endpoint, {
      timeout: 30_000 * options.timeoutMultiplier,
    });
    for (const context of this.#browser.contexts()) {
      for (const page of context.pages()) this.#watch(page);
      context.on("page", (page) => this.#watch(page));
    }
  }

  #watch(page: Page): void {
    if (this.#watched.has(page)) return;
    this.#watched.add(page);
    page.on("console", (message) => this.#console.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => this.#console.push(`pageerror: ${error.message}`));
  }

  /**
   * Prompts the agent to call `launcher` (when the product's composer is found; otherwise the user does it)
   * and waits for a new View to carry the suite.
   */
  async launch(launcher: LauncherName): Promise<SuiteBridge> {
    const setup = this.#requireSetup();
    for (const page of this.pages()) for (const frame of page.frames()) this.#seenFrames.add(frame);
    await this.#sendPrompt(this.#options.prompt(launcher));
    let frame: Frame;
    try {
      frame = await findAppFrame(() => this.pages(), {
        timeoutMs: (this.#options.renderTimeoutMs ?? 180_000) * setup.timeoutMultiplier,
        exclude: this.#seenFrames,
        signal: setup.signal,
      });
    } catch (error) {
      throw new Error(
        `${
          error instanceof Error ? error.message : String(error)
        }. In ${this.#options.product}'s chat, ask: ` +
          `"${this.#options.prompt(launcher)}" (with the conformance server added)`,
      );
    }
    this.bridge = new FrameSuiteBridge(frame);
    return this.bridge;
  }

  async #sendPrompt(text: string): Promise<void> {
    const { dom } = this.#options;
    for (const page of this.pages()) {
      for (const selector of dom.composer) {
        const composer = page.locator(selector).first();
        if (!await composer.isVisible().catch(() => false)) continue;
        await this.#pacer.step(this.#setup?.signal);
        await composer.click();
        await page.keyboard.type(text);
        await this.#pacer.step(this.#setup?.signal);
        await page.keyboard.press(dom.sendKey);
        if (dom.approve.length > 0) await clickByLabel(page, dom.approve, 15_000, this.#setup?.signal);
        return;
      }
    }
  }

  /** A real click on the View's trigger; then sends a drafted message when asked and the product drafts. */
  async clickTrigger(request: RequestOf<"clickTrigger">): Promise<CapabilityResult> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return { ok: false, error: "No View is rendered" };
    await this.#pacer.step(this.#setup?.signal);
    await bridge.frame.getByTestId(TRIGGER_TEST_ID).click({ timeout: 10_000 });
    if (request.commitDraftedMessage && this.#options.dom.commit.length > 0) {
      await clickByLabel(bridge.frame.page(), this.#options.dom.commit, 5_000, this.#setup?.signal);
    }
    return { ok: true };
  }

  /** Reads the conversation (outside the app) until the marker shows or the deadline passes. */
  async conversationContains(
    request: RequestOf<"conversationContains">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const deadline = Date.now() + request.timeoutMs;
    while (true) {
      await this.#pacer.step(context.signal);
      const hit = await findConversationText(this.pages(), request.marker, this.#options.dom.transcript);
      if (hit !== null) {
        return { ok: true, value: { found: true, text: hit.text } satisfies ConversationMatch };
      }
      if (Date.now() >= deadline || context.signal.aborted) {
        return { ok: true, value: { found: false } satisfies ConversationMatch };
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Accepts the product's sampling consent. Downloads and links leave the app (OS dialog, OS browser). */
  async confirmDialog(
    request: RequestOf<"confirmDialog">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const labels = this.#options.dom.samplingAccept;
    if (request.dialog !== "sampling" || labels.length === 0) return { ok: false, unsupported: true };
    await this.#pacer.step(context.signal);
    const clicked = await clickByLabel(this.appPage(), labels, Math.min(context.timeoutMs, 10_000));
    return clicked === null
      ? { ok: false, error: `${this.#options.product} showed no sampling consent (${labels.join(" / ")})` }
      : { ok: true };
  }

  /** The app's outermost frame element, read in the window that shows it. */
  async inspectFrame(): Promise<CapabilityResult> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return { ok: false, error: "No View is rendered" };
    return { ok: true, value: await inspectAppFrame(bridge.frame) };
  }

  /** Matches the console of every window since attaching. */
  async readConsole(
    request: RequestOf<"readConsole">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    let pattern: RegExp;
    try {
      pattern = new RegExp(request.pattern);
    } catch (error) {
      return { ok: false, error: `Invalid console pattern "${request.pattern}": ${String(error)}` };
    }
    const deadline = Date.now() + request.timeoutMs;
    while (true) {
      const line = this.#console.find((entry) => pattern.test(entry));
      if (line !== undefined) {
        return { ok: true, value: { matched: true, line: redact(line) } satisfies ConsoleMatch };
      }
      if (Date.now() >= deadline || context.signal.aborted) {
        return { ok: true, value: { matched: false } satisfies ConsoleMatch };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Escape for stray overlays, then back to inline through the View's own button (a real click). */
  async resetIsolation(): Promise<CapabilityResult> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return { ok: true };
    await this.#pacer.step(this.#setup?.signal);
    await bridge.frame.page().keyboard.press("Escape");
    const reset = bridge.frame.getByTestId(RESET_INLINE_TEST_ID);
    if (await reset.count() > 0) await reset.click({ timeout: 5_000 });
    return { ok: true };
  }

  /** Lets go of the app without closing it: the CDP connection is dropped, the user's app keeps running. */
  async teardown(): Promise<void> {
    const browser = this.#browser;
    this.#browser = null;
    this.bridge = null;
    this.#seenFrames.clear();
    // On a connectOverCDP browser, close() drops the connection; the app it attached to keeps running.
    await browser?.close().catch(() => {});
  }

  #requireSetup(): HostSetupOptions {
    if (this.#setup === null || this.#browser === null) {
      throw new Error(`Host "${this.id}" is not set up: call setup() first`);
    }
    return this.#setup;
  }
}
