/**
 * A real Chromium for the report tests (XML parsing, the HTML report), launched through playwright-core in its
 * own process group; disposing closes it and proves the group is gone.
 */
import fs from "node:fs";
import type { Browser } from "playwright-core";
import { assertGroupGone } from "./_process.ts";

// playwright-core probes /proc/sys/fs/binfmt_misc/WSLInterop with fs.existsSync when it loads; Deno 2.9 throws
// NotCapable there without --allow-all, where Node's existsSync never throws. Restore Node's contract before
// loading it.
const existsSync = fs.existsSync;
fs.existsSync = (path: fs.PathLike) => {
  try {
    return existsSync(path);
  } catch {
    return false;
  }
};
const { chromium } = await import("playwright-core");

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The browser binary to use, or `undefined` when none is installed. */
export function chromiumPath(): string | undefined {
  const named = Deno.env.get("CONFORMANCE_CHROMIUM");
  for (const path of named ? [named] : CANDIDATES) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not there; try the next one.
    }
  }
  return undefined;
}

/** Why browser tests are skipped here, or `undefined` when they can run. */
export const NO_CHROMIUM = chromiumPath() === undefined
  ? "no Chromium found (install Debian's chromium or set CONFORMANCE_CHROMIUM)"
  : undefined;

/** A launched browser; disposing closes it and waits until its process group is gone. */
export async function launchChromium(): Promise<{ browser: Browser } & AsyncDisposable> {
  const server = await chromium.launchServer({
    executablePath: chromiumPath()!,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    host: "127.0.0.1",
  });
  const pid = server.process().pid!;
  const browser = await chromium.connect(server.wsEndpoint());
  return {
    browser,
    async [Symbol.asyncDispose]() {
      await browser.close().catch(() => {});
      await server.close();
      await assertGroupGone(pid);
    },
  };
}
