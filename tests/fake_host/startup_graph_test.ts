import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../../", import.meta.url);

Deno.test("the fake host imports nothing outside fake_host/ (no CLI, Playwright, zod or MCP SDK)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    detached: true,
    args: ["info", "--json", "fake_host/mod.ts"],
    cwd: fileURLToPath(ROOT),
    stdin: "null",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: { specifier: string }[];
  };
  const outside = info.modules.map((module) => module.specifier)
    .filter((specifier) => !specifier.startsWith(new URL("fake_host/", ROOT).href));
  // npm: and jsr: modules, and anything of the harness outside fake_host/, would show here.
  assert.deepEqual(outside, []);
  assert.ok(info.modules.length >= 3, "the graph should hold mod.ts, script.ts and dialects.ts");
});

Deno.test("the reference agent imports nothing outside reference_agent/ (it starts once per host run)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    detached: true,
    args: ["info", "--json", "reference_agent/mod.ts"],
    cwd: fileURLToPath(ROOT),
    stdin: "null",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: { specifier: string }[] };
  const outside = info.modules.map((module) => module.specifier)
    .filter((specifier) => !specifier.startsWith(new URL("reference_agent/", ROOT).href));
  assert.deepEqual(outside, []);
});
