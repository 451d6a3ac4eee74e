/**
 * Browser probes for the CSP checks: each one tries a load and says whether the View's policy allowed it,
 * using the signal that cannot be confused with a network error where one exists (a `securitypolicyviolation`
 * event, a script's side effect, a frame's own message). Every block check pairs with an allow control, and
 * {@linkcode withEvidence} tells a load the policy stopped (a violation names its origin) from one the network
 * lost.
 *
 * Every deadline here is scaled by the run's timeout multiplier (suite/apps/harness/timing.ts).
 *
 * @module
 */
import { pollUntil } from "../../../src/time.ts";
import { suiteDeadline } from "./timing.ts";

/** One `securitypolicyviolation` event, trimmed. */
export interface Violation {
  at: number;
  effectiveDirective: string;
  blockedURI: string;
  originalPolicy: string;
  disposition: string;
}

/** Collects every CSP violation of the document from the moment it is created. */
export class ViolationLog {
  readonly entries: Violation[] = [];

  constructor(doc: Document) {
    doc.addEventListener("securitypolicyviolation", (event: SecurityPolicyViolationEvent) => {
      this.entries.push({
        at: performance.now(),
        effectiveDirective: event.effectiveDirective,
        blockedURI: event.blockedURI,
        originalPolicy: event.originalPolicy,
        disposition: event.disposition,
      });
    });
  }

  /** Waits up to `timeoutMs` for a violation of `directive` (after `since`) whose blocked URI starts with `prefix`. */
  async waitFor(
    directive: string,
    options: { since: number; prefix?: string; timeoutMs: number },
  ): Promise<Violation | undefined> {
    return await pollUntil(
      () =>
        this.entries.find((v) =>
          v.at >= options.since && v.effectiveDirective === directive &&
          (options.prefix === undefined || v.blockedURI.startsWith(options.prefix))
        ),
      { timeoutMs: suiteDeadline(options.timeoutMs), intervalMs: 25 },
    );
  }

  /**
   * Waits up to `timeoutMs` for a violation of any directive (after `since`) whose blocked URI starts with
   * `origin`: the evidence that the policy, not the network, stopped a load from it.
   */
  blockedFrom(origin: string, options: { since: number; timeoutMs: number }): Promise<Violation | undefined> {
    return pollUntil(
      () => this.entries.find((v) => v.at >= options.since && namesOrigin(v.blockedURI, origin)),
      { timeoutMs: suiteDeadline(options.timeoutMs), intervalMs: 25 },
    );
  }

  /** The policy the View runs under, from any violation seen so far, or `undefined`. */
  appliedPolicy(): string | undefined {
    return this.entries.find((v) => v.originalPolicy)?.originalPolicy;
  }
}

/**
 * Whether `blockedURI` is from `origin` (or is the scheme `origin` names: `data`, `blob`): a prefix that ends
 * where the origin does, so `http://127.0.0.1:4123` is not taken for `http://127.0.0.1:41234`.
 */
export function namesOrigin(blockedURI: string, origin: string): boolean {
  if (!blockedURI.startsWith(origin)) return false;
  const next = blockedURI.charAt(origin.length);
  return next === "" || next === "/" || next === ":" || next === "?" || next === "#";
}

/** How a load went. */
export type LoadVerdict = "allowed" | "blocked" | "timeout";

/** A load's verdict and whether a CSP violation named its origin (so the policy, not the network, stopped it). */
export interface LoadEvidence {
  readonly origin: string;
  readonly verdict: LoadVerdict;
  readonly violation: boolean;
}

/** How long a violation event may trail the failed load it explains. */
const VIOLATION_GRACE_MS = 1_000;

/**
 * Runs `probe` (a load from `origin`) and, unless it was allowed, looks for the violation that explains it.
 * A load that failed without one failed for another reason: most likely the origin is unreachable.
 */
export async function withEvidence(
  violations: ViolationLog,
  origin: string,
  probe: () => Promise<LoadVerdict>,
): Promise<LoadEvidence> {
  const since = performance.now();
  const verdict = await probe();
  if (verdict === "allowed") return { origin, verdict, violation: false };
  const violation = await violations.blockedFrom(origin, { since, timeoutMs: VIOLATION_GRACE_MS });
  return { origin, verdict, violation: violation !== undefined };
}

/** `fetch(url, {mode: "no-cors"})`: resolves (opaque) when CSP allows it, rejects with `TypeError` when not. */
export async function probeFetch(url: string, timeoutMs = 5_000): Promise<LoadVerdict> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), suiteDeadline(timeoutMs));
  try {
    await fetch(url, { mode: "no-cors", cache: "no-store", signal: controller.signal });
    return "allowed";
  } catch {
    return controller.signal.aborted ? "timeout" : "blocked";
  } finally {
    clearTimeout(timer);
  }
}

/** Loads an image; `allowed` when it fires `load`. */
export function probeImage(doc: Document, url: string, timeoutMs = 5_000): Promise<LoadVerdict> {
  return new Promise((resolve) => {
    const image = doc.createElement("img");
    const timer = setTimeout(() => finish("timeout"), suiteDeadline(timeoutMs));
    const finish = (verdict: LoadVerdict) => {
      clearTimeout(timer);
      image.remove();
      resolve(verdict);
    };
    image.onload = () => finish("allowed");
    image.onerror = () => finish("blocked");
    image.style.display = "none";
    image.src = url;
    doc.body.append(image);
  });
}

