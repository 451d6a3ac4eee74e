/**
 * The agent-CLI {@linkcode SuiteDriver}: lists the tests of every tier in {@linkcode CLI_TIERS} for a CLI host
 * and runs a selection of them concurrently (bounded), reporting each through the sink. See `tiers.ts` for the
 * contract a tier follows.
 *
 * @module
 */
import type { CliHostEntry, HostEntry } from "../../src/host.ts";
import { isFailing, type Outcome } from "../../src/outcome.ts";
import type { ResultSink, RunSettings, SuiteDriver, TestCase } from "../../src/suite.ts";
import { tierOf } from "../../src/suite.ts";
import { redact } from "../../src/report/redact.ts";
import { stripControls } from "../../src/report/sanitize.ts";
import { delay, scaled } from "../../src/time.ts";
import { observe } from "./observe.ts";
import { recordStreams, saveRecordings, type StreamRecording } from "./stream_record.ts";
import { CLI_TIERS, type CliTier, DEFAULT_TEST_TIMEOUT_MS } from "./tiers.ts";

/** How many tests of one host run at once by default: subprocess-bound work, so more than the core count. */
export const DEFAULT_CONCURRENCY = 12;

/** How long a timed-out test may take to clean up after its signal aborts before the driver moves on. */
const CLEANUP_GRACE_MS = 15_000;

/** Options of {@linkcode createCliDriver}. */
export interface CliDriverOptions {
  /** The tiers to draw tests from; {@linkcode CLI_TIERS} by default. */
  readonly tiers?: readonly CliTier[];
  /** Tests of one host running at once. */
  readonly concurrency?: number;
}

/**
 * Makes the CLI suite driver over a list of tiers.
 *
 * @example
 * ```ts
 * import { createCliDriver } from "./driver.ts";
 * const driver = createCliDriver({ concurrency: 4 });
 * ```
 */
export function createCliDriver(options: CliDriverOptions = {}): SuiteDriver {
  const tiers = options.tiers ?? CLI_TIERS;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  return {
    id: "cli",
    accepts: (entry: HostEntry) => entry.kind === "cli",
    list(entry, settings) {
      if (entry.kind !== "cli") return [];
      return tiers.flatMap((tier) => tier.list(entry, settings));
    },
    version: (entry, settings) => entry.kind === "cli" ? hostVersion(entry, settings) : Promise.resolve(null),
    async run(entry, tests, settings, sink) {
      if (entry.kind !== "cli") {
        for (const test of tests) {
          sink.started(entry.id, test.id);
          sink.finished(entry.id, test.id, errorOutcome(`Host "${entry.id}" is not a CLI host`), 0);
        }
        return;
      }
      const queue = [...tests];
      const worker = async () => {
        for (let test = queue.shift(); test; test = queue.shift()) {
          await runOne(entry, test, tiers, settings, sink);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    },
  };
}

/** The CLI suite driver with the default tiers. */
export const cliDriver: SuiteDriver = createCliDriver();

async function runOne(
  entry: CliHostEntry,
  test: TestCase,
  tiers: readonly CliTier[],
  settings: RunSettings,
  sink: ResultSink,
): Promise<void> {
  // Once the run is aborted nothing more is reported: a test the abort stopped ended as the abort made it end
  // ("stopped: … abort", a fault run "still running"), which says nothing about the host. The engine lists it
  // as interrupted.
  if (settings.signal.aborted) return;
  sink.started(entry.id, test.id);
  const started = performance.now();
  const recordings: StreamRecording[] = [];
  let outcome = await recordStreams(recordings, () => outcomeOf(entry, test, tiers, settings));
  if (settings.signal.aborted) return;
  if (settings.outDir !== null && isFailing(outcome.status) && recordings.length > 0) {
    outcome = await withSavedStreams(outcome, settings.outDir, entry, test, recordings);
  }
  sink.finished(entry.id, test.id, outcome, Math.round(performance.now() - started));
}

/** The outcome with its host runs saved under `--out` and named in `details.artifacts`. */
async function withSavedStreams(
  outcome: Outcome,
  outDir: string,
  entry: CliHostEntry,
  test: TestCase,
  recordings: readonly StreamRecording[],
): Promise<Outcome> {
  const saved = {
    host: entry.id,
    test: test.id,
    ...(test.title ? { title: test.title } : {}),
    verdict: { status: outcome.status, message: outcome.message ?? "" },
  };
  try {
    const folders = await saveRecordings(outDir, saved, recordings);
    const artifacts = [...(outcome.details?.artifacts as string[] | undefined ?? []), ...folders];
    return { ...outcome, details: { ...outcome.details, artifacts } };
  } catch (error) {
    // The verdict stands; a stream that could not be saved is noted, not turned into a harness error.
    return { ...outcome, details: { ...outcome.details, artifactsError: describe(error) } };
  }
}

async function outcomeOf(
  entry: CliHostEntry,
  test: TestCase,
  tiers: readonly CliTier[],
  settings: RunSettings,
): Promise<Outcome> {
  const tier = tiers.find((candidate) => candidate.name === tierOf(test.id));
  if (!tier) {
    return errorOutcome(`No CLI tier runs test "${test.id}": check the tier list in suite/cli/tiers.ts`);
  }
  const timeoutMs = scaled(tier.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS, settings.timeoutMultiplier);
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(settings.signal.reason);
  settings.signal.addEventListener("abort", onRunAbort, { once: true });
  if (settings.signal.aborted) onRunAbort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException("test deadline", "TimeoutError"));
      resolve({ status: "TIMEOUT", message: `test did not finish within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const running = tier.run(entry, test, settings, controller.signal).catch((error: unknown) =>
    errorOutcome(`The harness failed while running "${test.id}": ${describe(error)}`)
  );
  try {
    const outcome = await Promise.race([running, deadline]);
    if (outcome.status === "TIMEOUT" && controller.signal.aborted) {
      // Let the tier finish its cleanup (process-group kill) before the result is reported, but a tier that
      // ignores its signal must not hold the whole run, nor an interrupt (the run's abort ends the wait).
      const waited = new AbortController();
      await Promise.race([
        running,
        delay(CLEANUP_GRACE_MS, AbortSignal.any([settings.signal, waited.signal])),
      ]);
      waited.abort(); // clears the grace timer when the tier finished first
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    settings.signal.removeEventListener("abort", onRunAbort);
  }
}

/** The first line the host's version check prints, or `null` (no such path, binary absent, any failure). */
async function hostVersion(entry: CliHostEntry, settings: RunSettings): Promise<string | null> {
  const { runner } = entry;
  if (!runner.goldenPaths.includes("version-check")) return null;
  try {
    if (await runner.detect() === null) return null;
    let first: string | null = null;
    const observation = await observe({
      runner,
      path: "version-check",
      request: { prompt: "" },
      timeoutMultiplier: settings.timeoutMultiplier,
      signal: settings.signal,
      wallTimeoutMs: 15_000,
      onStdoutLine: (line) => void (first ??= line.trim() || null),
    });
    // The line is the host's own output, stamped on every report: redacted and marked like its messages (the
    // writers redact it again with the run's literal secrets).
    return observation.exitCode === 0 && first !== null
      ? stripControls(redact(first), { singleLine: true })
      : null;
  } catch {
    return null;
  }
}

function errorOutcome(message: string): Outcome {
  return { status: "ERROR", message };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
