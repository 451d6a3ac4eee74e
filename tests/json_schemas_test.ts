import assert from "node:assert/strict";
import { jsonSchemaFiles, SCHEMAS_DIR } from "../src/json_schemas.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("the committed JSON Schemas are what the zod schemas generate (deno task schemas)", async () => {
  const files = jsonSchemaFiles();
  assert.deepEqual(Object.keys(files).sort(), [
    "config.schema.json",
    "expectations.schema.json",
    "report.schema.json",
  ]);
  for (const [name, text] of Object.entries(files)) {
    const committed = await Deno.readTextFile(new URL(`${SCHEMAS_DIR}/${name}`, ROOT)).catch(() => null);
    assert.ok(committed !== null, `${SCHEMAS_DIR}/${name} is missing: run "deno task schemas"`);
    assert.ok(committed === text, `${SCHEMAS_DIR}/${name} is stale: run "deno task schemas" and commit it`);
  }
});

Deno.test("the JSON Schemas describe the files and the docs point to them", async () => {
  const config = JSON.parse(jsonSchemaFiles()["config.schema.json"]!);
  const cli = config.properties.hosts.items.oneOf.find((
    option: { properties: { kind: { const?: string } } },
  ) => option.properties.kind.const === "cli");
  assert.ok(cli.properties.capabilityMarkers, "the config schema knows capabilityMarkers");
  assert.equal(cli.additionalProperties, false, "an unknown field is flagged by editors too");
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  for (const name of Object.keys(jsonSchemaFiles())) {
    assert.ok(readme.includes(`${SCHEMAS_DIR}/${name}`), `the README does not name ${SCHEMAS_DIR}/${name}`);
  }
});