/** Loads a control `flag.js?name=…`; `allowed` when the script ran (its global is set). */
export function probeScript(
  doc: Document,
  url: string,
  flag: string,
  timeoutMs = 5_000,
): Promise<LoadVerdict> {
  return new Promise((resolve) => {
    const script = doc.createElement("script");
    const timer = setTimeout(() => finish(), suiteDeadline(timeoutMs));
    const global = globalThis as unknown as Record<string, unknown>;
    const finish = () => {
      clearTimeout(timer);
      script.remove();
      resolve(global[flag] === true ? "allowed" : "blocked");
    };
    script.onload = finish;
    script.onerror = finish;
    script.src = url;
    doc.head.append(script);
  });
}

/** A script source that needs no network: a `data:` URL or a `blob:` URL the View makes itself. */
export type SchemeSource = "data" | "blob";

/** A URL of `scheme` holding `code`, and how to let go of it. */
function schemeUrl(scheme: SchemeSource, code: string): { url: string; release: () => void } {
  if (scheme === "data") {
    return { url: `data:text/javascript,${encodeURIComponent(code)}`, release: () => {} };
  }
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  return { url, release: () => URL.revokeObjectURL(url) };
}

/** Loads a `<script src>` of `scheme` that sets its global; `allowed` when it ran. */
export async function probeSchemeScript(
  doc: Document,
  scheme: SchemeSource,
  flag: string,
  timeoutMs = 3_000,
): Promise<LoadVerdict> {
  const { url, release } = schemeUrl(scheme, `globalThis.${flag} = true;`);
  try {
    return await probeScript(doc, url, flag, timeoutMs);
  } finally {
    release();
  }
}

/** Starts a Worker from a `blob:` URL that posts one message back; `allowed` when the message arrived. */
export function probeBlobWorker(timeoutMs = 3_000): Promise<LoadVerdict> {
  const { url, release } = schemeUrl("blob", "postMessage('conformance-worker');");
  return new Promise((resolve) => {
    let worker: Worker | undefined;
    const finish = (verdict: LoadVerdict) => {
      clearTimeout(timer);
      worker?.terminate();
      release();
      resolve(verdict);
    };
    const timer = setTimeout(() => finish("timeout"), suiteDeadline(timeoutMs));
    try {
      worker = new Worker(url);
    } catch {
      // Some browsers refuse a worker the policy forbids in the constructor.
      return finish("blocked");
    }
    worker.onmessage = () => finish("allowed");
    worker.onerror = () => finish("blocked");
  });
}

/** Embeds a control `frame.html`; `allowed` when the frame posted its "loaded" message. */
export function probeFrame(
  doc: Document,
  url: string,
  violations: ViolationLog,
  timeoutMs = 5_000,
): Promise<LoadVerdict> {
  return new Promise((resolve) => {
    const since = performance.now();
    const frame = doc.createElement("iframe");
    let settled = false;
    const finish = (verdict: LoadVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      globalThis.removeEventListener("message", onMessage);
      frame.remove();
      resolve(verdict);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { conformanceFrame?: unknown } | null;
      if (event.source === frame.contentWindow && data?.conformanceFrame === "loaded") finish("allowed");
    };
    const watch = setInterval(() => {
      if (violations.entries.some((v) => v.at >= since && v.effectiveDirective === "frame-src")) {
        finish("blocked");
      }
    }, 25);
    const timer = setTimeout(() => finish("timeout"), suiteDeadline(timeoutMs));
    globalThis.addEventListener("message", onMessage);
    frame.style.cssText = "width:1px;height:1px;border:0;position:absolute;left:-10px";
    frame.src = url;
    doc.body.append(frame);
  });
}

/**
 * Inserts `<base href>`: `allowed` when `document.baseURI` took it, `blocked` when a `base-uri` violation
 * fired, `timeout` when neither (the base was ignored for another reason). Removes the element afterwards.
 */
export async function probeBase(doc: Document, href: string, violations: ViolationLog): Promise<LoadVerdict> {
  const since = performance.now();
  const base = doc.createElement("base");
  base.href = href;
  doc.head.prepend(base);
  const took = doc.baseURI.startsWith(href);
  const violation = took ? undefined : await violations.waitFor("base-uri", { since, timeoutMs: 3_000 });
  base.remove();
  return took ? "allowed" : violation ? "blocked" : "timeout";
}

/** Embeds `<object data>`; `blocked` when an `object-src` violation fires, else `allowed` after `timeoutMs`. */
export async function probeObject(
  doc: Document,
  url: string,
  violations: ViolationLog,
  timeoutMs = 3_000,
): Promise<LoadVerdict> {
  const since = performance.now();
  const element = doc.createElement("object");
  element.data = url;
  element.type = "image/png";
  // In the View's viewport, whatever the View's height: an <object> the browser never lays out never loads.
  element.style.cssText = "width:1px;height:1px;position:fixed;left:0;top:0;opacity:0";
  doc.body.append(element);
  const violation = await violations.waitFor("object-src", { since, timeoutMs });
  element.remove();
  return violation ? "blocked" : "allowed";
}

/** Splits a CSP into directives: name → sources, plus the names seen more than once (injection evidence). */
export function parsePolicy(policy: string): { directives: Map<string, string[]>; duplicates: string[] } {
  const directives = new Map<string, string[]>();
  const duplicates: string[] = [];
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    const key = name.toLowerCase();
    if (directives.has(key)) duplicates.push(key);
    else directives.set(key, sources);
  }
  return { directives, duplicates };
}
