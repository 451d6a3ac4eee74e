/**
 * Cursor (the agent panel) as an MCP Apps host, attached over CDP. Start it with
 * `cursor --remote-debugging-port=9223` (or set `CONFORMANCE_CURSOR_CDP`) and add the conformance server to
 * `~/.cursor/mcp.json` as `{"mcpServers": {"conformance": {"url": "<URL conformance serve prints>"}}}`. The
 * app renders inside a nested webview; the frame search finds it at any depth. Selectors below were not
 * checked against a live Cursor here.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import { desktopEntry, type DesktopProduct } from "./desktop_host.ts";

/** The DevTools port Cursor is expected on unless `CONFORMANCE_CURSOR_CDP` says otherwise. */
export const CURSOR_DEFAULT_PORT = 9223;

const START_HINT = `"cursor --remote-debugging-port=${CURSOR_DEFAULT_PORT}"`;

/** Cursor's agent panel, as the driver sees it. */
export const CURSOR: DesktopProduct = {
  id: "cursor",
  name: "Cursor",
  summary: `Cursor agent panel attached over CDP; start it with ${START_HINT}`,
  requiresLive: "drives your running Cursor",
  capabilities: ["clickTrigger", "conversationContains", "inspectFrame", "readConsole", "resetIsolation"],
  defaultPort: CURSOR_DEFAULT_PORT,
  startHint: START_HINT,
  prompt: (launcher) => `Call the ${launcher} tool from the conformance MCP server now and render its UI.`,
  composer: ['.aislash-editor-input[contenteditable="true"]', '[contenteditable="true"]'],
  sendKey: "Enter",
  approve: ["Run tool", "Run", "Accept", "Allow"],
  transcript: null,
  samplingAccept: [],
};

/** The registry entry. */
export const CURSOR_HOST: AppsHostEntry = desktopEntry(CURSOR);
