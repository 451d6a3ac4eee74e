/**
 * Whether the mcp-use Inspector can run here, for the tests that drive it (`mcp-use` and `mcp-use-chat`; they
 * are ignored where it cannot).
 *
 * @module
 */
import { shimPath } from "../../../hosts/installed.ts";
import { MCP_USE_BINARY, MCP_USE_ID } from "../../../hosts/web/mcp_use_process.ts";
import { binEnvName } from "../../../src/exec/find_executable.ts";

/** Whether `hosts:install --only mcp-use` (or `CONFORMANCE_MCP_USE_BIN`) provides the mcp-use Inspector. */
export function mcpUseInstalled(): boolean {
  if (Deno.env.get(binEnvName(MCP_USE_ID))) return true;
  try {
    return Deno.statSync(shimPath(MCP_USE_BINARY)).isFile;
  } catch {
    return false;
  }
}
