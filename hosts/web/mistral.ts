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
import { type ChatProduct, chatProductEntry } from "./chat_product.ts";

/** Le Chat, as the driver sees it. */
export const MISTRAL: ChatProduct = {
  id: "mistral",
  name: "Le Chat",
  summary: "Mistral Le Chat in a headful browser on its own profile (conformance login --host mistral)",
  requiresLive: "drives the real Le Chat with your account",
  connectorHelp:
    "Le Chat → Intelligence → Connectors → Add connector → Custom MCP connector, with the public HTTPS URL of " +
    '"conformance serve" (Le Chat must reach it: put a tunnel in front of 127.0.0.1)',
  dom: {
    url: "https://chat.mistral.ai/chat",
    composer: ['div[contenteditable="true"]'],
    sendKey: "Enter",
    prompt: (launcher) => `Call the ${launcher} tool of the conformance connector now.`,
    approve: [],
    dismiss: ["Accept all", "Tout accepter", "Accept"],
    transcript: null,
    commit: { labels: [], selectors: ['button[aria-label="Send"]'], awaitDraft: true },
    stop: ["Stop generation"],
    dialogs: { download: ["Download"], sampling: [], link: ["Confirm"] },
    theme: null,
    signedIn: 'div[contenteditable="true"]',
  },
};

/** The registry entry. */
export const MISTRAL_HOST: AppsHostEntry = chatProductEntry(MISTRAL);
