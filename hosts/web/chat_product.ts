/**
 * The registry entry shared by the real chat products (ChatGPT, Claude, Le Chat): what they can service, that
 * they run only with `--live`, and the preflight that stops a live run early without a signed-in profile.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import { CHAT_HOST_CAPABILITIES, type ChatHost } from "./chat_host.ts";
import { paceProblem } from "./pacing.ts";
import { defaultProfileDir, signedInProblem } from "./profile.ts";

/** Describes one chat product for {@linkcode chatProductEntry}. */
export interface ChatProduct {
  readonly id: string;
  readonly summary: string;
  /** Why it needs `--live`, e.g. "drives the real ChatGPT with your account". */
  readonly requiresLive: string;
  create(): ChatHost;
}

/**
 * The registry entry of a chat product.
 *
 * @example
 * ```ts
 * import { chatProductEntry } from "./chat_product.ts";
 * import { ChatGptHost } from "./chatgpt.ts";
 * const entry = chatProductEntry({
 *   id: "chatgpt",
 *   summary: "ChatGPT in a headful browser",
 *   requiresLive: "drives the real ChatGPT with your account",
 *   create: () => new ChatGptHost(),
 * });
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
    create: () => product.create(),
  };
}
