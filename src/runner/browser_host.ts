/**
 * {@linkcode BrowserHost}: the base of every Playwright-driven MCP Apps host. It owns the browser (one per
 * run), the page, the console buffer and the artifacts (screenshots, traces), and implements the capability
 * requests that work the same on every web host. A subclass opens its host page and renders the suite.
 *
 * @module
 */
import type { Browser, BrowserContext, BrowserContextOptions, Download, Page } from "playwright-core";
import {
  type CapabilityResult,
  consoleAnswer,
  type FrameInspection,
  type LauncherName,
  TRIGGER_TEST_ID,
  withFrameChain,
} from "../protocol.ts";
import { launchChromium } from "./chromium.ts";
import { groupAlive } from "../exec/process_group.ts";
import { frameChain } from "./frame_chain.ts";
import type { CapabilityContext, Host, HostSetupOptions, RequestOf, SuiteBridge } from "./host.ts";
import type { FrameSuiteBridge } from "./suite_bridge.ts";
import { pollUntil } from "../time.ts";
import { fileNamePart } from "../file_name.ts";
import { actionTimeoutMs } from "./deadlines.ts";

/** The browser a {@linkcode BrowserHost} drives: its context, and how to let go of it. */
export interface BrowserSession {
  readonly context: BrowserContext;
  /** The page to drive when the browser opened one already (a persistent profile's first tab). */
  readonly page?: Page;
  /** The browser's pid (its process group), when this process started it. */
  readonly pid: number | null;
  /** Closes the browser and waits until its processes are gone. */
  close(): Promise<void>;
  /**
   * Pids of the browser's processes still alive, those that left its group included; without it, the group
   * alone is looked at (a browser this process did not start has none of its own to find).
   */
  survivors?(): Promise<number[]>;
}

/** A finished download's name and text, as the `confirmDialog` "download" answer carries them. */
export async function readDownload(download: Download): Promise<{ filename: string; content: string }> {
  // The browser runs behind a connection, so the file is copied out rather than read in place.
  const copy = await Deno.makeTempFile({ prefix: "conformance-download-" });
  try {
    await download.saveAs(copy);
    return { filename: download.suggestedFilename(), content: await Deno.readTextFile(copy) };
  } finally {
    await Deno.remove(copy).catch(() => {});
  }
}

/** A running browser several host runs share, each in a context of its own. */
export interface SharedBrowser {
  /** The Playwright browser to open contexts in. */
  readonly browser: Browser;
  /** Its pid, which is also its process group. */
  readonly pid: number;
}

/**
 * Setup options with a browser this run shares with others (the variant gate runs dozens of hosts): a browser
 * host that would launch a throwaway Chromium opens a context of its own in it instead, and its teardown
 * closes only that context. The owner closes the browser and checks its processes are gone. Not part of the
 * host contract: only {@linkcode BrowserHost}'s default launch reads it.
 */
export interface SharedBrowserSetupOptions extends HostSetupOptions {
  readonly sharedBrowser?: SharedBrowser;
}

/** The options every throwaway context gets. */
const CONTEXT_OPTIONS: BrowserContextOptions = { acceptDownloads: true, colorScheme: "light" };

/**
 * A context of its own in a browser another owner launched: closing it closes the context, never the browser,
 * and until it is closed the session counts the browser's pid among its survivors.
 */
async function sharedSession(shared: SharedBrowser): Promise<BrowserSession> {
  const context = await shared.browser.newContext(CONTEXT_OPTIONS);
  let closed = false;
  context.on("close", () => void (closed = true));
  return {
    context,
    pid: null,
    close: () => context.close().catch(() => {}),
    survivors: () => Promise.resolve(closed || !shared.browser.isConnected() ? [] : [shared.pid]),
  };
}

/** The shared Playwright host; subclasses implement {@linkcode BrowserHost.open} and `launch`. */
export abstract class BrowserHost implements Host {
  abstract readonly id: string;
  #launched: BrowserSession | null = null;
  /** The browser while it starts, so a teardown that comes meanwhile (the run's abort) still closes it. */
  #starting: Promise<BrowserSession> | null = null;
  #context: BrowserContext | null = null;
  #page: Page | null = null;
  #options: HostSetupOptions | null = null;
  #console: string[] = [];
  /** The pages whose console is recorded. */
  #recorded = new WeakSet<Page>();
  /** The bridge to the View rendered last; subclasses set it in `launch`. */
  protected bridge: FrameSuiteBridge | null = null;

  /** The session torn down last, for {@linkcode BrowserHost.browserSurvivors}. */
  #lastLaunched: BrowserSession | null = null;
  #failures = 0;
  /** Contexts opened beside the main one ({@linkcode BrowserHost.openContext}), by the name of their trace. */
  #asides: { readonly name: string; readonly context: BrowserContext }[] = [];

