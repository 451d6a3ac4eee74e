/**
 * The JSON Schemas of the files a user writes or reads: the config file, an expectations file and the JSON
 * report, generated from the zod schemas that load them (`deno task schemas` writes them to `schemas/`, and a
 * test regenerates them in memory and compares, so they never drift). Editors pick them up from a
 * `# yaml-language-server: $schema=…` line.
 *
 * @module
 */
import { z } from "zod";
import { ConfigFile } from "./config.ts";
import { ExpectationsFileSchema } from "./expectations.ts";
import { runReportSchema } from "./report/schema.ts";

/** Where the schemas live, relative to the repository root. */
export const SCHEMAS_DIR = "schemas";

const SCHEMAS: Readonly<Record<string, { readonly schema: z.ZodType; readonly title: string }>> = {
  "config.schema.json": { schema: ConfigFile, title: "conformance config file (--config)" },
  "expectations.schema.json": {
    schema: ExpectationsFileSchema,
    title: "conformance expectations file (conformance-expectations/1)",
  },
  "report.schema.json": { schema: runReportSchema, title: "conformance JSON report (conformance-report/1)" },
};

/**
 * Every schema file's name and text (pretty JSON, a final newline). Files the user writes are described as
 * they are read (defaults make a field optional); the report as it is written. Checks a JSON Schema cannot
 * say (a refinement such as "give launch steps or a prompt") are left to the loader.
 *
 * @example
 * ```ts
 * import { jsonSchemaFiles } from "./json_schemas.ts";
 * Object.keys(jsonSchemaFiles()); // ["config.schema.json", "expectations.schema.json", "report.schema.json"]
 * ```
 */
export function jsonSchemaFiles(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, { schema, title }]) => {
      const generated = z.toJSONSchema(schema, {
        io: name === "report.schema.json" ? "output" : "input",
        unrepresentable: "any",
        target: "draft-2020-12",
      });
      const document = { ...generated, $id: `${SCHEMAS_DIR}/${name}`, title };
      return [name, `${JSON.stringify(document, null, 2)}\n`];
    }),
  );
}
