/**
 * Which frame must carry which sandbox tokens (the spec's "Sandbox proxy" rules), judged on
 * the chain of frames `inspectFrame` reports from the host page (depth 0) down to the View (the deepest):
 *
 * - S1, "All View content MUST be rendered in sandboxed iframes": some frame from the host page down to the
 *   View carries a `sandbox` attribute (sandbox flags are inherited by nested frames, so a sandboxed proxy
 *   sandboxes the View too, and a sandboxed View frame inside an unsandboxed proxy is sandboxed as well).
 * - S3, "The Sandbox MUST have … allow-scripts, allow-same-origin": the proxy (the View's parent frame) keeps
 *   both; a proxy frame without any `sandbox` attribute has every permission, so it keeps them too.
 * - No frame on the way grants an escape token: a View written into an `about:blank` frame shares its
 *   proxy's origin and can act through the proxy's window, so the proxy's tokens are the View's.
 *
 * A View *more* isolated than required (its own frame without `allow-same-origin`, an opaque origin, as the
 * MCP Inspector renders it on purpose) breaks none of these.
 *
 * @module
 */
import type { FrameLink } from "../../../src/protocol.ts";

/** Sandbox tokens that let the View escape its frame. */
export const DANGEROUS_TOKENS = ["allow-top-navigation", "allow-popups-to-escape-sandbox"];

/** The tokens of a `sandbox` attribute value. */
export function tokensOf(sandbox: string): string[] {
  return sandbox.split(/\s+/).filter(Boolean);
}

/** A frame as messages name it: its role, depth and sandbox attribute. */
export function describeFrame(link: FrameLink, viewDepth: number): string {
  const role = link.depth === 0
    ? "the host page"
    : link.depth === viewDepth
    ? "the View's frame"
    : link.depth === viewDepth - 1
    ? "the sandbox proxy frame"
    : "an enclosing frame";
  const sandbox = link.depth === 0
    ? ""
    : link.sandbox === null
    ? ", no sandbox attribute"
    : `, sandbox "${link.sandbox}"`;
  const origin = link.origin === undefined ? "" : `, origin ${link.origin}`;
  return `${role} (depth ${link.depth}${sandbox}${origin})`;
}

/** The tokens left after every sandboxed frame of `links` (nested sandboxes only ever take permissions away). */
function effectiveTokens(links: readonly FrameLink[]): Set<string> | "unrestricted" {
  const sandboxes = links.flatMap((link) => link.sandbox === null ? [] : [tokensOf(link.sandbox)]);
  const [first, ...rest] = sandboxes;
  if (first === undefined) return "unrestricted";
  return new Set(first.filter((token) => rest.every((other) => other.includes(token))));
}

/** What {@linkcode judgeSandboxTokens} found: the broken rules, and the frames it looked at. */
export interface SandboxJudgement {
  readonly problems: string[];
  readonly inspected: string[];
}

/**
 * Judges the sandbox attributes along `frames` (host page first, View last) against S1, S3 and the escape
 * tokens.
 *
 * @example
 * ```ts
 * import { judgeSandboxTokens } from "./_sandbox.ts";
 * // The MCP Inspector's layout: an unsandboxed proxy, an opaque View.
 * judgeSandboxTokens([
 *   { depth: 0, sandbox: null, allow: null },
 *   { depth: 1, sandbox: null, allow: null },
 *   { depth: 2, sandbox: "allow-scripts allow-forms", allow: null },
 * ]).problems; // []
 * ```
 */
export function judgeSandboxTokens(frames: readonly FrameLink[]): SandboxJudgement {
  const viewDepth = frames.length - 1;
  const appFrames = frames.slice(1);
  const inspected = appFrames.map((link) => describeFrame(link, viewDepth));
  const problems: string[] = [];
  if (viewDepth < 1) return { problems: ["The View is the host page itself, in no frame at all"], inspected };
  const view = effectiveTokens(appFrames);
  if (view === "unrestricted") {
    problems.push("No frame from the host page down to the View carries a sandbox attribute");
  } else if (!view.has("allow-scripts")) {
    problems.push("The View's frames leave it without allow-scripts");
  }
  for (const link of appFrames) {
    const granted = link.sandbox === null
      ? []
      : tokensOf(link.sandbox).filter((token) => DANGEROUS_TOKENS.includes(token));
    if (granted.length > 0) problems.push(`${describeFrame(link, viewDepth)} grants ${granted.join(" ")}`);
  }
  if (viewDepth >= 2) {
    const proxy = effectiveTokens(appFrames.slice(0, -1));
    const missing = proxy === "unrestricted"
      ? []
      : ["allow-scripts", "allow-same-origin"].filter((token) => !proxy.has(token));
    if (missing.length > 0) {
      problems.push(
        `${describeFrame(frames[viewDepth - 1]!, viewDepth)} lacks ${missing.join(" ")} ` +
          "(the Sandbox must have allow-scripts and allow-same-origin)",
      );
    }
  }
  return { problems, inspected };
}

/**
 * The S2 problem ("the Host and the Sandbox MUST have different origins") seen from outside the View: the
 * View's parent frame has the host page's origin. `null` when they differ, `undefined` when the chain does
 * not tell (no proxy, or an origin the host could not read).
 */
export function proxyOriginProblem(frames: readonly FrameLink[]): string | null | undefined {
  const viewDepth = frames.length - 1;
  if (viewDepth < 2) return undefined;
  const host = frames[0]!;
  const proxy = frames[viewDepth - 1]!;
  if (host.origin === undefined || proxy.origin === undefined) return undefined;
  if (host.origin !== proxy.origin) return null;
  return `${describeFrame(proxy, viewDepth)} has the host page's origin`;
}
