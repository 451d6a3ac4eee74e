/**
 * Goose desktop as an MCP Apps host, attached over CDP. Start it with `--remote-debugging-port=9224` (or set
 * `CONFORMANCE_GOOSE_CDP`) and add the conformance server as an extension (Settings → Extensions → Add custom
 * extension → Streamable HTTP → the URL `conformance serve` prints). Goose opens links and downloads outside
 * its window, so those tests SKIP. Selectors below were not checked against a live Goose here.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import type { LauncherName } from "../../src/protocol.ts";
import { paceFromEnv, paceProblem } from "../web/pacing.ts";
import { CdpHost, type CdpHostOptions, checkEndpoint, type DesktopDom, endpointFor } from "./cdp_host.ts";

/** The DevTools port Goose is expected on unless `CONFORMANCE_GOOSE_CDP` says otherwise. */
export const GOOSE_DEFAULT_PORT = 9224;

const START_HINT = `"goose-desktop --remote-debugging-port=${GOOSE_DEFAULT_PORT}" (macOS: ` +
  `open -a Goose --args --remote-debugging-port=${GOOSE_DEFAULT_PORT})`;

/** Goose's chat, as the driver sees it. */
export const GOOSE_DOM: DesktopDom = {
  composer: ['textarea[data-testid="chat-input"]'],
  sendKey: "Enter",
  approve: [],
  transcript: null,
  commit: [],
  samplingAccept: [],
};

/** The prompt that makes Goose call a launcher. */
export function goosePrompt(launcher: LauncherName): string {
  return `Run the MCP Apps conformance suite: call the ${launcher} tool of the conformance extension now.`;
}

/** Goose attached over CDP. */
export class GooseHost extends CdpHost {
  /** A host for the Goose at `endpoint`. */
  constructor(options: Partial<Pick<CdpHostOptions, "endpoint" | "paceMs" | "renderTimeoutMs">> = {}) {
    super({
      id: "goose",
      product: "Goose",
      endpoint: options.endpoint ?? endpointFor("goose", GOOSE_DEFAULT_PORT),
      startHint: START_HINT,
      dom: GOOSE_DOM,
      prompt: goosePrompt,
      paceMs: options.paceMs ?? paceFromEnv(),
      ...(options.renderTimeoutMs ? { renderTimeoutMs: options.renderTimeoutMs } : {}),
    });
  }
}

/** The registry entry. */
export const GOOSE_HOST: AppsHostEntry = {
  id: "goose",
  kind: "desktop",
  summary: `Goose desktop attached over CDP; start it with ${START_HINT}`,
  capabilities: ["clickTrigger", "conversationContains", "inspectFrame", "readConsole", "resetIsolation"],
  requiresLive: "drives your running Goose",
  preflight: async () =>
    paceProblem() ?? await checkEndpoint(endpointFor("goose", GOOSE_DEFAULT_PORT), {
      id: "goose",
      product: "Goose",
      startHint: START_HINT,
    }),
  create: () => new GooseHost(),
};
