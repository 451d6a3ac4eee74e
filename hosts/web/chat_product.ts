/**
 * A real chat product (ChatGPT, Claude, Le Chat) as data: a {@linkcode ChatProduct} record holds its DOM, its
 * name, its summary and how to add the conformance server to it. One {@linkcode ChatHost} drives them all, on
 * a persistent profile; the registry entry says what they service, that they run only with `--live`, and
 * checks for a signed-in profile before a live run starts.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import { CHAT_HOST_CAPABILITIES, type ChatDom, ChatHost } from "./chat_host.ts";
import { paceFromEnv, paceProblem } from "./pacing.ts";
import { defaultProfileDir, signedInProblem } from "./profile.ts";

/** One chat product, as data. */
export interface ChatProduct {
  readonly id: string;
  /** The product's name for messages, e.g. "ChatGPT". */
  readonly name: string;
  readonly summary: string;
  /** Why it needs `--live`, e.g. "drives the real ChatGPT with your account". */
  readonly requiresLive: string;
  /** How to add the conformance server to the product, shown after `conformance login`. */
  readonly connectorHelp: string;
  /** Its page, at the product's own URL. */
  readonly dom: ChatDom;
}

/** How to drive a product: the real one by default; tests point `url` at a local page and run headless. */
export interface ChatProductRun {
  readonly url?: string;
  readonly paceMs?: number;
  readonly headless?: boolean;
  readonly renderTimeoutMs?: number;
}

/** The host that drives `product` in a headful browser on its own profile. */
export function chatProductHost(product: ChatProduct, run: ChatProductRun = {}): ChatHost {
  return new ChatHost({
    id: product.id,
    product: product.name,
    dom: run.url === undefined ? product.dom : { ...product.dom, url: run.url },
    paceMs: run.paceMs ?? paceFromEnv(),
    persistent: true,
    connectorHelp: product.connectorHelp,
    ...(run.headless !== undefined ? { headless: run.headless } : {}),
    ...(run.renderTimeoutMs !== undefined ? { renderTimeoutMs: run.renderTimeoutMs } : {}),
  });
}

/**
 * The registry entry of a chat product.
 *
 * @example
 * ```ts
 * import { chatProductEntry } from "./chat_product.ts";
 * import { CHATGPT } from "./chatgpt.ts";
 * const entry = chatProductEntry(CHATGPT);
 * entry.create(); // a ChatHost on ChatGPT
 * ```
 */
export function chatProductEntry(product: ChatProduct): AppsHostEntry {
  return {
    id: product.id,
    kind: "web",
    summary: product.summary,
    capabilities: CHAT_HOST_CAPABILITIES,
    requiresLive: product.requiresLive,
    preflight: async (options) =>
      paceProblem() ?? await signedInProblem(product.id, options.profileDir ?? defaultProfileDir(product.id)),
    create: () => chatProductHost(product),
  };
}
