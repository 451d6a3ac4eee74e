/**
 * The `--out` folder: made ready before any test runs, and holding only this run's evidence. A folder a run
 * reused kept the earlier run's failure folders under `streams/` beside a green report (and CI uploaded them);
 * now the evidence an earlier run left there (its `streams/`, and the screenshots and traces its report.json
 * names) is removed first, and the run says so on stderr. Nothing else in the folder is touched.
 *
 * @module
 */
import { join, normalize } from "node:path";
import { UsageError } from "../src/errors.ts";
import { oneLine } from "../src/file_errors.ts";
import { isPermissionRefusal, WRITE_ALLOW } from "../src/permissions.ts";
import { artifactsOf } from "../src/report/artifacts.ts";
import { JSON_REPORT_FILE } from "../src/report/json.ts";
import { parseReport } from "../src/report/schema.ts";

/** The folder a failing CLI test's runs are saved under (suite/cli/stream_record.ts). */
const STREAMS = "streams";

/**
 * Makes sure `--out` can take the reports before any test runs: creates the folder when missing, and refuses
 * a file, a path under a file, a folder this process cannot write, or one outside the folders it may write
 * (one line, exit 2).
 */
export async function prepareOutDir(path: string): Promise<void> {
  const refuse = (why: string) =>
    new UsageError(`--out "${path}" ${why}: give a folder the reports can be written to`);
  const outside = () =>
    new UsageError(
      `--out "${path}" is outside the folders the harness may write (the working folder and temp: ` +
        `${WRITE_ALLOW.join(", ")}): pick a folder there, e.g. --out reports`,
    );
  try {
    const info = await Deno.stat(path);
    if (!info.isDirectory) throw refuse("is a file, not a folder");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (isPermissionRefusal(error)) throw outside();
    if (!(error instanceof Deno.errors.NotFound)) throw refuse(`cannot be used (${reason(error)})`);
    try {
      await Deno.mkdir(path, { recursive: true });
    } catch (error) {
      if (isPermissionRefusal(error)) throw outside();
      throw refuse(`cannot be created (${reason(error)})`);
    }
  }
  try {
    await Deno.remove(await Deno.makeTempFile({ dir: path, prefix: ".conformance-write-check-" }));
  } catch (error) {
    if (isPermissionRefusal(error)) throw outside();
    throw refuse(`is not writable (${reason(error)})`);
  }
}

/** What {@linkcode clearEarlierEvidence} removed. */
export interface ClearedEvidence {
  /** Whether there was a `streams/` folder. */
  readonly streams: boolean;
  /** Screenshots and traces of the earlier report that were removed, relative to the folder. */
  readonly files: readonly string[];
}

/**
 * Removes the evidence an earlier run left in `dir`: the `streams/` folder, and each screenshot (`.png`) and
 * trace (`.zip`) its report.json names as an artifact, when that is a plain file inside `dir`. Returns what
 * went, or `null` when there was nothing. The earlier report files themselves are overwritten by this run.
 */
export async function clearEarlierEvidence(dir: string): Promise<ClearedEvidence | null> {
  const files: string[] = [];
  try {
    const text = await Deno.readTextFile(join(dir, JSON_REPORT_FILE));
    const report = parseReport(text, join(dir, JSON_REPORT_FILE));
    for (const path of new Set(report.results.flatMap(artifactsOf))) {
      // Only what a run writes at the top of the folder: never a path that leaves it, never a folder.
      const clean = normalize(path);
      if (clean.startsWith("..") || clean.startsWith("/") || clean.includes("/")) continue;
      if (!/\.(png|zip)$/.test(clean)) continue;
      try {
        if (!(await Deno.lstat(join(dir, clean))).isFile) continue;
        await Deno.remove(join(dir, clean));
        files.push(clean);
      } catch {
        // Gone already, or not ours to remove: nothing to clear.
      }
    }
  } catch {
    // No earlier report (a first run), or one that does not parse: only its streams/ are known to be ours.
  }
  let streams = false;
  try {
    if ((await Deno.lstat(join(dir, STREAMS))).isDirectory) {
      await Deno.remove(join(dir, STREAMS), { recursive: true });
      streams = true;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return streams || files.length > 0 ? { streams, files } : null;
}

/** The stderr line that says what {@linkcode clearEarlierEvidence} removed. */
export function clearedLine(dir: string, cleared: ClearedEvidence): string {
  const parts = [
    ...(cleared.streams ? [`${join(dir, STREAMS)}/`] : []),
    ...(cleared.files.length > 0
      ? [`${cleared.files.length} screenshot(s) and trace(s) its report named`]
      : []),
  ];
  return `conformance: removed the evidence of an earlier run in ${dir}: ${parts.join(" and ")}; ` +
    "this run's evidence replaces it\n";
}

/** An OS error's message without Deno's trailing call description, on one line. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return oneLine(message.replace(/:\s*(mkdir|stat|open)\s.*$/s, ""));
}
