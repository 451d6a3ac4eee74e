/**
 * Saving a failing CLI test's host runs under `--out`, so the failure can be replayed (`conformance parse
 * DIR`) and turned into a fixture: each run becomes a folder in the layout of `tests/fixtures/cli/<host>/<case>/`
 * (`argv.json`, `stdout.jsonl`, `stderr.txt`, `meta.json`), at `<out>/streams/<host>/<tier>-<case>[-run<n>]/`.
 *
 * The executor keeps no raw stdout (it is built not to hold floods), so while a test runs every host run it
 * starts is recorded here from the executor's stdout callback: the lines it normalised (up to its terminal
 * event, which is exactly what a replay must normalise to get the same events); stderr is the observation's
 * own (itself bounded). Both are capped ({@linkcode MAX_SAVED_STDOUT_BYTES}, {@linkcode MAX_SAVED_STDERR_BYTES}); `meta.json` says when a cap
 * cut a stream. Only a failing test's recordings are written; the rest are dropped with the test.
 *
 * Which test a run belongs to travels with the test's async context ({@linkcode recordStreams}), so the tiers,
 * which call `observe` in many ways, need no extra parameter.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { join } from "node:path";
import { BASELINE_ENV_ALLOW, projectEnv, readableEnv, readEnv } from "../../src/exec/env.ts";
import type { HostInvocation } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import { redact, secretsFromEnv } from "../../src/report/redact.ts";

/** Most stdout bytes kept per host run (1 MiB); past it lines are counted, not kept. */
export const MAX_SAVED_STDOUT_BYTES = 1024 * 1024;
/** Most stderr bytes kept per host run (256 KiB). */
export const MAX_SAVED_STDERR_BYTES = 256 * 1024;

/** One host run as recorded: what was started, what it printed (capped), how it ended. */
export class StreamRecording {
  readonly binary: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The names of the variables the host was given; never their values. */
  readonly envNames: readonly string[];
  /** The dialect its stdout was read as. */
  readonly dialect: string;
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  #stdoutBytes = 0;
  /** Lines read but not kept because a cap was reached. */
  readonly dropped = { stdoutLines: 0, stderrLines: 0 };
  observation: Observation | null = null;

  /**
   * Starts a recording of `invocation`.
   * @param invocation What the executor is about to start.
   * @param dialect The normaliser dialect its stdout is read as.
   */
  constructor(invocation: HostInvocation, dialect: string) {
    this.binary = invocation.binary;
    this.argv = [...invocation.args];
    this.cwd = invocation.cwd ?? Deno.cwd();
    const parent = readEnv([...BASELINE_ENV_ALLOW, ...invocation.envAllow]);
    this.envNames = Object.keys(projectEnv(invocation, parent)).sort();
    this.dialect = dialect;
  }

  /** Keeps a stdout line the executor normalised, while under the cap. */
  stdoutLine(line: string): void {
    if (this.#stdoutBytes + line.length + 1 > MAX_SAVED_STDOUT_BYTES) {
      this.dropped.stdoutLines++;
      return;
    }
    this.#stdoutBytes += line.length + 1;
    this.stdout.push(line);
  }

  /** Ends the recording with what the executor observed; stderr is the observation's, capped. */
  finish(observation: Observation): void {
    this.observation = observation;
    let bytes = 0;
    for (const line of observation.hostStderr) {
      if (bytes + line.length + 1 > MAX_SAVED_STDERR_BYTES) {
        this.dropped.stderrLines++;
        continue;
      }
      bytes += line.length + 1;
      this.stderr.push(line);
    }
    this.dropped.stderrLines += observation.dropped.stderrLines;
  }
}

const current = new AsyncLocalStorage<StreamRecording[]>();

/**
 * Runs `body` with every host run it starts recorded into `into`.
 *
 * @example
 * ```ts ignore
 * const recordings: StreamRecording[] = [];
 * const outcome = await recordStreams(recordings, () => tier.run(entry, test, settings, signal));
 * ```
 */
export function recordStreams<T>(into: StreamRecording[], body: () => Promise<T>): Promise<T> {
  return current.run(into, body);
}

/**
 * A recording for a host run about to start, when a test is being recorded; `null` otherwise (the version
 * probe, code outside the driver).
 */
export function startRecording(invocation: HostInvocation, dialect: string): StreamRecording | null {
  const into = current.getStore();
  if (into === undefined) return null;
  const recording = new StreamRecording(invocation, dialect);
  into.push(recording);
  return recording;
}

/** Identifies the test whose runs are saved. */
export interface SavedTest {
  readonly host: string;
  readonly test: string;
  readonly title?: string;
}

/**
 * Writes each recording in the fixture layout under `<outDir>/streams/<host>/`, secrets redacted, and returns
 * the folders written, relative to `outDir`.
 */
export async function saveRecordings(
  outDir: string,
  saved: SavedTest,
  recordings: readonly StreamRecording[],
): Promise<string[]> {
  const secrets = secretsFromEnv(readableEnv());
  const scrub = (text: string) => redact(text, secrets);
  const base = saved.test.split("/").slice(1).join("-").replaceAll(/[^\w.-]+/g, "_");
  const host = saved.host.replaceAll(/[^\w.-]+/g, "_");
  const written: string[] = [];
  for (const [index, recording] of recordings.entries()) {
    const name = recordings.length === 1 ? base : `${base}-run${index + 1}`;
    const relative = `streams/${host}/${name}`;
    const dir = join(outDir, relative);
    await Deno.mkdir(dir, { recursive: true });
    const observation = recording.observation;
    const lines = (list: readonly string[]) => list.map((line) => `${scrub(line)}\n`).join("");
    await Deno.writeTextFile(join(dir, "argv.json"), `${scrub(JSON.stringify(recording.argv, null, 2))}\n`);
    await Deno.writeTextFile(join(dir, "stdout.jsonl"), lines(recording.stdout));
    await Deno.writeTextFile(join(dir, "stderr.txt"), lines(recording.stderr));
    const meta = {
      host: saved.host,
      case: name,
      test: saved.test,
      ...(saved.title ? { title: saved.title } : {}),
      dialect: recording.dialect,
      binary: scrub(recording.binary),
      cwd: scrub(recording.cwd),
      env: recording.envNames,
      exitCode: observation?.exitCode ?? null,
      signal: observation?.signal ?? null,
      timedOut: observation?.stopped === "wall" || observation?.stopped === "idle",
      stopped: observation?.stopped ?? null,
      durationMs: observation?.durationMs ?? null,
      stdoutLines: observation?.stdoutLines ?? recording.stdout.length,
      truncated: recording.dropped.stdoutLines + recording.dropped.stderrLines > 0
        ? {
          stdoutLinesDropped: recording.dropped.stdoutLines,
          stderrLinesDropped: recording.dropped.stderrLines,
          why: `only the first ${MAX_SAVED_STDOUT_BYTES} bytes of stdout and ${MAX_SAVED_STDERR_BYTES} of ` +
            "stderr are kept",
        }
        : false,
      replay: `conformance parse ${dir}`,
    };
    await Deno.writeTextFile(join(dir, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
    written.push(relative);
  }
  return written;
}
