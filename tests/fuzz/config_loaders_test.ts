/**
 * Fuzzes the config and expectations loaders (`parseConfig`, `parseExpectations`): documents generated near
 * their schemas (right keys, wrong types, missing and extra fields), serialised as YAML or JSON, then
 * optionally damaged by a byte edit. Each either loads or throws a `UsageError` that quotes the file and says
 * where: `line L, column C` for a syntax error, the field path for a schema error.
 */
import { inWorkerBatches } from "./_batches.ts";

const PROPERTIES = new URL("./_config_documents.ts", import.meta.url);

Deno.test("fuzz: the config loader loads or says where the file is wrong", async (t) => {
  await inWorkerBatches(t, PROPERTIES, "config");
});

Deno.test("fuzz: the expectations loader loads or says where the file is wrong", async (t) => {
  await inWorkerBatches(t, PROPERTIES, "expectations");
});
