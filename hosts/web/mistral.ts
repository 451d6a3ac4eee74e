/**
 * Mistral Le Chat as an MCP Apps host. Its composer is a ProseMirror editor (one Enter sends); it drafts an
 * app's `ui/message` into the composer, to be sent with the Send button; its open-link consent accepts with
 * "Confirm"; a reply still streaming is stopped between tests. Add the conformance server as a custom MCP
 * connector (Intelligence → Connectors → Add connector → the public HTTPS URL of `conformance serve`), then
 * `conformance login --host mistral` once.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import type { LauncherName } from "../../src/protocol.ts";
import { type ChatDom, ChatHost, type ChatHostOptions } from "./chat_host.ts";
import { paceFromEnv } from "./pacing.ts";
import { chatProductEntry } from "./chat_product.ts";

const SELECTORS = {
  url: "https://chat.mistral.ai/chat",
  composer: 'div[contenteditable="true"]',
  send: 'button[aria-label="Send"]',
  signedIn: 'div[contenteditable="true"]',
} as const;

const LABELS = {
  cookies: ["Accept all", "Tout accepter", "Accept"],
  stop: ["Stop generation"],
  download: ["Download"],
  openLink: ["Confirm"],
} as const;

/** How to add the conformance server to Le Chat. */
export const MISTRAL_CONNECTOR_HELP =
  "Le Chat → Intelligence → Connectors → Add connector → Custom MCP connector, with the public HTTPS URL of " +
  '"conformance serve" (Le Chat must reach it: put a tunnel in front of 127.0.0.1)';

/** Le Chat's DOM. */
export function mistralDom(url: string = SELECTORS.url): ChatDom {
  return {
    url,
    composer: [SELECTORS.composer],
    sendKey: "Enter",
    prompt: (launcher: LauncherName) => `Call the ${launcher} tool of the conformance connector now.`,
    approve: [],
    dismiss: LABELS.cookies,
    transcript: null,
    commit: { labels: [], selectors: [SELECTORS.send], awaitDraft: true },
    stop: LABELS.stop,
    dialogs: { download: LABELS.download, sampling: [], link: LABELS.openLink },
    theme: null,
    signedIn: SELECTORS.signedIn,
  };
}

/** Le Chat in a headful browser on its own profile. */
export class MistralHost extends ChatHost {
  /** The real product by default; tests point `url` at a local page and run headless. */
  constructor(
    options:
      & { url?: string; paceMs?: number; headless?: boolean }
      & Pick<
        Partial<ChatHostOptions>,
        "renderTimeoutMs"
      > = {},
  ) {
    super({
      id: "mistral",
      product: "Le Chat",
      dom: mistralDom(options.url),
      paceMs: options.paceMs ?? paceFromEnv(),
      persistent: true,
      connectorHelp: MISTRAL_CONNECTOR_HELP,
      ...(options.headless !== undefined ? { headless: options.headless } : {}),
      ...(options.renderTimeoutMs !== undefined ? { renderTimeoutMs: options.renderTimeoutMs } : {}),
    });
  }
}

/** The registry entry. */
export const MISTRAL_HOST: AppsHostEntry = chatProductEntry({
  id: "mistral",
  summary: "Mistral Le Chat in a headful browser on its own profile (conformance login --host mistral)",
  requiresLive: "drives the real Le Chat with your account",
  create: () => new MistralHost(),
});
