/**
 * What the `mcp-ui` host page is served with (an inline JSON element) and what it shows the Runner: the two
 * URLs a product would hard-code (its MCP server and its sandbox proxy), and nothing else.
 *
 * @module
 */

/** The configuration of one `mcp-ui` host page. */
export interface McpUiPageConfig {
  /** The conformance MCP server's Streamable HTTP endpoint. */
  readonly mcpUrl: string;
  /** The sandbox proxy page, on a distinct origin (`localhost` vs the page's `127.0.0.1`). */
  readonly sandboxUrl: string;
}

/** The `id` of the config element. */
export const MCP_UI_CONFIG_ELEMENT_ID = "mcp-ui-config";

/** The heading the page shows once it is connected and lists the tools with UI (the Runner waits for it). */
export const TOOLS_HEADING = "Available Tools with UI";
