/**
 * claude.ai as an MCP Apps host. Its composer is a ProseMirror editor (one Enter sends); it asks before a
 * connector tool runs; it drafts an app's `ui/message` into the composer as a proposal ("Replace current
 * text?") that must be accepted and sent; it follows the OS colour scheme by default. Add the conformance
 * server as a custom connector (Settings → Connectors → Add custom connector → the public HTTPS URL of
 * `conformance serve`), then `conformance login --host claude-ai` once.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import { type ChatProduct, chatProductEntry } from "./chat_product.ts";

/** claude.ai, as the driver sees it. */
export const CLAUDE_AI: ChatProduct = {
  id: "claude-ai",
  name: "claude.ai",
  summary: "claude.ai in a headful browser on its own profile (conformance login --host claude-ai)",
  requiresLive: "drives the real claude.ai with your account",
  connectorHelp: "claude.ai → Settings → Connectors → Add custom connector, with the public HTTPS URL of " +
    '"conformance serve" (claude.ai must reach it: put a tunnel in front of 127.0.0.1), then enable it in the chat',
  dom: {
    url: "https://claude.ai/new",
    composer: ['div[contenteditable="true"]'],
    sendKey: "Enter",
    prompt: (launcher) => `Call the ${launcher} tool of the conformance connector now.`,
    approve: ["Allow once", "Always allow"],
    dismiss: ["Accept All Cookies"],
    transcript: null,
    commit: {
      labels: ["Replace current text?"],
      selectors: ['button[aria-label="Send message"]'],
      awaitDraft: true,
    },
    stop: ["Stop response"],
    dialogs: { download: ["Download"], sampling: [], link: ["Open link"] },
    theme: null,
    signedIn: 'div[contenteditable="true"]',
  },
};

/** The registry entry. */
export const CLAUDE_AI_HOST: AppsHostEntry = chatProductEntry(CLAUDE_AI);
