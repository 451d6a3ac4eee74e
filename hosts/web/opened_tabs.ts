/**
 * {@linkcode OpenedTabs}: the URLs the tabs a host page opens have tried to load, for `checkLinkOpen`. A tab
 * counts as opened for a URL once it navigated there, or once it asked for it: a tab whose page cannot load
 * (an unreachable origin, offline) ends on the browser's error page, and only its navigation request still
 * shows the URL it opened.
 *
 * @module
 */
import type { Page } from "playwright-core";
import type { CapabilityResult } from "../../src/protocol.ts";
import type { CapabilityContext } from "../../src/runner/host.ts";
import { pollUntil } from "../../src/time.ts";
import { actionTimeoutMs } from "../../src/runner/deadlines.ts";

/**
 * The URLs of the tabs opened beside one host page.
 *
 * @example
 * ```ts ignore
 * const tabs = new OpenedTabs();
 * tabs.watch(page);
 * // … the View asks the host to open https://example.com/ …
 * tabs.find("https://example.com/"); // "https://example.com/" once a tab asked for it
 * ```
 */
export class OpenedTabs {
  #urls: string[] = [];

  /** Records every tab that opens in `page`'s context (besides `page` itself) and each URL it asks for. */
  watch(page: Page): void {
    const context = page.context();
    context.on("page", (tab) => {
      this.#urls.push(tab.url() || "about:blank");
      tab.on("framenavigated", (frame) => {
        if (frame === tab.mainFrame()) this.#urls.push(frame.url());
      });
    });
    context.on("request", (request) => {
      try {
        const frame = request.frame();
        if (request.isNavigationRequest() && frame.parentFrame() === null && frame.page() !== page) {
          this.#urls.push(request.url());
        }
      } catch {
        // A service worker's request has no frame.
      }
    });
  }

  /** The first URL a tab opened or asked for that starts with `prefix`. */
  find(prefix: string): string | undefined {
    return this.#urls.find((url) => url.startsWith(prefix));
  }

  /**
   * Waits, up to 30 s or the test's deadline, for a tab that opened or asked for a URL starting with `prefix`:
   * the `checkLinkOpen` answer of a host whose page opens links itself. 10 s was too short under load (fresh-clone
   * CI of 2026-12-05); only a host that opens nothing waits it out.
   */
  async waitFor(prefix: string, context: CapabilityContext): Promise<CapabilityResult> {
    const opened = await pollUntil(() => this.find(prefix), {
      timeoutMs: actionTimeoutMs(context),
      intervalMs: 50,
      signal: context.signal,
    });
    if (opened !== undefined) return { ok: true, value: { opened: true, url: opened } };
    return { ok: false, error: `No tab opened ${prefix}`, value: { opened: false } };
  }

  /** Forgets the tabs so far (between tests). */
  clear(): void {
    this.#urls = [];
  }
}
