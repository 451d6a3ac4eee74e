/**
 * The `mcp-ui` host page: its script (the React page of `page.tsx`), bundled once per process by
 * `../page_bundle.ts` like the reference page, and the HTML that inlines it.
 *
 * The page's own SDK imports resolve to the copy `@mcp-ui/client` resolves, so that the page's `Client` and
 * the one `AppRenderer` is handed are one module, as a product's npm install (one hoisted SDK) gives it; the
 * project's other dependencies would otherwise pull in a second SDK 1.x copy.
 *
 * @module
 */
import type * as esbuild from "esbuild";
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { pageBundle } from "../page_bundle.ts";
import { MCP_UI_CONFIG_ELEMENT_ID, type McpUiPageConfig } from "./page_config.ts";

const HERE = fromFileUrl(new URL(".", import.meta.url));

const SDK_AS_MCP_UI_RESOLVES_IT: esbuild.Plugin = {
  name: "sdk-as-mcp-ui-resolves-it",
  setup(build) {
    const inner = Symbol("inner");
    let from: Promise<string> | null = null;
    build.onResolve({ filter: /^@modelcontextprotocol\/sdk\// }, async (args) => {
      if (args.pluginData === inner) return undefined;
      from ??= build.resolve("@mcp-ui/client", {
        kind: "import-statement",
        resolveDir: HERE,
        pluginData: inner,
      })
        .then((result) => dirname(result.path));
      return await build.resolve(args.path, { kind: args.kind, resolveDir: await from, pluginData: inner });
    });
  },
};

const HOST_PAGE = pageBundle({
  name: "the mcp-ui host page",
  entry: new URL("./page.tsx", import.meta.url),
  prebuilt: new URL("../../../dist/mcp_ui_host_page.js", import.meta.url),
  esbuild: {
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [SDK_AS_MCP_UI_RESOLVES_IT],
    legalComments: "none",
  },
});

/** Where `deno task assets` writes the prebuilt script, embedded in the compiled binary. */
export const PREBUILT_MCP_UI_PAGE_URL: URL = HOST_PAGE.prebuiltUrl;

/** The page script; built on first use, else the prebuilt copy. */
export function mcpUiPageScript(): Promise<string> {
  return HOST_PAGE.script();
}

/** Bundles the page with esbuild (no cache, no fallback); `tools/build_assets.ts` prebuilds with it. */
export function buildMcpUiPageScript(): Promise<string> {
  return HOST_PAGE.build();
}

/** The page HTML: a React root, the config element and the inlined bundle (every `</script` escaped). */
export function mcpUiPageHtml(script: string, config: McpUiPageConfig): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps Client Demo</title>` +
    `</head><body><div id="root"></div>` +
    `<script id="${MCP_UI_CONFIG_ELEMENT_ID}" type="application/json">${
      JSON.stringify(config).replaceAll("<", "\\u003c")
    }</script>` +
    `<script>${script.replace(/<\/(script)/gi, "<\\/$1")}</script></body></html>`;
}
