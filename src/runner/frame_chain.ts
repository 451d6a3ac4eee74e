/**
 * The chain of documents from a page's top document down to the View, read from outside the View: each
 * frame element's `sandbox` and `allow` attributes and each document's origin. `inspectFrame` answers with it
 * so the suite can judge the frame a rule names (the sandbox proxy, or the View's own frame), which the View
 * cannot see about itself.
 *
 * @module
 */
import type { Frame } from "playwright-core";
import type { FrameLink } from "../protocol.ts";

/**
 * The {@linkcode FrameLink}s from the top document of `view`'s page (depth 0) down to `view` itself.
 *
 * @example
 * ```ts ignore
 * import { frameChain } from "./frame_chain.ts";
 * const frames = await frameChain(bridge.frame);
 * frames.at(-1)?.sandbox; // the View frame's own sandbox attribute
 * ```
 */
export async function frameChain(view: Frame): Promise<FrameLink[]> {
  const path: Frame[] = [];
  for (let frame: Frame | null = view; frame !== null; frame = frame.parentFrame()) path.unshift(frame);
  return await Promise.all(path.map((frame, depth) => linkOf(frame, depth)));
}

async function linkOf(frame: Frame, depth: number): Promise<FrameLink> {
  const link: FrameLink = { depth, sandbox: null, allow: null };
  if (depth > 0) {
    const element = await frame.frameElement();
    try {
      link.sandbox = await element.getAttribute("sandbox");
      link.allow = await element.getAttribute("allow");
    } finally {
      await element.dispose();
    }
  }
  // Read from inside the frame: an about:blank or srcdoc document takes its origin from its creator, which
  // its URL does not show.
  const origin = await frame.evaluate(() => self.origin).catch(() => undefined);
  if (typeof origin === "string") link.origin = origin;
  return link;
}
