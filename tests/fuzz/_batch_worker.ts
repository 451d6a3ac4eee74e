/**
 * A worker that checks batches of a fuzz property (`tests/fuzz/_batches.ts`, `inWorkerBatches`): each message
 * names the module exporting `PROPERTIES`, the property, the runs and the seed; the answer is `{ failure }`,
 * fast-check's report (seed and shrunk counterexample) or `null`.
 *
 * @module
 */
import fc from "fast-check";

/** One batch to check. */
export interface BatchRequest {
  readonly module: string;
  readonly property: string;
  readonly numRuns: number;
  readonly seed: number;
}

const built = new Map<string, fc.IProperty<unknown[]>>();

async function propertyOf(module: string, name: string): Promise<fc.IProperty<unknown[]>> {
  const key = `${module}#${name}`;
  let property = built.get(key);
  if (property === undefined) {
    const { PROPERTIES } = await import(module) as {
      PROPERTIES: Record<string, () => fc.IProperty<unknown[]>>;
    };
    const build = PROPERTIES[name];
    if (build === undefined) throw new RangeError(`No fuzz property "${name}" in ${module}`);
    property = build();
    built.set(key, property);
  }
  return property;
}

self.onmessage = async (event: MessageEvent<BatchRequest>) => {
  const { module, property, numRuns, seed } = event.data;
  try {
    await fc.assert(await propertyOf(module, property), { numRuns, seed });
    self.postMessage({ failure: null });
  } catch (error) {
    self.postMessage({ failure: error instanceof Error ? error.message : String(error) });
  }
};
