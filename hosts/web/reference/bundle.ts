/**
 * Bundles the reference host page (a browser entry) into one IIFE with esbuild's JS API, once per process.
 * esbuild's service is stopped after each build so Deno can exit.
 *
 * @module
 */
import * as esbuild from "esbuild";
import { HOST_CONFIG_ELEMENT_ID } from "./page_state.ts";
import { fileURLToPath as fromFileUrl } from "node:url";

const HOST_PAGE_ENTRY = new URL("./host_page.ts", import.meta.url);
const PROJECT_ROOT = new URL("../../../", import.meta.url);

let cached: Promise<string> | null = null;

/** The host page script, minified; the first call builds it (~0.2 s), later calls reuse it. */
export function hostPageScript(): Promise<string> {
  cached ??= build().catch((error) => {
    cached = null;
    throw error;
  });
  return cached;
}

async function build(): Promise<string> {
  try {
    const result = await esbuild.build({
      entryPoints: [fromFileUrl(HOST_PAGE_ENTRY)],
      absWorkingDir: fromFileUrl(PROJECT_ROOT),
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    const file = result.outputFiles[0];
    if (file === undefined) throw new Error("esbuild produced no output for the reference host page");
    return file.text;
  } finally {
    await esbuild.stop();
  }
}

/** The host page HTML: the config element, an app slot, and the inlined bundle (`</script` escaped). */
export function hostPageHtml(script: string, configJson: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>MCP Apps reference host</title>` +
    `<meta name="color-scheme" content="light dark">` +
    `<style>body{font:14px system-ui;margin:16px;color-scheme:light dark}</style></head><body>` +
    `<h1 style="font-size:16px">MCP Apps reference host</h1><div id="app-slot"></div>` +
    `<script id="${HOST_CONFIG_ELEMENT_ID}" type="application/json">${
      configJson.replaceAll("<", "\\u003c")
    }</script>` +
    `<script>${script.replaceAll("</script", "<\\/script")}</script></body></html>`;
}