  /** The browser's pid (its process group), once set up. */
  get browserPid(): number | null {
    return this.#launched?.pid ?? null;
  }

  /** Pids of the last browser's processes still alive (empty after a clean teardown). */
  async browserSurvivors(): Promise<number[]> {
    const last = this.#lastLaunched;
    if (last === null) return [];
    if (last.survivors) return await last.survivors();
    return last.pid !== null && await groupAlive(last.pid) ? [last.pid] : [];
  }

  /** The host page. */
  protected get page(): Page {
    if (this.#page === null) throw new Error(`Host "${this.id}" is not set up: call setup() first`);
    return this.#page;
  }

  /** The run's setup options. */
  protected get options(): HostSetupOptions {
    if (this.#options === null) throw new Error(`Host "${this.id}" is not set up: call setup() first`);
    return this.#options;
  }

  /** Console lines so far (`type: text`), page errors included. */
  get consoleLines(): readonly string[] {
    return this.#console;
  }

  /** Records the console lines and page errors of `page` (once per page): the host page's, and others'. */
  protected recordConsole(page: Page): void {
    if (this.#recorded.has(page)) return;
    this.#recorded.add(page);
    page.on("console", (message) => this.#console.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => this.#console.push(`pageerror: ${error.message}`));
  }

  /** Adds a line to the console record: what the host did about the page (a browser dialog it dismissed). */
  protected noteConsole(line: string): void {
    this.#console.push(line);
  }

  /** Launches the browser, opens one page with console capture, and calls {@linkcode BrowserHost.open}. */
  async setup(options: HostSetupOptions): Promise<void> {
    this.#options = options;
    try {
      this.#starting = this.startBrowser(options);
      this.#launched = await this.#starting;
      this.#starting = null;
      if (options.signal.aborted) {
        throw new Error(`The setup of host "${this.id}" was stopped: the run was aborted`);
      }
      this.#context = this.#launched.context;
      if (options.trace !== "off" && options.artifactsDir !== null) {
        await this.#context.tracing.start({ screenshots: true, snapshots: true });
      }
      this.#page = this.#launched.page ?? await this.#context.newPage();
      this.recordConsole(this.#page);
      await this.open(this.#page);
    } catch (error) {
      await this.teardown();
      throw error;
    }
  }

  /**
   * Starts the browser this host drives. The default launches a fresh Chromium with a throwaway context; a
   * host that needs a persistent, signed-in profile overrides it.
   */
  protected async startBrowser(options: HostSetupOptions): Promise<BrowserSession> {
    const shared = (options as SharedBrowserSetupOptions).sharedBrowser;
    if (shared !== undefined) return await sharedSession(shared);
    const launched = await launchChromium({ headful: options.headful, signal: options.signal });
    try {
      const context = await launched.browser.newContext(CONTEXT_OPTIONS);
      return {
        context,
        pid: launched.pid,
        close: () => launched.close(),
        survivors: () => launched.survivors(),
      };
    } catch (error) {
      await launched.close();
      throw error;
    }
  }

  /** Navigates the fresh page to the host (and signs in, on real hosts). */
  protected abstract open(page: Page): Promise<void>;

  /** Renders the suite through a launcher. */
  abstract launch(launcher: LauncherName): Promise<SuiteBridge>;

  /** Notes a failure (the trace is kept on failure) and saves a screenshot of the host page when asked. */
  async keepEvidence(testId: string, options: { readonly screenshot?: boolean } = {}): Promise<string[]> {
    this.#failures++;
    const dir = this.#options?.artifactsDir;
    if (!dir || this.#page === null || options.screenshot === false) return [];
    await Deno.mkdir(dir, { recursive: true });
    const path = `${dir}/${fileNamePart(this.id)}-${fileNamePart(testId)}.png`;
    await this.#page.screenshot({ path, fullPage: true });
    return [path];
  }

  /**
   * A real, user-activating click on the View's trigger button, bounded by the test's deadline (at most 30 s).
   * The click does not wait for a navigation it starts: the trigger's job is the user activation, and a tab the
   * View opens (`links/open-external`) is the host's business, checked by the test that asked for it; waiting
   * for it timed the click out under load (fresh-clone CI of 2026-12-05).
   */
  async clickTrigger(
    _request: RequestOf<"clickTrigger">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    if (this.bridge === null || this.bridge.isDetached()) return { ok: false, error: "No View is rendered" };
    await this.bridge.frame.getByTestId(TRIGGER_TEST_ID).click({
      timeout: actionTimeoutMs(context),
      // Deprecated only in that it will become the default.
      noWaitAfter: true,
    });
    return { ok: true };
  }

  /** Switches the emulated OS colour scheme, which a conformant host follows. */
  async toggleTheme(request: RequestOf<"toggleTheme">): Promise<CapabilityResult> {
    await this.page.emulateMedia({ colorScheme: request.to });
    return { ok: true };
  }

  /**
   * Between tests: a dark OS colour scheme is light again, and the View has `settleMs` to show it, since the
   * next test reads the View's theme at once.
   */
  protected async restoreLightScheme(settleMs: number): Promise<void> {
    if (await this.page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)) {
      await this.page.emulateMedia({ colorScheme: "light" });
      await this.viewShowsTheme("light", settleMs);
    }
  }

  /**
   * Waits until the rendered View shows `theme` on its root element (the suite applies the host's theme as
   * `data-theme`), so a test that reads the theme next sees the switch. Resolves `false` when the View does
   * not show it within `timeoutMs`, and at once when no View is rendered or it shows no theme at all.
   */
  protected async viewShowsTheme(theme: "light" | "dark", timeoutMs: number): Promise<boolean> {
    const frame = this.bridge?.frame;
    if (frame === undefined || frame.isDetached()) return false;
    try {
      await frame.waitForFunction(
        (want) => {
          const shown = document.documentElement.dataset.theme;
          return shown === undefined || shown === want;
        },
        theme,
        { timeout: timeoutMs, polling: 50 },
      );
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The attributes of the current View's outermost frame (the one in the host page), frame counts, and the
   * chain of frames from the host page down to the View.
   */
  async inspectFrame(): Promise<CapabilityResult> {
    const counts = await this.page.evaluate(() => {
      const frames = [...document.querySelectorAll("iframe")];
      return {
        total: frames.length,
        sandboxed: frames.filter((frame) => frame.hasAttribute("sandbox")).length,
      };
    });
    let outer = this.bridge?.frame ?? this.page.mainFrame().childFrames()[0] ?? null;
    while (outer !== null && outer.parentFrame() !== null && outer.parentFrame() !== this.page.mainFrame()) {
      outer = outer.parentFrame();
    }
    if (outer === null || outer.isDetached()) return { ok: false, error: "No app frame is on the host page" };
    const element = await outer.frameElement();
    let value: FrameInspection = {
      ...counts,
      firstSandbox: await element.getAttribute("sandbox"),
      allow: await element.getAttribute("allow"),
    };
    await element.dispose();
    const view = this.bridge?.frame;
    if (view !== undefined && !view.isDetached()) value = withFrameChain(value, await frameChain(view));
    return { ok: true, value };
  }

  /** Matches the buffered console lines against a pattern until the deadline; `ok` says one matched. */
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
    const line = await pollUntil(() => this.#console.find((entry) => pattern.test(entry)), {
      timeoutMs: request.timeoutMs,
      intervalMs: 50,
      signal: context.signal,
    });
    return consoleAnswer(line === undefined ? { matched: false } : { matched: true, line });
  }

  /**
   * Opens a further context in this host's browser (a second host page, say), traced like the main one: under
   * `--trace` its trace is kept beside the main one as `<host>-<name>-trace.zip`. Closed at teardown.
   */
  protected async openContext(name: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const browser = this.page.context().browser();
    if (browser === null) throw new Error(`Host "${this.id}" has no browser to open a second context in`);
    const context = await browser.newContext(options);
    this.#asides.push({ name, context });
    if (this.#tracing()) await context.tracing.start({ screenshots: true, snapshots: true });
    return context;
  }

  #tracing(): boolean {
    return this.#options !== null && this.#options.trace !== "off" && this.#options.artifactsDir !== null;
  }

  /** Stops a context's tracing, keeping the trace as `<host>[-name]-trace.zip` when asked or a test failed. */
  async #stopTrace(context: BrowserContext, name: string | null): Promise<void> {
    const options = this.#options!;
    if (options.trace === "on" || this.#failures > 0) {
      await Deno.mkdir(options.artifactsDir!, { recursive: true });
      const file = fileNamePart([this.id, ...(name === null ? [] : [name])].join("-"));
      await context.tracing.stop({ path: `${options.artifactsDir}/${file}-trace.zip` }).catch(() => {});
    } else {
      await context.tracing.stop().catch(() => {});
    }
  }

  /** Stops tracing (keeping the traces when asked), closes the browser and waits for its processes to end. */
  async teardown(): Promise<void> {
    const asides = this.#asides;
    this.#asides = [];
    // Once the run is aborted the browser goes at once: no trace is saved, no context closed one by one.
    const aborted = this.#options?.signal.aborted ?? false;
    if (this.#tracing() && !aborted) {
      if (this.#context !== null) await this.#stopTrace(this.#context, null);
      for (const aside of asides) await this.#stopTrace(aside.context, aside.name);
    }
    for (const aside of aborted ? [] : asides) await aside.context.close().catch(() => {});
    this.bridge = null;
    this.#page = null;
    this.#context = null;
    const launched = this.#launched ?? await this.#starting?.catch(() => null) ?? null;
    this.#launched = null;
    this.#starting = null;
    if (launched !== null) this.#lastLaunched = launched;
    await launched?.close();
  }
}
