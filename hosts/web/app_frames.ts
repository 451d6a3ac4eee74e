/**
 * Finding and reading the app on a real host's pages, where nothing is ours but the View: the suite frame
 * among every page's frames (any depth, out-of-process frames included), the outermost frame that holds it
 * (whose attributes `inspectFrame` reports), the conversation text outside the app, and host buttons found by
 * their visible label.
 *
 * @module
 */
import type { ElementHandle, Frame, Locator, Page } from "playwright-core";
import { type FrameInspection, withFrameChain } from "../../src/protocol.ts";
import { redact } from "../../src/report/redact.ts";
import { frameChain } from "../../src/runner/frame_chain.ts";
import { pollUntil } from "../../src/time.ts";

/** Whether the suite's channel is installed in `frame`; false for detached or navigating frames. */
export async function carriesSuite(frame: Frame): Promise<boolean> {
  if (frame.isDetached()) return false;
  try {
    return await frame.evaluate(() => typeof globalThis.__mcpConformance?.poll === "function");
  } catch {
    return false;
  }
}

/** How {@linkcode findAppFrame} looks. */
export interface FindAppFrameOptions {
  readonly timeoutMs: number;
  /** Frames to pass over (Views rendered before this launch). */
  readonly exclude?: ReadonlySet<Frame>;
  readonly signal?: AbortSignal;
  /** Between scans; real hosts render slowly, so there is no point scanning often. */
  readonly intervalMs?: number;
}

/**
 * Scans every frame of `pages()` until one carries the suite; the last one found wins (the newest render).
 * `pages` is a function because a desktop app or a product may open windows while we wait.
 */
export async function findAppFrame(
  pages: () => readonly Page[],
  options: FindAppFrameOptions,
): Promise<Frame> {
  const chosen = await pollUntil(async () => {
    const frames = pages().flatMap((page) => page.isClosed() ? [] : page.frames())
      .filter((frame) => !options.exclude?.has(frame));
    const found = await Promise.all(frames.map(carriesSuite));
    return frames.filter((_, index) => found[index]).at(-1);
  }, { timeoutMs: options.timeoutMs, intervalMs: options.intervalMs ?? 250, signal: options.signal });
  if (chosen !== undefined) return chosen;
  if (options.signal?.aborted) throw new Error("Stopped looking for the app: the run was aborted");
  const count = pages().reduce((n, page) => n + (page.isClosed() ? 0 : page.frames().length), 0);
  throw new Error(
    `No frame with the conformance suite appeared within ${Math.round(options.timeoutMs / 1000)} s ` +
      `(${pages().length} pages, ${count} frames): the host did not render the app`,
  );
}

/** The frame directly under its page's main frame that contains `frame` (itself when it is top-level). */
export function outermostAppFrame(frame: Frame): Frame {
  let current = frame;
  while (current.parentFrame() !== null && current.parentFrame()!.parentFrame() !== null) {
    current = current.parentFrame()!;
  }
  return current;
}

/**
 * The iframe counts of the app's page, the attributes of the app's outermost frame element, and the chain of
 * frames from the page down to the View: what the View cannot see about itself.
 */
export async function inspectAppFrame(appFrame: Frame): Promise<FrameInspection> {
  const outer = outermostAppFrame(appFrame);
  const element = await outer.frameElement();
  try {
    const attributes = await element.evaluate((node: Element) => ({
      sandbox: node.getAttribute("sandbox"),
      allow: node.getAttribute("allow"),
    }));
    const page = outer.page();
    const counts = await page.evaluate(() => {
      const frames = [...document.querySelectorAll("iframe")];
      return { total: frames.length, sandboxed: frames.filter((f) => f.hasAttribute("sandbox")).length };
    });
    return withFrameChain(
      { ...counts, firstSandbox: attributes.sandbox, allow: attributes.allow },
      await frameChain(appFrame),
    );
  } finally {
    await element.dispose();
  }
}

/** The turn text found by {@linkcode findConversationText}. */
export interface TranscriptHit {
  readonly text: string;
  /**
   * Who wrote the turn, where the page says so on the matching element or an ancestor (`data-role`, or
   * `data-message-author-role` as ChatGPT marks its turns).
   */
  readonly role?: "user" | "assistant";
}

/**
 * Looks for `marker` in the conversation: the text of the elements matching `transcript` in every frame that
 * is not a View (the app shows its own markers, which must not count), or, where no element matches, the
 * frame's whole body text.
 */
