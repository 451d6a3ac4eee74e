/**
 * Prebuilds every asset the program builds with esbuild at run time into `dist/`, so `deno compile` can
 * embed them (`--include`): esbuild runs a native binary, which a compiled program cannot start from its
 * embedded file system, and the runtime falls back to these copies when esbuild is unavailable.
 *
 * Run it with `deno task assets` (`--quiet`: print nothing); `deno task compile` and `deno task conformance`
 * run it first.
 *
 * @module
 */
import { buildSuiteHtml, PREBUILT_SUITE_URL } from "../suite/apps/build.ts";
import { buildHostPageScript, PREBUILT_HOST_PAGE_URL } from "../hosts/web/reference/bundle.ts";
import { buildMcpUiPageScript, PREBUILT_MCP_UI_PAGE_URL } from "../hosts/web/mcp_ui/bundle.ts";

/** One prebuilt asset: where it goes and how it is made. */
export interface Asset {
  /** Path inside the repository, as given to `deno compile --include`. */
  readonly path: string;
  readonly url: URL;
  build(): Promise<string>;
}

const ROOT = new URL("../", import.meta.url);

function relative(url: URL): string {
  return url.href.slice(ROOT.href.length);
}

/** Every esbuild-built asset the program reads at run time. */
export const ASSETS: readonly Asset[] = [
  { path: relative(PREBUILT_SUITE_URL), url: PREBUILT_SUITE_URL, build: buildSuiteHtml },
  { path: relative(PREBUILT_HOST_PAGE_URL), url: PREBUILT_HOST_PAGE_URL, build: buildHostPageScript },
  { path: relative(PREBUILT_MCP_UI_PAGE_URL), url: PREBUILT_MCP_UI_PAGE_URL, build: buildMcpUiPageScript },
];

/**
 * Builds every asset and writes it to its place under `dist/`, one after the other (each build stops
 * esbuild's service when done). Returns the paths written, relative to the repository root.
 *
 * @example
 * ```ts ignore
 * import { buildAssets } from "./build_assets.ts";
 * await buildAssets(); // ["dist/suite_apps.html", "dist/reference_host_page.js", "dist/mcp_ui_host_page.js"]
 * ```
 */
export async function buildAssets(assets: readonly Asset[] = ASSETS): Promise<string[]> {
  const written: string[] = [];
  for (const asset of assets) {
    const text = await asset.build();
    await Deno.mkdir(new URL(".", asset.url), { recursive: true });
    await Deno.writeTextFile(asset.url, text);
    written.push(asset.path);
  }
  return written;
}

if (import.meta.main) {
  const written = await buildAssets();
  for (const path of Deno.args.includes("--quiet") ? [] : written) {
    const size = (await Deno.stat(new URL(path, ROOT))).size;
    console.error(`Wrote ${path} (${Math.round(size / 1024)} KB)`);
  }
}
