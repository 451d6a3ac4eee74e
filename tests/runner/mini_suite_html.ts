/**
 * Builds the mini test suite (tests/runner/mini_suite.ts) into one self-contained HTML page.
 *
 * @module
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";

let cached: Promise<string> | null = null;

/** The mini suite page, built once per test process. */
export function miniSuiteHtml(): Promise<string> {
  cached ??= (async () => {
    try {
      const result = await esbuild.build({
        entryPoints: [fileURLToPath(new URL("./mini_suite.ts", import.meta.url))],
        absWorkingDir: fileURLToPath(new URL("../../", import.meta.url)),
        bundle: true,
        format: "iife",
        platform: "browser",
        target: "es2022",
        write: false,
        logLevel: "silent",
      });
      const script = result.outputFiles[0]!.text.replaceAll("</script", "<\\/script");
      return `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${script}</script></body></html>`;
    } finally {
      await esbuild.stop();
    }
  })();
  return cached;
}
