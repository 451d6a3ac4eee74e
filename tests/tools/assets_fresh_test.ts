/**
 * `deno task conformance` rebuilds the esbuild assets only when they are stale (tools/assets_fresh.sh): fresh
 * when every asset is there and no source is newer; stale when a source changed or an asset is missing. Its
 * list of assets is tools/build_assets.ts's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ASSETS } from "../../tools/build_assets.ts";

const SCRIPT = new URL("../../tools/assets_fresh.sh", import.meta.url).pathname;

async function fresh(cwd: string): Promise<boolean> {
  const { code } = await new Deno.Command("sh", { args: [SCRIPT], cwd, stdin: "null", detached: true })
    .output();
  return code === 0;
}

Deno.test("the assets the script checks are the ones tools/build_assets.ts builds", async () => {
  const text = await Deno.readTextFile(SCRIPT);
  const listed = /for asset in ([^;]*);/.exec(text)?.[1]?.trim().split(/\s+/);
  assert.deepEqual(listed?.sort(), ASSETS.map((asset) => asset.path).sort());
});

Deno.test("fresh only while every asset is there and no source is newer than any of them", async () => {
  const root = await Deno.makeTempDir({ prefix: "conformance-assets-fresh-" });
  try {
    const sources = ["suite/apps/main.ts", "hosts/web/page.ts", "src/protocol.ts", "deno.json", "deno.lock"];
    const past = new Date(Date.now() - 60_000);
    for (const path of [...sources, "tools/build_assets.ts"]) {
      await Deno.mkdir(join(root, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, path), "x");
      await Deno.utime(join(root, path), past, past);
    }
    await Deno.mkdir(join(root, "dist"));
    for (const asset of ASSETS) await Deno.writeTextFile(join(root, asset.path), "built");
    assert.equal(await fresh(root), true, "built after every source");
    await Deno.writeTextFile(join(root, "src/protocol.ts"), "changed");
    assert.equal(await fresh(root), false, "a source changed since");
    for (const asset of ASSETS) await Deno.writeTextFile(join(root, asset.path), "rebuilt");
    assert.equal(await fresh(root), true);
    await Deno.remove(join(root, ASSETS[0]!.path));
    assert.equal(await fresh(root), false, "an asset is missing");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
