import assert from "node:assert/strict";
import { relative } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { assertGroupGone } from "./_process.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** Leaf modules below every layer: the outcome model, the error classes and the bounded file reader. */
const LEAVES = new Set(["src/outcome.ts", "src/errors.ts", "src/read_bounded.ts"]);

Deno.test("src/report imports only itself, the outcome model and the leaf helpers", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "src/report/mod.ts"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const output = await child.output();
  await assertGroupGone(child.pid);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: { specifier: string }[] };
  const local = info.modules
    .map((module) => module.specifier)
    .filter((specifier) => specifier.startsWith("file:"))
    .map((specifier) => relative(ROOT, fromFileUrl(specifier)));
  assert.ok(local.includes("src/report/mod.ts"));
  const outside = local.filter((path) => !path.startsWith("src/report/") && !LEAVES.has(path));
  assert.deepEqual(outside, [], "src/report must not import hosts, the engine or the CLI");
});
