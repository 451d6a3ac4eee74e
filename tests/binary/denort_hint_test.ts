/**
 * Without Deno's download server, `deno task compile` fails only at the denort download, and says how to
 * build offline. The server is made unreachable without leaving the machine: every HTTPS request goes to a
 * closed loopback port as its proxy.
 */
import assert from "node:assert/strict";
import { DENORT_HINT, isDenortDownloadFailure } from "../../tools/compile.ts";
import { buildAssets } from "../../tools/build_assets.ts";
import { ROOT, runToEnd } from "./_run.ts";

function closedLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("deno task compile without the download server fails at the denort download and points at DENORT_BIN", async () => {
  await buildAssets();
  const proxy = `http://127.0.0.1:${closedLoopbackPort()}`;
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !/^(DENORT_BIN|NO_PROXY|no_proxy)$/.test(name)),
  );
  const { code, stderr } = await runToEnd(
    Deno.execPath(),
    [
      "run",
      "--allow-read",
      "--allow-write=dist",
      "--allow-env",
      "--allow-sys",
      "--allow-run",
      "tools/compile.ts",
      "--skip-assets",
    ],
    {
      cwd: ROOT,
      env: { ...env, HTTPS_PROXY: proxy, https_proxy: proxy },
      clearEnv: true,
      timeoutMs: 400_000,
    },
  );
  assert.notEqual(code, 0);
  assert.match(stderr, /denort-[a-z0-9_-]+\.zip/, "the failure is the denort download");
  assert.doesNotMatch(stderr, /TS\d{4}|Module not found/, "everything before the download succeeded");
  assert.ok(stderr.trimEnd().endsWith(DENORT_HINT), stderr);
  assert.match(DENORT_HINT, /DENORT_BIN=/);
});

Deno.test("isDenortDownloadFailure tells the download failure from other compile errors", () => {
  const offline = "error: Writing deno compile executable to temporary file 'x.tmp'\n\nCaused by:\n" +
    "    0: Setting up base binary.\n    1: error sending request for url " +
    "(https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip): client error (Connect): " +
    "dns error: failed to lookup address information: Name or service not known";
  assert.equal(isDenortDownloadFailure(offline), true);
  assert.equal(isDenortDownloadFailure("error: TS2322 [ERROR]: Type 'string' is not assignable"), false);
  assert.equal(
    isDenortDownloadFailure("error: Writing binary bytes\n  Invalid object: Not an ELF file"),
    false,
  );
});
