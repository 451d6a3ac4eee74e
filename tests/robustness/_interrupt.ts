/**
 * Helpers for the interrupt tests: wait for a moment of a `conformance run` (a process of the run appears, its
 * JSON checkpoint holds results), signal the run there, and wait for it to exit.
 *
 * @module
 */
import { parseReport, type RunReport } from "../../src/report/schema.ts";
import { type HarnessExit, type HarnessProcess, processesTagged, type TaggedProcess } from "./_harness.ts";

/**
 * Against a hang only, from the signal to the harness's exit: a run that did not stop at the signal waits out a
 * host's cleanup grace (15 s) or its timeout (tens of seconds at `--timeout-multiplier 20`). How fast it stops
 * is the bench's ("stop after SIGINT p90 ≤ 1 s", `deno task bench --only interrupt`): a test that timed it
 * measured the machine's load as much as the harness.
 */
export const STOP_HANG_MS = 10_000;

/** Exit code of a run interrupted by SIGINT (README, "Exit codes"). */
export const INTERRUPTED = 130;

/** Statuses that blame the host: an interrupted test must never end as one of them. */
export const BLAMING: ReadonlySet<string> = new Set(["FAIL", "ERROR", "TIMEOUT"]);

/**
 * Polls the run's processes until one other than the harness whose command matches `pattern` (or that
 * `pattern` accepts) appears; throws after `timeoutMs` or when the harness exits first.
 */
export async function waitForProcess(
  harness: HarnessProcess,
  pattern: RegExp | ((process: TaggedProcess) => boolean),
  timeoutMs = 60_000,
): Promise<TaggedProcess> {
  const wanted = typeof pattern === "function"
    ? pattern
    : (process: TaggedProcess) => pattern.test(process.command);
  let exited = false;
  harness.done.then(() => exited = true, () => exited = true);
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline && !exited) {
    const found = (await processesTagged(harness.runId)).find((process) =>
      process.pid !== harness.pid && wanted(process)
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no process of the run matched ${pattern} (${exited ? "the run exited" : "timed out"})`);
}

/** Polls `report.json` in `out` until its checkpoint holds at least `count` results. */
export async function waitForResults(out: string, count: number, timeoutMs = 60_000): Promise<RunReport> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const text = await Deno.readTextFile(`${out}/report.json`);
      const report = parseReport(text, `${out}/report.json`);
      if (report.results.length >= count) return report;
    } catch (error) {
      // Not written yet: the run is starting (checkpoints are written atomically, never torn).
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (performance.now() > deadline) throw new Error(`${out}/report.json never held ${count} result(s)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How a signalled run ended. */
export interface Interrupted {
  readonly exit: HarnessExit;
  /** From the signal to the exit. */
  readonly stopMs: number;
  /** Processes of the run still alive after it. */
  readonly survivors: readonly TaggedProcess[];
}

/** Sends `signal` to the harness's group (as a terminal's Ctrl-C does) and waits for it to exit. */
export async function interrupt(
  harness: HarnessProcess,
  signal: Deno.Signal = "SIGINT",
): Promise<Interrupted> {
  const signalled = performance.now();
  Deno.kill(-harness.pid, signal);
  const exit = await harness.done;
  const stopMs = exit.exitedAt - signalled;
  return { exit, stopMs, survivors: await processesTagged(harness.runId) };
}
