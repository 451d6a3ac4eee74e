/** @jsxImportSource react */
/** @jsxImportSourceTypes @types/react */
/**
 * The `mcp-ui` host page (browser entry, bundled with esbuild): a React root rendering {@linkcode App}, as the
 * Vite React template the `@mcp-ui/client` Client SDK Walkthrough starts from mounts it (`src/main.tsx`).
 *
 * @module
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { MCP_UI_CONFIG_ELEMENT_ID, type McpUiPageConfig } from "./page_config.ts";

const config = JSON.parse(
  document.getElementById(MCP_UI_CONFIG_ELEMENT_ID)?.textContent ?? "{}",
) as McpUiPageConfig;

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App config={config} />
  </StrictMode>,
);
