/**
 * The reference host page (a browser entry): its script, bundled once per process by `../page_bundle.ts`, and
 * the HTML that inlines it.
 *
 * @module
 */
import { chatSurfaceHtml } from "./chat_surface.ts";
import { HOST_CONFIG_ELEMENT_ID } from "./page_state.ts";
import { pageBundle } from "../page_bundle.ts";

const HOST_PAGE = pageBundle({
  name: "the reference host page",
  entry: new URL("./host_page.ts", import.meta.url),
  prebuilt: new URL("../../../dist/reference_host_page.js", import.meta.url),
});

/**
 * The prebuilt script (`deno task assets`), embedded in the compiled binary with `--include`: esbuild runs a
 * native binary, which a compiled program cannot start from its embedded file system.
 */
export const PREBUILT_HOST_PAGE_URL: URL = HOST_PAGE.prebuiltUrl;

/**
 * The host page script, minified; the first call builds it (~0.2 s), later calls reuse it. Where esbuild
 * cannot run (the compiled binary), the prebuilt copy is used.
 */
export function hostPageScript(): Promise<string> {
  return HOST_PAGE.script();
}

/** Bundles the host page with esbuild (no cache, no fallback); `tools/build_assets.ts` prebuilds with it. */
export function buildHostPageScript(): Promise<string> {
  return HOST_PAGE.build();
}

/**
 * The host page HTML: the config element, the app slot inside the chat surface (composer and theme setting
 * above it, conversation below; see `chat_surface.ts`), and the inlined bundle (`</script` escaped). With
 * `panels`, the page-wide app controls are left out: each View's panel has its own.
 */
export function hostPageHtml(script: string, configJson: string, options: { panels?: boolean } = {}): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>MCP Apps reference host</title>` +
    `<meta name="color-scheme" content="light dark">` +
    `<style>body{font:14px system-ui;margin:16px;color-scheme:light dark}</style></head><body>` +
    `<h1 style="font-size:16px">MCP Apps reference host</h1>${
      chatSurfaceHtml(`<div id="app-slot"></div>`, { appControls: !options.panels })
    }` +
    `<script id="${HOST_CONFIG_ELEMENT_ID}" type="application/json">${
      configJson.replaceAll("<", "\\u003c")
    }</script>` +
    `<script>${script.replaceAll("</script", "<\\/script")}</script></body></html>`;
}
