/**
 * `deno task schemas`: writes the JSON Schemas of the config, expectations and report files to `schemas/`,
 * from the zod schemas that load them (src/json_schemas.ts). `tests/json_schemas_test.ts` fails when a
 * committed file differs from what this would write.
 *
 * @module
 */
import { jsonSchemaFiles, SCHEMAS_DIR } from "../src/json_schemas.ts";

const root = new URL("../", import.meta.url);
await Deno.mkdir(new URL(`${SCHEMAS_DIR}/`, root), { recursive: true });
for (const [name, text] of Object.entries(jsonSchemaFiles())) {
  await Deno.writeTextFile(new URL(`${SCHEMAS_DIR}/${name}`, root), text);
  console.log(`wrote ${SCHEMAS_DIR}/${name}`);
}
