/**
 * A real Chromium for the report tests (XML parsing, the HTML report): the harness's own launcher, which runs
 * the browser in its own process group and, on dispose, waits until the group and its helper daemons are gone.
 */
import assert from "node:assert/strict";
import { chromiumPath, launchChromium as launch, type LaunchedBrowser } from "../../src/runner/chromium.ts";

/** Why browser tests are skipped here, or `undefined` when they can run. */
export const NO_CHROMIUM = chromiumPath() === null
  ? "no Chromium found (install Debian's chromium or set CONFORMANCE_CHROMIUM)"
  : undefined;

/** A launched browser; disposing closes it and fails the test if any of its processes survived. */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const launched = await launch();
  return {
    ...launched,
    async [Symbol.asyncDispose]() {
      await launched.close();
      assert.deepEqual(await launched.survivors(), [], "every browser process is gone");
    },
  };
}
