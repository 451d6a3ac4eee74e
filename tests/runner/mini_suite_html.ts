/**
 * Builds the mini test suite (tests/runner/mini_suite.ts), or another test View, into one self-contained HTML
 * page.
 *
 * @module
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";

const cached = new Map<string, Promise<string>>();

/** The mini suite page, built once per test process. */
export function miniSuiteHtml(): Promise<string> {
  return viewHtml(new URL("./mini_suite.ts", import.meta.url));
}

/** The page of a View whose browser entry is `entry`, bundled into one script, built once per test process. */
export function viewHtml(entry: URL): Promise<string> {
  const key = entry.href;
  const built = cached.get(key) ?? (async () => {
    try {
      const result = await esbuild.build({
        entryPoints: [fileURLToPath(entry)],
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
  cached.set(key, built);
  return built;
}
