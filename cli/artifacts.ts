/**
 * Finds the artifacts a run left in `--out` and names them in its results (`details.artifacts`): the apps
 * driver's screenshots (`details.screenshots`), and the browser traces a web host keeps at teardown as
 * `<host>-trace.zip` or `<host>-<context>-trace.zip` (src/runner/browser_host.ts), which exist only once the
 * host is torn down, so they are looked for after the run, before the reports are written.
 *
 * @module
 */
import { join } from "node:path";
import { isFailing, type TestResult } from "../src/outcome.ts";
import { withArtifacts } from "../src/report/artifacts.ts";
// The stem a browser host gives its artifacts (src/runner/browser_host.ts) by the same rule.
import { fileNamePart } from "../src/file_name.ts";

/** Whether a result's evidence matters: it failed, or broke a SHOULD. */
function wantsEvidence(result: TestResult): boolean {
  return isFailing(result.status) || result.status === "WARN";
}

/**
 * The results with their artifacts named. Traces are matched to the host with the longest file-name stem
 * that prefixes them (so `reference-csp` is not taken for an aside context of `reference`), and only traces
 * written since `since` count, so an older run in the same folder is not quoted.
 */
export async function attachArtifacts(
  results: readonly TestResult[],
  outDir: string,
  since: Date,
): Promise<TestResult[]> {
  const stems = [...new Set(results.map((result) => result.host))]
    .map((host) => ({ host, stem: fileNamePart(host) }))
    .sort((a, b) => b.stem.length - a.stem.length);
  const traces = new Map<string, string[]>();
  try {
    for await (const entry of Deno.readDir(outDir)) {
      if (!entry.isFile || !entry.name.endsWith("-trace.zip")) continue;
      const path = join(outDir, entry.name);
      const mtime = (await Deno.stat(path)).mtime;
      if (mtime !== null && mtime.getTime() < since.getTime() - 1_000) continue;
      const owner = stems.find(({ stem }) => entry.name.startsWith(`${stem}-`));
      if (owner) traces.set(owner.host, [...(traces.get(owner.host) ?? []), path].sort());
    }
  } catch {
    // No folder yet (nothing kept), or one the harness may not list: the results go out without traces.
  }
  return results.map((result) => {
    if (!wantsEvidence(result)) return result;
    const screenshots = result.details.screenshots;
    const paths = [
      ...(Array.isArray(screenshots) ? screenshots.filter((p): p is string => typeof p === "string") : []),
      ...(traces.get(result.host) ?? []),
    ];
    return paths.length === 0 ? result : withArtifacts(result, paths, outDir);
  });
}
