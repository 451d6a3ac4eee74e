/**
 * {@linkcode DesktopHost}: an MCP Apps host that is a desktop app the user started with `--remote-debugging-port`
 * (VS Code, Goose, Cursor: all Electron). It is a {@linkcode ChatHost} whose browser is the app itself, attached
 * with `chromium.connectOverCDP` and only detached at the end: it never starts, navigates, closes or quits the
 * app or any of its windows. What one product looks like is a {@linkcode DesktopProduct} record; a product file
 * may add methods (e.g. `readModelToolList`).
 *
 * @module
 */
import type { Browser, Page } from "playwright-core";
import type { AppsHostEntry } from "../../src/host.ts";
import {
  type CapabilityKind,
  type CapabilityResult,
  type LauncherName,
  RESET_INLINE_TEST_ID,
  UNSUPPORTED,
} from "../../src/protocol.ts";
import type { BrowserSession } from "../../src/runner/browser_host.ts";
import type { CapabilityContext, HostSetupOptions, RequestOf } from "../../src/runner/host.ts";
import { loadPlaywright } from "../../src/runner/playwright.ts";
import { scaled } from "../../src/time.ts";
import { clickByLabel } from "../web/app_frames.ts";
import { type ChatDom, ChatHost } from "../web/chat_host.ts";
import { paceFromEnv, paceProblem } from "../web/pacing.ts";

/** How long the app may take to render after the prompt by default (a person may be prompting by hand). */
const DESKTOP_RENDER_TIMEOUT_MS = 180_000;

/** One desktop product, as data. Selectors are CSS, tried in order; labels are exact accessible names. */
export interface DesktopProduct {
  readonly id: string;
  /** The product's name for messages, e.g. "VS Code". */
  readonly name: string;
  readonly summary: string;
  /** Why it needs `--live`, e.g. "drives your running VS Code". */
  readonly requiresLive: string;
  /**
   * The requests the driver services in this product; the others answer unsupported (a link the app opens
   * in the OS browser, a theme that does not follow the OS scheme, a consent the app does not show).
   */
  readonly capabilities: readonly CapabilityKind[];
  /** The DevTools port the app is expected on unless `CONFORMANCE_<ID>_CDP` says otherwise. */
  readonly defaultPort: number;
  /** How the user starts the app with the port, for the error when nothing answers. */
  readonly startHint: string;
  /** The prompt that makes the agent call the launcher. */
  readonly prompt: (launcher: LauncherName) => string;
  /** The chat input the prompt is typed into, key by key; when none shows, the user prompts by hand. */
  readonly composer: readonly string[];
  /** The key that sends the prompt. */
  readonly sendKey: string;
  /** Buttons that approve the tool call after the prompt. */
  readonly approve: readonly string[];
  /** Where the conversation is read; the body text of each non-app frame when none matches. */
  readonly transcript: string | null;
  /** The accept button of the product's sampling consent; empty when it has none. */
  readonly samplingAccept: readonly string[];
}

/** How to reach and drive the app: its endpoint from the environment and the pace from `--pace` by default. */
export interface DesktopRun {
  /** The DevTools endpoint, e.g. `http://127.0.0.1:9222`. */
  readonly endpoint?: string;
  /** Gap between interactions with the product. */
  readonly paceMs?: number;
  readonly renderTimeoutMs?: number;
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
  product: Pick<DesktopProduct, "id" | "name" | "startHint">,
): Promise<string | null> {
  try {
    const response = await fetch(new URL("/json/version", endpoint), { signal: AbortSignal.timeout(3_000) });
    await response.body?.cancel();
    if (response.ok) return null;
  } catch {
    // Nothing listens; fall through to the hint.
  }
  return `Nothing answers on the DevTools endpoint ${endpoint} of ${product.name}: start it with ` +
    `${product.startHint}, or set ${endpointVariable(product.id)} to its endpoint`;
}

/** The chat page of a desktop product: nothing to navigate to, dismiss, stop or sign in to. */
function desktopDom(product: DesktopProduct, endpoint: string): ChatDom {
  return {
    url: endpoint,
    composer: product.composer,
    sendKey: product.sendKey,
    prompt: product.prompt,
    approve: product.approve,
    dismiss: [],
    transcript: product.transcript,
    commit: null,
    stop: [],
    // Downloads and links leave the app (an OS dialog, the OS browser).
    dialogs: { download: [], sampling: product.samplingAccept, link: [] },
    theme: null,
    signedIn: null,
  };
}

/** A desktop app attached over the Chrome DevTools Protocol. */
export class DesktopHost extends ChatHost {
  readonly #product: DesktopProduct;
  readonly #endpoint: string;
  #browser: Browser | null = null;

