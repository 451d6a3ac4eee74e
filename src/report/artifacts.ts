/**
 * The files a result left behind (screenshots, browser traces, a failing CLI test's saved stream), as
 * `details.artifacts`: paths relative to the run's `--out` folder, so a report folder can be moved whole and
 * its HTML links still work.
 *
 * @module
 */
import { relative } from "node:path";
import type { TestResult } from "../outcome.ts";

/**
 * The artifact paths of a result (relative to `--out`), or none.
 *
 * @example
 * ```ts
 * import { artifactsOf } from "./artifacts.ts";
 * artifactsOf({ details: { artifacts: ["reference-trace.zip"] } }); // ["reference-trace.zip"]
 * ```
 */
export function artifactsOf(result: Pick<TestResult, "details">): string[] {
  const value = result.details.artifacts;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * The result with `paths` added to its artifacts. `paths` are as written on disk (`out/x.png`, or absolute) and
 * are made relative to `outDir`; the artifacts already listed are relative already. No duplicates.
 */
export function withArtifacts(result: TestResult, paths: readonly string[], outDir: string): TestResult {
  const known = artifactsOf(result);
  const added = paths.map((path) => toOutRelative(path, outDir)).filter((path) => !known.includes(path));
  if (added.length === 0) return result;
  return { ...result, details: { ...result.details, artifacts: [...new Set([...known, ...added])] } };
}

function toOutRelative(path: string, outDir: string): string {
  return relative(outDir, path).split("\\").join("/");
}
