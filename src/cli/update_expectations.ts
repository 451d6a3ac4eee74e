/**
 * `--update-expectations`: rewrites expectation files from a run, one file per host. Files are replaced
 * atomically, so an interrupted update leaves the old file.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { type ExpectationSet, formatExpectations, updatedExpectations } from "../expectations.ts";
import type { TestResult } from "../outcome.ts";
import { writeFileAtomic } from "../report/atomic_write.ts";

/**
 * Writes the expectations implied by `results` to `target`: a folder gets `<host>.yaml` per host of the run;
 * a file is rewritten when the run has exactly one host. Returns the files written.
 */
export async function writeUpdatedExpectations(
  target: string,
  results: readonly TestResult[],
  previous: ReadonlyMap<string, ExpectationSet>,
): Promise<string[]> {
  const hosts = [...new Set(results.map((r) => r.host))];
  let isDirectory = false;
  try {
    isDirectory = (await Deno.stat(target)).isDirectory;
  } catch {
    isDirectory = !/\.(ya?ml|json)$/.test(target);
    if (isDirectory) await Deno.mkdir(target, { recursive: true });
  }
  if (!isDirectory && hosts.length > 1) {
    throw new UsageError(
      `--update-expectations "${target}" is one file but the run had ${hosts.length} hosts: give a folder`,
    );
  }
  const written: string[] = [];
  for (const host of hosts) {
    const file = isDirectory ? `${target}/${host.replace(/[^a-z0-9._-]/gi, "_")}.yaml` : target;
    const tests = updatedExpectations(host, results, previous.get(host));
    await writeFileAtomic(file, formatExpectations(host, tests));
    written.push(file);
  }
  return written;
}
