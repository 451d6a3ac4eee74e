/**
 * The server log's client capabilities: from `initialize`, and from a stateless client (MCP 2026-07-28, as the
 * mcp-use Inspector 20.3.10 sends it: `server/discover` first, no `initialize`, the capabilities in every
 * request's `_meta`), recorded at `server/discover` and when they change, not once per request.
 */
import assert from "node:assert/strict";
import { ServerLogRecorder } from "../../src/server/server_log.ts";

const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const meta = (capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "mcp-use Inspector", version: "20.3.10" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

Deno.test("a stateless client's capabilities are recorded at server/discover and when they change", () => {
  const log = new ServerLogRecorder();
  log.recordMessage({ jsonrpc: "2.0", id: "d", method: "server/discover", params: { _meta: meta(UI) } });
  for (const [id, method] of ["tools/list", "resources/list", "tools/call"].entries()) {
    log.recordMessage({ jsonrpc: "2.0", id, method, params: { name: "x", _meta: meta(UI) } });
  }
  assert.deepEqual(log.snapshot().clientCapabilities, [UI]);
  assert.deepEqual(log.snapshot().clientInfo, [{ name: "mcp-use Inspector", version: "20.3.10" }]);
  log.recordMessage({ jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: meta({}) } });
  assert.deepEqual(log.snapshot().clientCapabilities, [UI, {}]);
  // A request without them records nothing; initialize still does, as before.
  log.recordMessage({ jsonrpc: "2.0", id: 10, method: "tools/list", params: {} });
  log.recordMessage({ jsonrpc: "2.0", id: 11, method: "initialize", params: { capabilities: UI } });
  assert.equal(log.snapshot().clientCapabilities.length, 3);
});
