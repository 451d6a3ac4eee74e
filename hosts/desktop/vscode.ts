/**
 * VS Code (GitHub Copilot Chat in agent mode) as an MCP Apps host, attached over CDP. Start it with
 * `code --remote-debugging-port=9222` (or set `CONFORMANCE_VSCODE_CDP`), add the conformance server to its MCP
 * servers (`conformance serve`, then "MCP: Add Server…" → HTTP → the printed URL), and keep a chat view open.
 * Selectors below are VS Code's workbench classes as of 1.10x; none was checked against a live VS Code here.
 *
 * @module
 */
import type { AppsHostEntry } from "../../src/host.ts";
import type { CapabilityResult, ModelToolList } from "../../src/protocol.ts";
import type { CapabilityContext } from "../../src/runner/host.ts";
import { desktopEntry, DesktopHost, type DesktopProduct, type DesktopRun } from "./desktop_host.ts";

/** The DevTools port VS Code is expected on unless `CONFORMANCE_VSCODE_CDP` says otherwise. */
export const VSCODE_DEFAULT_PORT = 9222;

const START_HINT = `"code --remote-debugging-port=${VSCODE_DEFAULT_PORT}"`;

/** VS Code's chat view, as the driver sees it. */
export const VSCODE: DesktopProduct = {
  id: "vscode",
  name: "VS Code",
  summary: `VS Code chat (Copilot agent mode) attached over CDP; start it with ${START_HINT}`,
  requiresLive: "drives your running VS Code",
  capabilities: [
    "clickTrigger",
    "confirmDialog",
    "conversationContains",
    "readModelToolList",
    "inspectFrame",
    "readConsole",
    "resetIsolation",
  ],
  defaultPort: VSCODE_DEFAULT_PORT,
  startHint: START_HINT,
  prompt: (launcher) =>
    `#${launcher} Call the ${launcher} tool of the conformance server now, with no arguments.`,
  composer: [
    ".interactive-input-part .monaco-editor textarea",
    ".chat-input-container .monaco-editor textarea",
  ],
  sendKey: "Enter",
  approve: ["Allow", "Continue"],
  transcript: ".interactive-list .monaco-list-row",
  samplingAccept: ["Allow"],
};

/** The chat toolbar button that opens the tool picker, and the picker's rows. */
const TOOL_PICKER_BUTTON = '.interactive-input-part [aria-label^="Configure Tools"]';
const TOOL_PICKER_ROW = ".quick-input-list .monaco-list-row";

/** VS Code attached over CDP; it also reads the model's tool list from the chat's tool picker. */
export class VsCodeHost extends DesktopHost {
  /** A host for the VS Code at `endpoint`. */
  constructor(run: DesktopRun = {}) {
    super(VSCODE, run);
  }

  /** Opens "Configure Tools…", reads the enabled tools' names, and closes the picker. */
  async readModelToolList(_request: unknown, context: CapabilityContext): Promise<CapabilityResult> {
    const page = this.page;
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
      return { ok: true, value: tools satisfies ModelToolList };
    } finally {
      await page.keyboard.press("Escape");
    }
  }
}

/** The registry entry. */
export const VSCODE_HOST: AppsHostEntry = desktopEntry(VSCODE, () => new VsCodeHost());
