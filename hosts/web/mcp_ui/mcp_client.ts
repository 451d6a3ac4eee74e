/**
 * The `mcp-ui` host page's MCP client, as step 4 of the `@mcp-ui/client` Client SDK Walkthrough writes it
 * (`src/mcp-client.ts` there): an SDK 1.x `Client` that declares the UI extension with the package's own
 * `UI_EXTENSION_CAPABILITIES` (and `roots`, as the walkthrough does), over Streamable HTTP.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { UI_EXTENSION_CAPABILITIES } from "@mcp-ui/client";

/** Connects a client to `serverUrl`; the walkthrough's client name stands in for a product's. */
export async function createMcpClient(serverUrl: string): Promise<Client> {
  // The walkthrough types this `ClientCapabilitiesWithExtensions`; Deno's type checker resolves that type
  // against the package's own SDK copy, where it comes out empty, so the SDK's type (which has `extensions`)
  // stands in. The value is the walkthrough's.
  const capabilities: ClientCapabilities = {
    roots: { listChanged: true },
    extensions: UI_EXTENSION_CAPABILITIES,
  };
  const client = new Client({ name: "my-mcp-client", version: "1.0.0" }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl));
  await client.connect(transport);
  console.log("Connected to MCP server");
  return client;
}
