/**
 * The reference host's Content-Security-Policy for the sandbox proxy, sent as an HTTP header so the View (an
 * `about:blank` frame that inherits the proxy's policy container) cannot remove it. Built from the declared
 * domains exactly as the spec constructs it, with the spec's restrictive default when nothing
 * is declared, no `'unsafe-eval'`, and every domain validated as an origin so a hostile string cannot inject
 * a directive.
 *
 * @module
 */
import type { DeclaredCsp } from "../../../src/fixtures.ts";
import type { VariantName } from "./variants.ts";

/** How a broken variant bends the policy; all `false` for the conformant host. */
export interface CspFlaws {
  /** Concatenate domain strings verbatim (vercel/ai#17192). */
  readonly unsanitized?: boolean;
  /** `connect-src *`: allow undeclared origins (no loosening broken). */
  readonly loose?: boolean;
  /** Add `'unsafe-eval'` to `script-src` (basic-host style). */
  readonly unsafeEval?: boolean;
  /** Add `blob: data:` to `script-src` (basic-host style), which workers fall back to as well. */
  readonly schemeScripts?: boolean;
  /** Leave the declared `resourceDomains` out (anthropics/claude-ai-mcp#40, #54). */
  readonly ignoreResourceDomains?: boolean;
  /** Leave the declared `frameDomains` out (same reports). */
  readonly ignoreFrameDomains?: boolean;
}

/** The policy flaws of a broken variant (none for the conformant host or unrelated variants). */
export function cspFlawsOf(variant: VariantName | null): CspFlaws {
  return {
    loose: variant === "loose-csp",
    unsanitized: variant === "csp-unsanitized",
    unsafeEval: variant === "csp-unsafe-eval",
    schemeScripts: variant === "csp-scheme-scripts",
    ignoreResourceDomains: variant === "resource-domains-ignored",
    ignoreFrameDomains: variant === "frame-domains-ignored",
  };
}

/** `scheme://host[:port]`, host optionally `*.`-prefixed: the only domain shape the host passes on. */
const ORIGIN_SHAPE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

/** Whether a declared domain string is a plain origin (the sanitised form keeps only these). */
export function isOriginSource(domain: string): boolean {
  return ORIGIN_SHAPE.test(domain);
}

/**
 * The policy for a View whose resource declared `csp` (or nothing).
 *
 * @example
 * ```ts
 * import { buildCsp } from "./csp.ts";
 * buildCsp(undefined); // "default-src 'none'; script-src 'self' 'unsafe-inline'; …; base-uri 'self'"
 * ```
 */
export function buildCsp(csp: DeclaredCsp | undefined, flaws: CspFlaws = {}): string {
  const keep = (domains: string[] | undefined) =>
    (domains ?? []).filter((domain) => flaws.unsanitized || isOriginSource(domain));
  const eval_ = (flaws.unsafeEval ? " 'unsafe-eval'" : "") + (flaws.schemeScripts ? " blob: data:" : "");
  const loose = flaws.loose ? " *" : "";
  if (csp === undefined) {
    return [
      "default-src 'none'",
      `script-src 'self' 'unsafe-inline'${eval_}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "media-src 'self' data:",
      "object-src 'none'",
      `connect-src ${flaws.loose ? "*" : "'none'"}`,
      "frame-src 'none'",
      "base-uri 'self'",
    ].join("; ");
  }
  const list = (domains: string[] | undefined) => keep(domains).map((domain) => ` ${domain}`).join("");
  const resources = flaws.ignoreResourceDomains ? "" : list(csp.resourceDomains);
  const frames = flaws.ignoreFrameDomains ? [] : keep(csp.frameDomains);
  const bases = keep(csp.baseUriDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${eval_}${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `media-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `connect-src 'self'${list(csp.connectDomains)}${loose}`,
    `frame-src ${frames.length > 0 ? frames.join(" ") : "'none'"}`,
    `base-uri ${bases.length > 0 ? bases.join(" ") : "'self'"}`,
    "object-src 'none'",
  ].join("; ");
}
