/** @jsxImportSource react */
/** @jsxImportSourceTypes @types/react */
/**
 * The host page's main component, as step 6 of the `@mcp-ui/client` Client SDK Walkthrough writes it
 * (`src/App.tsx` there): connect on mount, list the tools, show a button per tool with a UI resource, and
 * render the chosen one's {@linkcode ToolUI} with the walkthrough's fixed input.
 *
 * @module
 */
import { useEffect, useState } from "react";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createMcpClient } from "./mcp_client.ts";
import { ToolUI } from "./tool_ui.tsx";
import { type McpUiPageConfig, TOOLS_HEADING } from "./page_config.ts";

/** The walkthrough's input for every tool it launches. */
const TOOL_INPUT: Record<string, unknown> = { query: "Hello from client!" };

/** The page: the server's tools with UI, and the View of the one chosen. */
export function App({ config }: { readonly config: McpUiPageConfig }) {
  const [client, setClient] = useState<Client | null>(null);
  // deno-lint-ignore no-explicit-any -- the walkthrough's own type for the tool list
  const [tools, setTools] = useState<any[]>([]);
  const [selectedTool, setSelectedTool] = useState<string | null>(null);
  const [toolInput, setToolInput] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const connect = async () => {
      try {
        const mcpClient = await createMcpClient(config.mcpUrl);
        setClient(mcpClient);
        const toolsResult = await mcpClient.listTools({});
        setTools(toolsResult.tools);
      } catch (err) {
        setError(err instanceof Error ? err.message : String(err));
      }
    };
    connect();
  }, []);

  const toolsWithUI = tools.filter((tool) => tool._meta?.ui?.resourceUri);

  if (error) {
    return <div style={{ color: "red", padding: "20px" }}>Error: {error}</div>;
  }
  if (!client) {
    return <div style={{ padding: "20px" }}>Connecting to MCP server...</div>;
  }

  return (
    <div style={{ padding: "20px" }}>
      <h1>MCP Apps Client Demo</h1>
      <div style={{ marginBottom: "20px" }}>
        <h2>{TOOLS_HEADING}</h2>
        {toolsWithUI.length === 0
          ? <p>No tools with UI found. Make sure your server has tools with _meta.ui.resourceUri.</p>
          : (
            <ul>
              {toolsWithUI.map((tool) => (
                <li key={tool.name}>
                  <button
                    type="button"
                    onClick={() => {
                      setSelectedTool(tool.name);
                      setToolInput(TOOL_INPUT);
                    }}
                    style={{ fontWeight: selectedTool === tool.name ? "bold" : "normal" }}
                  >
                    {tool.name}
                  </button>
                  <span style={{ marginLeft: "10px", color: "#666" }}>{tool.description}</span>
                </li>
              ))}
            </ul>
          )}
      </div>
      {selectedTool && client && (
        <div style={{ border: "1px solid #ccc", padding: "20px", borderRadius: "8px" }}>
          <h2>Tool UI: {selectedTool}</h2>
          <ToolUI
            client={client}
            toolName={selectedTool}
            toolInput={toolInput}
            sandboxUrl={config.sandboxUrl}
          />
        </div>
      )}
    </div>
  );
}
