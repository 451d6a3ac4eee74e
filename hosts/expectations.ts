/**
 * The built-in expectations: one `hosts/expectations/<host>.yaml` per host with known failures, each with a
 * reason. Used when the user gives no `--expectations`, and then checked against the registry on every run
 * (`cli/run_expectations.ts`): an entry for a host or test that no longer exists stops the run.
 *
 * @module
 */

/** The folder of built-in expectation files, or `null` when this build has none. */
export async function builtInExpectationsDir(): Promise<string | null> {
  const path = decodeURIComponent(new URL("./expectations", import.meta.url).pathname);
  try {
    return (await Deno.stat(path)).isDirectory ? path : null;
  } catch {
    return null;
  }
}
