/**
 * Runs a fast-check property over many generated inputs, split into batches that each are one test step, so a
 * failure names its batch and seed and a slow machine shows progress. `CONFORMANCE_FUZZ_RUNS` overrides the
 * total per target (default 100 000; the issue asks for at least that many in CI).
 *
 * @module
 */
import fc from "fast-check";
import type { BatchRequest } from "./_batch_worker.ts";

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

/** Workers {@linkcode inWorkerBatches} runs at once: one per core, at most four. */
const WORKERS = Math.max(1, Math.min(navigator.hardwareConcurrency, 4));

/**
 * {@linkcode inBatches} for a CPU-bound property, with its batches checked in workers at once (a test file's
 * tests run on one thread, which leaves the other cores idle): each worker (`tests/fuzz/_batch_worker.ts`)
 * builds the property from `PROPERTIES[name]` of `module`. One test step per round of batches, naming each
 * batch's inputs and seed; a failure is fast-check's report with the seed and the shrunk counterexample.
 *
 * @example
 * ```ts ignore
 * Deno.test("loads or says where", (t) => inWorkerBatches(t, new URL("./_config_documents.ts", import.meta.url), "config"));
 * ```
 */
export async function inWorkerBatches(t: Deno.TestContext, module: URL, name: string): Promise<void> {
  const base = Date.now() ^ Math.floor(Math.random() * 2 ** 31);
  const batches: { readonly batch: number; readonly numRuns: number; readonly seed: number }[] = [];
  for (let done = 0, batch = 1; done < FUZZ_RUNS; done += BATCH_RUNS, batch++) {
    batches.push({ batch, numRuns: Math.min(BATCH_RUNS, FUZZ_RUNS - done), seed: (base + batch) | 0 });
  }
  const pool = Array.from(
    { length: Math.min(WORKERS, batches.length) },
    () => new Worker(new URL("./_batch_worker.ts", import.meta.url), { type: "module" }),
  );
  try {
    for (let first = 0; first < batches.length; first += pool.length) {
      const round = batches.slice(first, first + pool.length);
      const title = round.map(({ batch, numRuns, seed }) =>
        `batch ${batch}: ${numRuns} inputs, seed ${seed}`
      );
      await t.step(title.join("; "), async () => {
        const failures = await Promise.all(
          round.map(({ numRuns, seed }, index) =>
            checkInWorker(pool[index]!, { module: module.href, property: name, numRuns, seed })
          ),
        );
        const failed = failures.filter((failure) => failure !== null);
        if (failed.length > 0) throw new Error(failed.join("\n\n"));
      });
    }
  } finally {
    for (const worker of pool) worker.terminate();
  }
}

function checkInWorker(worker: Worker, request: BatchRequest): Promise<string | null> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ failure: string | null }>) => resolve(event.data.failure);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(`The fuzz worker failed: ${event.message}`));
    };
    worker.postMessage(request);
  });
}