export async function findConversationText(
  pages: readonly Page[],
  marker: string,
  transcript: string | null,
): Promise<TranscriptHit | null> {
  for (const page of pages) {
    if (page.isClosed()) continue;
    for (const frame of page.frames()) {
      if (await carriesSuite(frame)) continue;
      try {
        const hit = await frame.evaluate(([selector, wanted]) => {
          const nodes = selector ? [...document.querySelectorAll<HTMLElement>(selector)] : [];
          const texts = nodes.length > 0
            ? nodes.map((node) => ({ node, text: node.innerText ?? node.textContent ?? "" }))
            : [{ node: null, text: document.body?.innerText ?? "" }];
          const found = texts.find((entry) => entry.text.includes(wanted));
          if (found === undefined) return null;
          const marked = found.node?.closest("[data-role],[data-message-author-role]");
          const role = marked?.getAttribute("data-role") ?? marked?.getAttribute("data-message-author-role");
          return {
            text: found.text,
            role: role === "user" || role === "assistant" ? role as "user" | "assistant" : null,
          };
        }, [transcript, marker] as const);
        if (hit !== null) {
          return { text: lineWith(hit.text, marker), ...(hit.role === null ? {} : { role: hit.role }) };
        }
      } catch {
        // A frame that navigated or went away while we read it.
      }
    }
  }
  return null;
}

/**
 * The line of `text` that holds `marker`, trimmed (a whole transcript is too much for a report) and with
 * anything shaped like a credential redacted (a real conversation is the user's).
 */
function lineWith(text: string, marker: string): string {
  return redact((text.split("\n").find((line) => line.includes(marker)) ?? text).trim().slice(0, 500));
}

/**
 * Clicks the first visible button or link on `page` whose accessible name is one of `labels` (exactly), until
 * `timeoutMs` passes; returns the label clicked, or `null`. With `near`, the one nearest the element it gives
 * (the View's frame: the match in the smallest ancestor of it that holds one), not the first on the page;
 * nothing is clicked while `near` gives `null`.
 */
export async function clickByLabel(
  page: Page,
  labels: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
  near?: () => Promise<ElementHandle | null>,
): Promise<string | null> {
  const clicked = await pollUntil(async () => {
    if (near !== undefined) return await clickNearest(page, labels, near);
    for (const label of labels) {
      for (const role of ["button", "link"] as const) {
        const target = page.getByRole(role, { name: label, exact: true }).first();
        try {
          if (await target.isVisible()) {
            await target.click({ timeout: 5_000 });
            return label;
          }
        } catch {
          // Re-rendered while we clicked; look again.
        }
      }
    }
    return undefined;
  }, { timeoutMs, intervalMs: 250, signal });
  return clicked ?? null;
}

/** One try of {@linkcode clickByLabel} with `near`: the visible match nearest the anchor, clicked. */
async function clickNearest(
  page: Page,
  labels: readonly string[],
  near: () => Promise<ElementHandle | null>,
): Promise<string | undefined> {
  const anchor = await near();
  if (anchor === null) return undefined;
  const found: { label: string; target: Locator }[] = [];
  for (const label of labels) {
    for (const role of ["button", "link"] as const) {
      for (const target of await page.getByRole(role, { name: label, exact: true }).all()) {
        if (await target.isVisible().catch(() => false)) found.push({ label, target });
      }
    }
  }
  const chosen = found[await nearestTo(anchor, found.map((entry) => entry.target))];
  if (chosen === undefined) return undefined;
  try {
    await chosen.target.click({ timeout: 5_000 });
    return chosen.label;
  } catch {
    // Re-rendered while we clicked; look again.
    return undefined;
  }
}

/**
 * The index of the element of `candidates` nearest `anchor`: the one in the smallest ancestor of `anchor` that
 * holds any (the first of those on a tie); -1 when there are none.
 */
async function nearestTo(anchor: ElementHandle, candidates: readonly Locator[]): Promise<number> {
  const handles = (await Promise.all(
    candidates.map((candidate) => candidate.elementHandle({ timeout: 1_000 }).catch(() => null)),
  ))
    .filter((handle) => handle !== null);
  if (handles.length !== candidates.length) return -1;
  return await anchor.evaluate((node, elements) => {
    let best = -1;
    let bestLevel = Infinity;
    elements.forEach((element, index) => {
      let level = 0;
      for (let scope = node.parentElement; scope !== null; scope = scope.parentElement, level++) {
        if (scope.contains(element)) break;
      }
      if (level < bestLevel) [best, bestLevel] = [index, level];
    });
    return best;
  }, handles);
}
