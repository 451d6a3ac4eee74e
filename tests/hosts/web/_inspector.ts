/**
 * Whether the MCP Inspector can run here, for the tests that drive it (they are ignored where it cannot).
 *
 * @module
 */
import { shimPath } from "../../../hosts/installed.ts";
import { MCP_INSPECTOR_ID } from "../../../hosts/web/mcp_inspector_process.ts";
import { binEnvName } from "../../../src/exec/find_executable.ts";

/** Whether `hosts:install` (or `CONFORMANCE_MCP_INSPECTOR_BIN`) provides the Inspector. */
export function inspectorInstalled(): boolean {
  if (Deno.env.get(binEnvName(MCP_INSPECTOR_ID))) return true;
  try {
    return Deno.statSync(shimPath(MCP_INSPECTOR_ID)).isFile;
  } catch {
    return false;
  }
}
