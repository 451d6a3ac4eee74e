/**
 * Bundles the reference host page (a browser entry) into one IIFE with esbuild's JS API, once per process.
 * esbuild's service is stopped after each build so Deno can exit.
 *
 * @module
 */
import { sourceOutsideReadPermission } from "../../../src/permissions.ts";
import * as esbuild from "esbuild";
import { chatSurfaceHtml } from "./chat_surface.ts";
import { HOST_CONFIG_ELEMENT_ID } from "./page_state.ts";
import { fileURLToPath as fromFileUrl } from "node:url";

const HOST_PAGE_ENTRY = new URL("./host_page.ts", import.meta.url);
const PROJECT_ROOT = new URL("../../../", import.meta.url);

/**
 * The prebuilt script (`deno task assets`), embedded in the compiled binary with `--include`: esbuild runs a
 * native binary, which a compiled program cannot start from its embedded file system.
 */
export const PREBUILT_HOST_PAGE_URL = new URL("../../../dist/reference_host_page.js", import.meta.url);

let cached: Promise<string> | null = null;

/**
 * The host page script, minified; the first call builds it (~0.2 s), later calls reuse it. Where esbuild
 * cannot run (the compiled binary), the prebuilt copy is used.
 */
export function hostPageScript(): Promise<string> {
  cached ??= buildOrPrebuilt().catch((error) => {
    cached = null;
    throw error;
  });
  return cached;
}

async function buildOrPrebuilt(): Promise<string> {
  try {
    return await buildHostPageScript();
  } catch (buildError) {
    try {
      return await Deno.readTextFile(PREBUILT_HOST_PAGE_URL);
    } catch (readError) {
      if (readError instanceof Deno.errors.NotCapable) throw new Error(sourceOutsideReadPermission());
      throw new Error(
        `Cannot build the reference host page (${String(buildError)}) and no prebuilt ` +
          `${PREBUILT_HOST_PAGE_URL.pathname} exists: run "deno task assets" first`,
      );
    }
  }
}

/** Bundles the host page with esbuild (no cache, no fallback); `tools/build_assets.ts` prebuilds with it. */
export async function buildHostPageScript(): Promise<string> {
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

/**
 * The host page HTML: the config element, the app slot inside the chat surface (composer and theme setting
 * above it, conversation below; see `chat_surface.ts`), and the inlined bundle (`</script` escaped).
 */
export function hostPageHtml(script: string, configJson: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>MCP Apps reference host</title>` +
    `<meta name="color-scheme" content="light dark">` +
    `<style>body{font:14px system-ui;margin:16px;color-scheme:light dark}</style></head><body>` +
    `<h1 style="font-size:16px">MCP Apps reference host</h1>${chatSurfaceHtml(`<div id="app-slot"></div>`)}` +
    `<script id="${HOST_CONFIG_ELEMENT_ID}" type="application/json">${
      configJson.replaceAll("<", "\\u003c")
    }</script>` +
    `<script>${script.replaceAll("</script", "<\\/script")}</script></body></html>`;
}
