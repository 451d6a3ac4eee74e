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
import type { LauncherName } from "../../src/protocol.ts";
import { type ChatDom, ChatHost, type ChatHostOptions } from "./chat_host.ts";
import { paceFromEnv } from "./pacing.ts";
import { chatProductEntry } from "./chat_product.ts";

const SELECTORS = {
  url: "https://claude.ai/new",
  composer: 'div[contenteditable="true"]',
  send: 'button[aria-label="Send message"]',
  signedIn: 'div[contenteditable="true"]',
} as const;

const LABELS = {
  cookies: ["Accept All Cookies"],
  approveTool: ["Allow once", "Always allow"],
  acceptDraft: ["Replace current text?"],
  stop: ["Stop response"],
  download: ["Download"],
  openLink: ["Open link"],
} as const;

/** How to add the conformance server to claude.ai. */
export const CLAUDE_AI_CONNECTOR_HELP =
  "claude.ai → Settings → Connectors → Add custom connector, with the public HTTPS URL of " +
  '"conformance serve" (claude.ai must reach it: put a tunnel in front of 127.0.0.1), then enable it in the chat';

/** claude.ai's DOM. */
export function claudeAiDom(url: string = SELECTORS.url): ChatDom {
  return {
    url,
    composer: [SELECTORS.composer],
    sendKey: "Enter",
    prompt: (launcher: LauncherName) => `Call the ${launcher} tool of the conformance connector now.`,
    approve: LABELS.approveTool,
    dismiss: LABELS.cookies,
    transcript: null,
    commit: { labels: LABELS.acceptDraft, selectors: [SELECTORS.send], awaitDraft: true },
    stop: LABELS.stop,
    dialogs: { download: LABELS.download, sampling: [], link: LABELS.openLink },
    theme: null,
    signedIn: SELECTORS.signedIn,
  };
}

/** claude.ai in a headful browser on its own profile. */
export class ClaudeAiHost extends ChatHost {
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
      id: "claude-ai",
      product: "claude.ai",
      dom: claudeAiDom(options.url),
      paceMs: options.paceMs ?? paceFromEnv(),
      persistent: true,
      connectorHelp: CLAUDE_AI_CONNECTOR_HELP,
      ...(options.headless !== undefined ? { headless: options.headless } : {}),
      ...(options.renderTimeoutMs !== undefined ? { renderTimeoutMs: options.renderTimeoutMs } : {}),
    });
  }
}

/** The registry entry. */
export const CLAUDE_AI_HOST: AppsHostEntry = chatProductEntry({
  id: "claude-ai",
  summary: "claude.ai in a headful browser on its own profile (conformance login --host claude-ai)",
  requiresLive: "drives the real claude.ai with your account",
  create: () => new ClaudeAiHost(),
});
