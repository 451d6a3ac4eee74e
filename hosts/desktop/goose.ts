/**
 * Goose desktop as an MCP Apps host, attached over CDP. Start it with `--remote-debugging-port=9224` (or set
 * `CONFORMANCE_GOOSE_CDP`) and add the conformance server as an extension (Settings → Extensions → Add custom
 * extension → Streamable HTTP → the URL `conformance serve` prints). Goose opens links and downloads outside
 * its window, so those tests SKIP. Selectors below were not checked against a live Goose here.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import { desktopEntry, type DesktopProduct } from "./desktop_host.ts";

/** The DevTools port Goose is expected on unless `CONFORMANCE_GOOSE_CDP` says otherwise. */
export const GOOSE_DEFAULT_PORT = 9224;

const START_HINT = `"goose-desktop --remote-debugging-port=${GOOSE_DEFAULT_PORT}" (macOS: ` +
  `open -a Goose --args --remote-debugging-port=${GOOSE_DEFAULT_PORT})`;

/** Goose's chat, as the driver sees it. */
export const GOOSE: DesktopProduct = {
  id: "goose",
  name: "Goose",
  summary: `Goose desktop attached over CDP; start it with ${START_HINT}`,
  requiresLive: "drives your running Goose",
  capabilities: ["clickTrigger", "conversationContains", "inspectFrame", "readConsole", "resetIsolation"],
  defaultPort: GOOSE_DEFAULT_PORT,
  startHint: START_HINT,
  prompt: (launcher) =>
    `Run the MCP Apps conformance suite: call the ${launcher} tool of the conformance extension now.`,
  composer: ['textarea[data-testid="chat-input"]'],
  sendKey: "Enter",
  approve: [],
  transcript: null,
  samplingAccept: [],
};

/** The registry entry. */
export const GOOSE_HOST: AppsHostEntry = desktopEntry(GOOSE);
