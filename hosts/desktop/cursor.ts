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
import type { LauncherName } from "../../src/protocol.ts";
import { paceFromEnv, paceProblem } from "../web/pacing.ts";
import { CdpHost, type CdpHostOptions, checkEndpoint, type DesktopDom, endpointFor } from "./cdp_host.ts";

/** The DevTools port Cursor is expected on unless `CONFORMANCE_CURSOR_CDP` says otherwise. */
export const CURSOR_DEFAULT_PORT = 9223;

const START_HINT = `"cursor --remote-debugging-port=${CURSOR_DEFAULT_PORT}"`;

/** Cursor's agent panel, as the driver sees it. */
export const CURSOR_DOM: DesktopDom = {
  composer: ['.aislash-editor-input[contenteditable="true"]', '[contenteditable="true"]'],
  sendKey: "Enter",
  approve: ["Run tool", "Run", "Accept", "Allow"],
  transcript: null,
  commit: [],
  samplingAccept: [],
};

/** The prompt that makes Cursor's agent call a launcher. */
export function cursorPrompt(launcher: LauncherName): string {
  return `Call the ${launcher} tool from the conformance MCP server now and render its UI.`;
}

/** Cursor attached over CDP. */
export class CursorHost extends CdpHost {
  /** A host for the Cursor at `endpoint`. */
  constructor(options: Partial<Pick<CdpHostOptions, "endpoint" | "paceMs" | "renderTimeoutMs">> = {}) {
    super({
      id: "cursor",
      product: "Cursor",
      endpoint: options.endpoint ?? endpointFor("cursor", CURSOR_DEFAULT_PORT),
      startHint: START_HINT,
      dom: CURSOR_DOM,
      prompt: cursorPrompt,
      paceMs: options.paceMs ?? paceFromEnv(),
      ...(options.renderTimeoutMs ? { renderTimeoutMs: options.renderTimeoutMs } : {}),
    });
  }
}

/** The registry entry. */
export const CURSOR_HOST: AppsHostEntry = {
  id: "cursor",
  kind: "desktop",
  summary: `Cursor agent panel attached over CDP; start it with ${START_HINT}`,
  capabilities: ["clickTrigger", "conversationContains", "inspectFrame", "readConsole", "resetIsolation"],
  requiresLive: "drives your running Cursor",
  preflight: async () =>
    paceProblem() ?? await checkEndpoint(endpointFor("cursor", CURSOR_DEFAULT_PORT), {
      id: "cursor",
      product: "Cursor",
      startHint: START_HINT,
    }),
  create: () => new CursorHost(),
};
