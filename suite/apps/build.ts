/**
 * Builds the in-iframe suite into one self-contained HTML document: the View the conformance server serves
 * as its `ui://` resources. esbuild bundles `main.ts` (iife, browser, es2022, minified) and the result is
 * inlined with every `</script` escaped; an empty config element waits for `withSuiteConfig`.
 *
 * Embedding in the binary: `deno task assets` (tools/build_assets.ts) writes {@linkcode PREBUILT_SUITE_URL},
 * and `deno task compile` embeds it with `--include`. {@linkcode loadSuiteHtml} uses that file while it is
 * newer than the suite's sources (inside the binary there are none to compare), builds otherwise, and falls
 * back to a stale copy where esbuild cannot run (outside the run permission).
 *
 * @module
 */
import { sourceOutsideReadPermission } from "../../src/permissions.ts";
import * as esbuild from "esbuild";
import { SUITE_CONFIG_ELEMENT_ID, SUITE_CONFIG_PLACEHOLDER } from "../../src/fixtures.ts";

/** The suite's browser entry point. */
export const SUITE_ENTRY = new URL("./main.ts", import.meta.url);

/** Where the prebuilt asset lives (git-ignored `dist/`), for `deno compile --include`. */
export const PREBUILT_SUITE_URL = new URL("../../dist/suite_apps.html", import.meta.url);

/** Escapes every `</script` (any case) so inlined code cannot close its script element. */
export function escapeScriptClose(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1");
}

/** Wraps a bundled script into the suite's HTML document. */
export function suiteDocument(bundle: string): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>MCP Apps conformance</title>",
    `<script id="${SUITE_CONFIG_ELEMENT_ID}" type="application/json">${SUITE_CONFIG_PLACEHOLDER}</script>`,
    "</head><body>",
    `<script>${escapeScriptClose(bundle)}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}

/**
 * Bundles the suite with esbuild and returns the HTML document. Stops esbuild's service afterwards so the
 * process can exit.
 *
 * @example
 * ```ts
 * import { buildSuiteHtml } from "./build.ts";
 * const html = await buildSuiteHtml();
 * ```
 */
export async function buildSuiteHtml(): Promise<string> {
  try {
    const result = await esbuild.build({
      entryPoints: [SUITE_ENTRY.pathname],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
      legalComments: "none",
    });
    const output = result.outputFiles[0];
    if (!output) throw new Error("esbuild produced no output for the suite bundle");
    return suiteDocument(output.text);
  } finally {
    await esbuild.stop();
  }
}

/** The files a suite build is made from: the suite's own modules, the shared contract, the pinned imports. */
const SOURCE_ROOTS = [
  new URL("./", import.meta.url),
  new URL("../../src/protocol.ts", import.meta.url),
  new URL("../../src/fixtures.ts", import.meta.url),
  new URL("../../deno.json", import.meta.url),
  new URL("../../deno.lock", import.meta.url),
];

/** The newest modification time under `url` (a file, or a folder walked recursively); 0 when unreadable. */
async function newestChange(url: URL): Promise<number> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(url);
  } catch {
    return 0;
  }
  if (!info.isDirectory) return info.mtime?.getTime() ?? 0;
  let newest = 0;
  for await (const entry of Deno.readDir(url)) {
    const child = new URL(entry.name + (entry.isDirectory ? "/" : ""), url);
    newest = Math.max(newest, await newestChange(child));
  }
  return newest;
}

/** Whether `dist/suite_apps.html` exists and is newer than every source it was built from. */
export async function prebuiltIsFresh(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(PREBUILT_SUITE_URL)).mtime?.getTime() ?? 0;
  } catch {
    return false;
  }
  const changes = await Promise.all(SOURCE_ROOTS.map(newestChange));
  return built > 0 && changes.every((changed) => changed <= built);
}

/**
 * The suite HTML: the prebuilt asset when it is newer than every source (always so inside the compiled
 * binary, which embeds it and has no sources to compare), else a fresh build, else a stale prebuilt asset
 * when esbuild cannot run.
 */
export async function loadSuiteHtml(): Promise<string> {
  if (await prebuiltIsFresh()) return await Deno.readTextFile(PREBUILT_SUITE_URL);
  try {
    return await buildSuiteHtml();
  } catch (buildError) {
    try {
      return await Deno.readTextFile(PREBUILT_SUITE_URL);
    } catch (readError) {
      if (readError instanceof Deno.errors.NotCapable) throw new Error(sourceOutsideReadPermission());
      throw new Error(
        `Cannot build the MCP Apps suite (${
          String(buildError)
        }) and no prebuilt ${PREBUILT_SUITE_URL.pathname} ` +
          `exists: run "deno task assets" first`,
      );
    }
  }
}

if (import.meta.main) {
  const html = await buildSuiteHtml();
  await Deno.mkdir(new URL(".", PREBUILT_SUITE_URL), { recursive: true });
  await Deno.writeTextFile(PREBUILT_SUITE_URL, html);
  console.log(`Wrote ${PREBUILT_SUITE_URL.pathname} (${Math.round(html.length / 1024)} KB)`);
}