  /** A host for the running app of `product`. */
  constructor(product: DesktopProduct, run: DesktopRun = {}) {
    const endpoint = run.endpoint ?? endpointFor(product.id, product.defaultPort);
    super({
      id: product.id,
      product: product.name,
      dom: desktopDom(product, endpoint),
      paceMs: run.paceMs ?? paceFromEnv(),
      persistent: false,
      renderTimeoutMs: run.renderTimeoutMs || DESKTOP_RENDER_TIMEOUT_MS,
    });
    this.#product = product;
    this.#endpoint = endpoint;
  }

  /** Attaches to the running app: nothing is launched, and letting go only drops the connection. */
  protected override async startBrowser(options: HostSetupOptions): Promise<BrowserSession> {
    const problem = await checkEndpoint(this.#endpoint, this.#product);
    if (problem !== null) throw new Error(problem);
    const { chromium } = await loadPlaywright();
    const browser = await chromium.connectOverCDP(this.#endpoint, {
      timeout: scaled(30_000, options.timeoutMultiplier),
    });
    // On a connectOverCDP browser, close() drops the connection; the app it attached to keeps running.
    const detach = () => browser.close().catch(() => {});
    const page = browser.contexts().flatMap((context) => context.pages())[0];
    if (page === undefined) {
      await detach();
      throw new Error(`${this.product} has no window open`);
    }
    this.#browser = browser;
    return { context: page.context(), page, pid: null, close: detach };
  }

  /** Records the console of every window, those opened later too; the app is not navigated. */
  protected override open(_page: Page): Promise<void> {
    for (const context of this.#browser?.contexts() ?? []) {
      for (const window of context.pages()) this.recordConsole(window);
      context.on("page", (window) => this.recordConsole(window));
    }
    return Promise.resolve();
  }

  /** The window that shows the View (the first window before a render). */
  protected override get page(): Page {
    return this.bridge?.frame.page() ?? super.page;
  }

  /** Every window of the attached app. */
  protected override windows(): Page[] {
    return this.#browser?.contexts().flatMap((context) => context.pages()) ?? [];
  }

  /** The conversation may be in any window. */
  protected override conversationPages(): Page[] {
    return this.windows();
  }

  /** Types the prompt into the first composer that shows in any window; with none, the user prompts. */
  protected override async startRender(_page: Page, launcher: LauncherName): Promise<void> {
    const { composer: selectors, sendKey, approve } = this.#product;
    for (const window of this.windows()) {
      for (const selector of selectors) {
        const composer = window.locator(selector).first();
        if (!await composer.isVisible().catch(() => false)) continue;
        await this.pace(this.options.signal);
        await composer.click();
        await window.keyboard.type(this.#product.prompt(launcher));
        await this.pace(this.options.signal);
        await window.keyboard.press(sendKey);
        if (approve.length > 0) await clickByLabel(window, approve, 15_000, this.options.signal);
        return;
      }
    }
  }

  /** A render that never showed: the user may prompt by hand. */
  protected override renderHelp(launcher: LauncherName): string {
    return `. In ${this.product}'s chat, ask: "${
      this.#product.prompt(launcher)
    }" (with the conformance server added)`;
  }

  /** Links open in the OS browser, outside the app: whether one opened cannot be told. */
  override checkLinkOpen(
    _request: RequestOf<"checkLinkOpen">,
    _context: CapabilityContext,
  ): Promise<CapabilityResult> {
    return Promise.resolve({ ...UNSUPPORTED });
  }

  /** The app's theme is the user's setting, and the OS scheme is not the host's to emulate. */
  override toggleTheme(_request: RequestOf<"toggleTheme">): Promise<CapabilityResult> {
    return Promise.resolve({ ...UNSUPPORTED });
  }

  /** Escape for stray overlays, then back to inline through the View's own button; the app's windows stay. */
  override async resetIsolation(_request: unknown, context: CapabilityContext): Promise<CapabilityResult> {
    const bridge = this.bridge;
    if (bridge === null || bridge.isDetached()) return { ok: true };
    await this.pace(context.signal);
    await this.page.keyboard.press("Escape");
    const reset = bridge.frame.getByTestId(RESET_INLINE_TEST_ID);
    if (await reset.count() > 0) await reset.click({ timeout: 5_000 });
    return { ok: true };
  }

  /** Lets go of the app without closing it or any of its windows. */
  override async teardown(): Promise<void> {
    await super.teardown();
    this.#browser = null;
  }
}

/** The registry entry of a desktop product; `create` builds a host with product-specific methods. */
export function desktopEntry(
  product: DesktopProduct,
  create: () => DesktopHost = () => new DesktopHost(product),
): AppsHostEntry {
  return {
    id: product.id,
    kind: "desktop",
    summary: product.summary,
    capabilities: product.capabilities,
    requiresLive: product.requiresLive,
    preflight: async () =>
      paceProblem() ?? await checkEndpoint(endpointFor(product.id, product.defaultPort), product),
    create,
  };
}
