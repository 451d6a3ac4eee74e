/**
 * A host page's script: a browser entry bundled into one minified IIFE with esbuild's JS API, built once per
 * process, with a prebuilt copy under `dist/` for where esbuild cannot run (the compiled binary: esbuild
 * starts a native binary, which a compiled program cannot run from its embedded file system). The reference
 * host page and the `mcp-ui` host page are both made this way; `tools/build_assets.ts` prebuilds each.
 *
 * @module
 */
import { sourceOutsideReadPermission } from "../../src/permissions.ts";
import * as esbuild from "esbuild";
import { fileURLToPath as fromFileUrl } from "node:url";

const PROJECT_ROOT = new URL("../../", import.meta.url);

/** How one page is bundled. */
export interface PageBundleOptions {
  /** What the page is, for messages (e.g. "the reference host page"). */
  readonly name: string;
  /** The browser entry module. */
  readonly entry: URL;
  /** Where `deno task assets` writes the prebuilt script (embedded in the binary with `--include`). */
  readonly prebuilt: URL;
  /** esbuild options beyond the shared ones (JSX, plugins, defines). */
  readonly esbuild?: Omit<esbuild.BuildOptions, "entryPoints" | "write" | "bundle" | "format">;
}

/** One page's script: built once per process, or read from its prebuilt copy. */
export interface PageBundle {
  /** Where the prebuilt script lives. */
  readonly prebuiltUrl: URL;
  /** The script, minified; the first call builds it, later calls reuse it; the prebuilt copy as fallback. */
  script(): Promise<string>;
  /** Bundles the page with esbuild (no cache, no fallback); what `tools/build_assets.ts` prebuilds with. */
  build(): Promise<string>;
}

/**
 * Describes a page bundle; nothing is built until {@linkcode PageBundle.script} or `build` is called.
 *
 * @example
 * ```ts ignore
 * import { pageBundle } from "./page_bundle.ts";
 * const page = pageBundle({
 *   name: "my host page",
 *   entry: new URL("./my_page.ts", import.meta.url),
 *   prebuilt: new URL("../../dist/my_page.js", import.meta.url),
 * });
 * const script = await page.script();
 * ```
 */
export function pageBundle(options: PageBundleOptions): PageBundle {
  let cached: Promise<string> | null = null;
  const build = () => buildPage(options);
  const buildOrPrebuilt = async () => {
    try {
      return await build();
    } catch (buildError) {
      try {
        return await Deno.readTextFile(options.prebuilt);
      } catch (readError) {
        if (readError instanceof Deno.errors.NotCapable) throw new Error(sourceOutsideReadPermission());
        throw new Error(
          `Cannot build ${options.name} (${String(buildError)}) and no prebuilt ` +
            `${options.prebuilt.pathname} exists: run "deno task assets" first`,
        );
      }
    }
  };
  return {
    prebuiltUrl: options.prebuilt,
    build,
    script() {
      cached ??= buildOrPrebuilt().catch((error) => {
        cached = null;
        throw error;
      });
      return cached;
    },
  };
}

async function buildPage(options: PageBundleOptions): Promise<string> {
  try {
    const result = await esbuild.build({
      absWorkingDir: fromFileUrl(PROJECT_ROOT),
      platform: "browser",
      target: "es2022",
      minify: true,
      logLevel: "silent",
      ...options.esbuild,
      entryPoints: [fromFileUrl(options.entry)],
      bundle: true,
      format: "iife",
      write: false,
    });
    const file = result.outputFiles[0];
    if (file === undefined) throw new Error(`esbuild produced no output for ${options.name}`);
    return file.text;
  } finally {
    // esbuild's service would keep the process alive.
    await esbuild.stop();
  }
}
