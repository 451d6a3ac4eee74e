/**
 * ChatGPT as an MCP Apps host. Its composer is `#prompt-textarea`; write actions ask for confirmation; it
 * sends an app's `ui/message` straight into the conversation (nothing to commit); it offers no sampling; its
 * "System" theme follows the OS colour scheme. Add the conformance server as a connector in developer mode
 * (Settings → Apps & Connectors → Advanced settings → Developer mode, then Create → the public HTTPS URL of
 * `conformance serve`), then `conformance login --host chatgpt` once.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import type { LauncherName } from "../../src/protocol.ts";
import { type ChatDom, ChatHost, type ChatHostOptions } from "./chat_host.ts";
import { paceFromEnv } from "./pacing.ts";
import { chatProductEntry } from "./chat_product.ts";

const SELECTORS = {
  url: "https://chatgpt.com/",
  composer: "#prompt-textarea",
  transcript: "[data-message-author-role]",
  signedIn: '[data-testid="accounts-profile-button"]',
} as const;

const LABELS = {
  dismiss: ["Got it", "Maybe later", "Dismiss"],
  approveTool: ["Confirm"],
  stop: ["Stop streaming"],
  download: ["Download"],
  openLink: ["Open link"],
} as const;

/** How to add the conformance server to ChatGPT. */
export const CHATGPT_CONNECTOR_HELP =
  "ChatGPT → Settings → Apps & Connectors → Advanced settings → Developer mode on, then Create a connector " +
  'with the public HTTPS URL of "conformance serve" (ChatGPT must reach it: put a tunnel in front of 127.0.0.1)';

/** ChatGPT's DOM. */
export function chatgptDom(url: string = SELECTORS.url): ChatDom {
  return {
    url,
    composer: [SELECTORS.composer],
    sendKey: "Enter",
    prompt: (launcher: LauncherName) => `Use the conformance connector: call its ${launcher} tool now.`,
    approve: LABELS.approveTool,
    dismiss: LABELS.dismiss,
    transcript: SELECTORS.transcript,
    commit: null,
    stop: LABELS.stop,
    dialogs: { download: LABELS.download, sampling: [], link: LABELS.openLink },
    theme: null,
    signedIn: SELECTORS.signedIn,
  };
}

/** ChatGPT in a headful browser on its own profile. */
export class ChatGptHost extends ChatHost {
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
      id: "chatgpt",
      product: "ChatGPT",
      dom: chatgptDom(options.url),
      paceMs: options.paceMs ?? paceFromEnv(),
      persistent: true,
      connectorHelp: CHATGPT_CONNECTOR_HELP,
      ...(options.headless !== undefined ? { headless: options.headless } : {}),
      ...(options.renderTimeoutMs !== undefined ? { renderTimeoutMs: options.renderTimeoutMs } : {}),
    });
  }
}

/** The registry entry. */
export const CHATGPT_HOST: AppsHostEntry = chatProductEntry({
  id: "chatgpt",
  summary: "ChatGPT in a headful browser on its own profile (conformance login --host chatgpt)",
  requiresLive: "drives the real ChatGPT with your account",
  create: () => new ChatGptHost(),
});
