/**
 * The `json` reporter: the `conformance-report/1` document. With an output folder it writes
 * `report.json` atomically, and also during the run (an `incomplete` checkpoint, at most once a second), so a
 * crash leaves either the previous file or a complete report of what ran; without one it prints the final
 * report to standard output.
 *
 * @module
 */
import { join } from "node:path";
import { summarize, type TestResult } from "../outcome.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { redact, redactResult } from "./redact.ts";
import type { Reporter, ReporterModule, ReportPlan, TextSink } from "./reporter.ts";
import { REPORT_SCHEMA, type RunReport } from "./schema.ts";
import { expectationReason, judge, type Judgement, verdictCounts } from "./verdict.ts";

/** The file name the json reporter writes in the output folder. */
export const JSON_REPORT_FILE = "report.json";

/** Options of {@linkcode JsonReporter}. */
export interface JsonReporterOptions {
  /** Folder for `report.json`; `null` prints the report to `out` instead. */
  outDir: string | null;
  /** Standard output, used without `outDir`. */
  out: TextSink;
  /** Least time between two checkpoint writes during the run; 1000 ms by default. */
  checkpointMs?: number;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/**
 * Serialises a report as written to disk: secrets redacted, two-space indentation, final newline.
 *
 * @example
 * ```ts
 * import { serializeReport } from "./json.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * await Deno.writeTextFile("report.json", serializeReport(report));
 * ```
 */
export function serializeReport(report: RunReport, secrets: readonly string[] = []): string {
  const run = { ...report.run };
  if (run.command !== undefined) run.command = redact(run.command, secrets);
  const clean: RunReport = {
    ...report,
    run,
    hosts: report.hosts.map((host) =>
      host.version ? { ...host, version: redact(host.version, secrets) } : host
    ),
    results: report.results.map((result) => withJudgement(redactResult(result, secrets))),
    summary: {
      ...report.summary,
      ...verdictCounts(report.results, report.run.incomplete === true),
    },
  };
  return jsonText(clean);
}

/**
 * A value as a JSON file's text: two-space indentation, final newline, and no raw control character, so that
 * `cat` on a terminal shows the file as it is.
 *
 * @example
 * ```ts
 * import { jsonText } from "./json.ts";
 * jsonText({ message: "\u009b31m" }); // '{\n  "message": "\\u009b31m"\n}\n'
 * ```
 */
export function jsonText(value: unknown): string {
  // JSON.stringify escapes C0 controls but writes C1 (U+0080–U+009F) raw, which a terminal `cat` obeys.
  return `${
    JSON.stringify(value, null, 2).replace(C1, (char) =>
      `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
  }\n`;
}

const C1 = /[\u0080-\u009f]/g;

type JudgedResult = TestResult & Partial<Judgement> & { expectationReason?: string };

/**
 * A result as the file carries it: with its standing against its expectation said outright (`verdict`,
 * `matched`, `why`) and the expectation's reason beside them, so a reader need not re-derive either. Written
 * after `status`, `expected` and `expectedAny`, before the message.
 */
function withJudgement(result: TestResult): TestResult {
  // A report read back carries the standing it was written with: it is said afresh, never copied.
  const { host, test, title, status, expected, expectedAny, ...rest } = result as JudgedResult;
  for (const key of ["verdict", "matched", "why", "expectationReason"] as const) delete rest[key];
  const reason = expectationReason(result);
  return {
    host,
    test,
    ...(title === undefined ? {} : { title }),
    status,
    expected,
    ...(expectedAny === undefined ? {} : { expectedAny }),
    ...judge(result),
    ...(reason === undefined ? {} : { expectationReason: reason }),
    ...rest,
  } as TestResult;
}

/** Writes the JSON report, with crash-safe checkpoints while the run goes on. */
export class JsonReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "json" as const;
  readonly #options: JsonReporterOptions;
  readonly #results: TestResult[] = [];
  #plan: ReportPlan | undefined;
  #startedAt = 0;
  #lastWrite = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #writeError: unknown;
  #finished = false;

  /**
   * Makes the reporter.
   * @param options Where to write.
   */
  constructor(options: JsonReporterOptions) {
    this.#options = options;
  }

  /** The path written, or `null` when the report goes to standard output. */
  get path(): string | null {
    return this.#options.outDir === null ? null : join(this.#options.outDir, JSON_REPORT_FILE);
  }

  /** Remembers the plan for checkpoints. */
  start(plan: ReportPlan): void {
    this.#plan = plan;
    this.#startedAt = performance.now();
    this.#lastWrite = this.#startedAt;
  }

  /** Nothing to do: checkpoints follow results. */
  testStarted(): void {}

  /** Records the result and schedules a checkpoint. */
  result(result: TestResult): void {
    this.#results.push(result);
    if (this.path === null || this.#finished || this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastWrite + (this.#options.checkpointMs ?? 1000) - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#enqueue(() => this.#checkpoint());
    }, wait);
  }

  /** Writes the final report (after any checkpoint in flight). */
  async finish(report: RunReport): Promise<void> {
    this.#finished = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const text = serializeReport(report, this.#options.secrets);
    const path = this.path;
    if (path === null) {
      this.#options.out.write(text);
      return;
    }
    this.#enqueue(() => writeFileAtomic(path, text));
    await this.#writing;
    // A failed checkpoint matters only if the final write failed too, which has already thrown.
  }

  #enqueue(write: () => Promise<void>): void {
    this.#writing = this.#writing.then(write, write).catch((error) => {
      this.#writeError = error;
      if (this.#finished) throw error;
    });
  }

  async #checkpoint(): Promise<void> {
    const plan = this.#plan;
    const path = this.path;
    if (!plan || path === null || this.#finished) return;
    this.#lastWrite = performance.now();
    const report: RunReport = {
      schema: REPORT_SCHEMA,
      run: { ...plan.run, durationMs: Math.round(this.#lastWrite - this.#startedAt), incomplete: true },
      hosts: plan.hosts,
      results: [...this.#results],
      summary: summarize(this.#results),
    };
    await writeFileAtomic(path, serializeReport(report, this.#options.secrets));
  }

  /** The last checkpoint write error, if any (the run goes on; the final write reports its own). */
  get checkpointError(): unknown {
    return this.#writeError;
  }
}

/** `--reporter json`: `report.json` under `--out`, else the report on standard output. */
export default {
  file: JSON_REPORT_FILE,
  printsToStdout: true,
  create: (context) =>
    new JsonReporter({ outDir: context.outDir, out: context.stdout, secrets: context.secrets }),
} satisfies ReporterModule;
