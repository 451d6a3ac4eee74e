/**
 * VS Code (GitHub Copilot Chat in agent mode) as an MCP Apps host, attached over CDP. Start it with
 * `code --remote-debugging-port=9222` (or set `CONFORMANCE_VSCODE_CDP`), add the conformance server to its MCP
 * servers (`conformance serve`, then "MCP: Add Server…" → HTTP → the printed URL), and keep a chat view open.
 * Selectors below are VS Code's workbench classes as of 1.10x; none was checked against a live VS Code here.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import type { CapabilityResult, LauncherName, ModelToolList } from "../../src/protocol.ts";
import type { CapabilityContext } from "../../src/runner/host.ts";
import { paceFromEnv, paceProblem } from "../web/pacing.ts";
import { CdpHost, type CdpHostOptions, checkEndpoint, type DesktopDom, endpointFor } from "./cdp_host.ts";

/** The DevTools port VS Code is expected on unless `CONFORMANCE_VSCODE_CDP` says otherwise. */
export const VSCODE_DEFAULT_PORT = 9222;

const START_HINT = `"code --remote-debugging-port=${VSCODE_DEFAULT_PORT}"`;

/** VS Code's chat view, as the driver sees it. */
export const VSCODE_DOM: DesktopDom = {
  composer: [
    ".interactive-input-part .monaco-editor textarea",
    ".chat-input-container .monaco-editor textarea",
  ],
  sendKey: "Enter",
  approve: ["Allow", "Continue"],
  transcript: ".interactive-list .monaco-list-row",
  commit: [],
  samplingAccept: ["Allow"],
};

/** The chat toolbar button that opens the tool picker, and the picker's rows. */
const TOOL_PICKER_BUTTON = '.interactive-input-part [aria-label^="Configure Tools"]';
const TOOL_PICKER_ROW = ".quick-input-list .monaco-list-row";

/** The prompt that makes Copilot call a launcher. */
export function vscodePrompt(launcher: LauncherName): string {
  return `#${launcher} Call the ${launcher} tool of the conformance server now, with no arguments.`;
}

/** VS Code attached over CDP; it also reads the model's tool list from the chat's tool picker. */
export class VsCodeHost extends CdpHost {
  /** A host for the VS Code at `endpoint`. */
  constructor(options: Partial<Pick<CdpHostOptions, "endpoint" | "paceMs" | "renderTimeoutMs">> = {}) {
    super({
      id: "vscode",
      product: "VS Code",
      endpoint: options.endpoint ?? endpointFor("vscode", VSCODE_DEFAULT_PORT),
      startHint: START_HINT,
      dom: VSCODE_DOM,
      prompt: vscodePrompt,
      paceMs: options.paceMs ?? paceFromEnv(),
      ...(options.renderTimeoutMs ? { renderTimeoutMs: options.renderTimeoutMs } : {}),
    });
  }

  /** Opens "Configure Tools…", reads the enabled tools' names, and closes the picker. */
  async readModelToolList(_request: unknown, context: CapabilityContext): Promise<CapabilityResult> {
    const page = this.appPage();
    const button = page.locator(TOOL_PICKER_BUTTON).first();
    if (!await button.isVisible().catch(() => false)) {
      return { ok: false, error: `VS Code shows no tool picker button (${TOOL_PICKER_BUTTON})` };
    }
    await button.click({ timeout: Math.min(context.timeoutMs, 10_000) });
    try {
      await page.locator(TOOL_PICKER_ROW).first().waitFor({ timeout: 10_000 });
      const tools = await page.locator(TOOL_PICKER_ROW).evaluateAll((rows) =>
        rows
          .filter((row) => row.querySelector('[aria-checked="true"], .monaco-custom-toggle.checked') !== null)
          .map((row) => (row.querySelector(".label-name")?.textContent ?? "").trim())
          .filter((name) => name !== "")
      );
      return { ok: true, value: { tools } satisfies ModelToolList };
    } finally {
      await page.keyboard.press("Escape");
    }
  }
}

/** The registry entry. */
export const VSCODE_HOST: AppsHostEntry = {
  id: "vscode",
  kind: "desktop",
  summary: `VS Code chat (Copilot agent mode) attached over CDP; start it with ${START_HINT}`,
  capabilities: [
    "clickTrigger",
    "confirmDialog",
    "conversationContains",
    "readModelToolList",
    "inspectFrame",
    "readConsole",
    "resetIsolation",
  ],
  requiresLive: "drives your running VS Code",
  preflight: async () =>
    paceProblem() ?? await checkEndpoint(endpointFor("vscode", VSCODE_DEFAULT_PORT), {
      id: "vscode",
      product: "VS Code",
      startHint: START_HINT,
    }),
  create: () => new VsCodeHost(),
};
