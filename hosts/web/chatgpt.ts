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
import { type ChatProduct, chatProductEntry } from "./chat_product.ts";

/** ChatGPT, as the driver sees it. */
export const CHATGPT: ChatProduct = {
  id: "chatgpt",
  name: "ChatGPT",
  summary: "ChatGPT in a headful browser on its own profile (conformance login --host chatgpt)",
  requiresLive: "drives the real ChatGPT with your account",
  connectorHelp:
    "ChatGPT → Settings → Apps & Connectors → Advanced settings → Developer mode on, then Create a connector " +
    'with the public HTTPS URL of "conformance serve" (ChatGPT must reach it: put a tunnel in front of 127.0.0.1)',
  dom: {
    url: "https://chatgpt.com/",
    composer: ["#prompt-textarea"],
    sendKey: "Enter",
    prompt: (launcher) => `Use the conformance connector: call its ${launcher} tool now.`,
    approve: ["Confirm"],
    dismiss: ["Got it", "Maybe later", "Dismiss"],
    transcript: "[data-message-author-role]",
    commit: null,
    stop: ["Stop streaming"],
    dialogs: { download: ["Download"], sampling: [], link: ["Open link"] },
    theme: null,
    signedIn: '[data-testid="accounts-profile-button"]',
  },
};

/** The registry entry. */
export const CHATGPT_HOST: AppsHostEntry = chatProductEntry(CHATGPT);
