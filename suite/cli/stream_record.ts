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
import { redact, REDACTED, secretsFromEnv } from "../../src/report/redact.ts";
import { fileNamePart } from "../../src/file_name.ts";

/** Most stdout bytes kept per host run (1 MiB); past it lines are counted, not kept. */
export const MAX_SAVED_STDOUT_BYTES = 1024 * 1024;
/** Most stderr bytes kept per host run (256 KiB). */
export const MAX_SAVED_STDERR_BYTES = 256 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One host run as recorded: what was started, what it printed (capped), how it ended. */
export class StreamRecording {
  readonly binary: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The names of the variables the host was given; never their values. */
  readonly envNames: readonly string[];
  /** The dialect its stdout was read as. */
  readonly dialect: string;
  readonly stderr: string[] = [];
  // Bytes, not strings: a line the reader cut from a chunk can hold the whole chunk alive, and a flood of tiny
  // lines would cost far more as strings than the cap says.
  #stdout = new Uint8Array(0);
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

  /**
   * Keeps a stdout line the executor normalised, while under the cap. Once a line does not fit, it and every
   * later line are only counted, so what is kept is always a prefix of the stream.
   */
  stdoutLine(line: string): void {
    if (this.dropped.stdoutLines > 0) {
      this.dropped.stdoutLines++;
      return;
    }
    const worst = this.#stdoutBytes + line.length * 3 + 1;
    if (worst > this.#stdout.length && this.#stdout.length < MAX_SAVED_STDOUT_BYTES) {
      const size = Math.min(MAX_SAVED_STDOUT_BYTES, Math.max(worst, this.#stdout.length * 2, 4096));
      const grown = new Uint8Array(size);
      grown.set(this.#stdout.subarray(0, this.#stdoutBytes));
      this.#stdout = grown;
    }
    // Into the buffer itself: a fresh array per line would pile up off-heap garbage under a flood.
    const room = this.#stdout.subarray(this.#stdoutBytes, this.#stdout.length - 1);
    const { read, written } = encoder.encodeInto(line, room);
    if (read < line.length) {
      this.dropped.stdoutLines++;
      return;
    }
    this.#stdout[this.#stdoutBytes + written] = 0x0a;
    this.#stdoutBytes += written + 1;
  }

  /** The stdout kept, as text: lines, each ending in a newline. */
  get stdoutText(): string {
    return decoder.decode(this.#stdout.subarray(0, this.#stdoutBytes));
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
 * Adds recordings made elsewhere to the current test's: a host run two tests share (suite/cli/capability_run.ts
 * `sharedRun`) is recorded once, under whichever test started it, and each test that judges it adopts it, so a
 * failing one keeps the very runs it judged. Outside a recorded test it does nothing.
 */
export function adoptRecordings(recordings: readonly StreamRecording[]): void {
  const into = current.getStore();
  if (into === undefined) return;
  for (const recording of recordings) if (!into.includes(recording)) into.push(recording);
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
  /** The test's verdict, kept beside its runs so a replay can say what the run concluded. */
  readonly verdict?: { readonly status: string; readonly message: string };
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
  let scrub = (text: string) => redact(text, secrets);
  const base = fileNamePart(saved.test.split("/").slice(1).join("-"));
  const host = fileNamePart(saved.host);
  const written: string[] = [];
  for (const [index, recording] of recordings.entries()) {
    // A secret the redactor recognises in one place (a header the host printed, "Bearer" and its token as two
    // arguments) must also go where it stands bare: the values it removes are removed everywhere.
    const learned = learnSecrets(recording, secrets);
    scrub = (text: string) => redact(text, [...learned, ...secrets]);
    const name = recordings.length === 1 ? base : `${base}-run${index + 1}`;
    const relative = `streams/${host}/${name}`;
    const dir = join(outDir, relative);
    await Deno.mkdir(dir, { recursive: true });
    const observation = recording.observation;
    await Deno.writeTextFile(join(dir, "argv.json"), `${scrub(JSON.stringify(recording.argv, null, 2))}\n`);
    // Whole texts, not line by line: a flood of tiny lines must not become a flood of strings here either.
    const stdout = recording.stdoutText;
    await Deno.writeTextFile(join(dir, "stdout.jsonl"), scrub(stdout));
    const stderr = recording.stderr.map((line) => `${line}\n`).join("");
    await Deno.writeTextFile(join(dir, "stderr.txt"), scrub(stderr));
    const meta = {
      host: saved.host,
      case: name,
      test: saved.test,
      ...(saved.title ? { title: saved.title } : {}),
      ...(saved.verdict
        ? { verdict: { status: saved.verdict.status, message: scrub(saved.verdict.message) } }
        : {}),
      dialect: recording.dialect,
      binary: scrub(recording.binary),
      cwd: scrub(recording.cwd),
      env: recording.envNames,
      exitCode: observation?.exitCode ?? null,
      signal: observation?.signal ?? null,
      timedOut: observation?.stopped === "wall" || observation?.stopped === "idle",
      stopped: observation?.stopped ?? null,
      durationMs: observation?.durationMs ?? null,
      stdoutLinesRead: observation?.stdoutLines ?? null,
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

/** The values redaction removes from a recording's argv (one by one and in adjacent pairs) and output. */
function learnSecrets(recording: StreamRecording, secrets: readonly string[]): string[] {
  const texts = [
    ...recording.argv,
    ...recording.argv.slice(1).map((arg, index) => `${recording.argv[index]} ${arg}`),
    recording.stdoutText,
    recording.stderr.join("\n"),
  ];
  const learned = new Set<string>();
  for (const text of texts) {
    for (const value of removedBy(text, redact(text, secrets))) {
      // A header's value runs to the end of its line, JSON quoting and all: its bare form stops before that.
      for (const form of [value, /^[^\s"'{}<>\\]*/.exec(value)![0]]) if (form.length >= 8) learned.add(form);
    }
  }
  return [...learned].sort((a, b) => b.length - a.length);
}

/** What `redacted` (the text with secrets replaced by the marker) took out of `text`, in order. */
function removedBy(text: string, redacted: string): string[] {
  if (text === redacted) return [];
  const pieces = redacted.split(REDACTED);
  const removed: string[] = [];
  let at = pieces[0]!.length;
  for (const [index, piece] of pieces.entries()) {
    if (index === 0) continue;
    const last = index === pieces.length - 1;
    const next = piece === "" ? (last ? text.length : at) : text.indexOf(piece, at);
    if (next < 0) break;
    removed.push(text.slice(at, next));
    at = next + piece.length;
  }
  return removed;
}
