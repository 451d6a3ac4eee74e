/**
 * Runs a fast-check property over many generated inputs, split into batches that each are one test step, so a
 * failure names its batch and seed and a slow machine shows progress. `CONFORMANCE_FUZZ_RUNS` overrides the
 * total per target (default 100 000; the issue asks for at least that many in CI).
 *
 * @module
 */
import fc from "fast-check";

/** Generated inputs per fuzz target. */
export const FUZZ_RUNS = Math.max(1, Number(Deno.env.get("CONFORMANCE_FUZZ_RUNS") ?? 100_000));

/** Inputs per batch (one test step). */
export const BATCH_RUNS = 10_000;

/**
 * Checks `property` over {@linkcode FUZZ_RUNS} inputs in steps of {@linkcode BATCH_RUNS}, each with its own
 * seed (printed on failure by fast-check, with the shrunk counterexample). A property that feeds several
 * inputs per run (`inputsPerRun`, e.g. a sequence of lines to one stateful normaliser) runs that much less.
 *
 * @example
 * ```ts ignore
 * Deno.test("never throws", (t) => inBatches(t, fc.property(fc.string(), (s) => void parse(s))));
 * ```
 */
export async function inBatches<Ts>(
  t: Deno.TestContext,
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  options: { readonly inputsPerRun?: number } = {},
): Promise<void> {
  const perRun = options.inputsPerRun ?? 1;
  const total = Math.ceil(FUZZ_RUNS / perRun);
  const batchRuns = Math.ceil(BATCH_RUNS / perRun);
  const base = Date.now() ^ Math.floor(Math.random() * 2 ** 31);
  for (let done = 0, batch = 1; done < total; done += batchRuns, batch++) {
    const numRuns = Math.min(batchRuns, total - done);
    const seed = (base + batch) | 0;
    await t.step(`batch ${batch}: ${numRuns * perRun} inputs, seed ${seed}`, async () => {
      await fc.assert(property as fc.IAsyncProperty<Ts>, { numRuns, seed });
    });
  }
}
