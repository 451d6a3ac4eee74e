/**
 * The `pretty` reporter, for people watching a run. On a terminal it keeps one live progress line (counts and
 * the running test), rewritten in place, and prints only what needs attention above it; elsewhere (CI, a
 * pipe) it prints one line per result. Either way it ends with the results that need attention and a summary
 * line. Unexpected results and stale expectations stand out.
 *
 * @module
 */
import { styleText } from "node:util";
import { compare, expectedLabel, type Status, summarize, type TestResult } from "../outcome.ts";
import { STATUS_MARK } from "./board_grid.ts";
import { join } from "node:path";
import { artifactsOf } from "./artifacts.ts";
import { redact } from "./redact.ts";
import { stripControls } from "./sanitize.ts";
import { cutAtWord } from "../quote.ts";
import { formatDuration } from "./duration.ts";
import type { Reporter, ReporterModule, ReportPlan, TextSink } from "./reporter.ts";
import type { RunReport } from "./schema.ts";
import { formatSkipGroups, groupSkips } from "./skip_reasons.ts";

/** Options of {@linkcode PrettyReporter}. */
export interface PrettyOptions {
  /** Where the lines go. */
  out: TextSink;
  /** A terminal: one live progress line instead of one line per result. */
  isTTY: boolean;
  /** ANSI colour; callers turn it off for `NO_COLOR` and non-terminals. */
  color: boolean;
  /** Terminal width for the progress line; by default the console's current width, else 80. */
  columns?: number;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
  /**
   * The shell command that reruns exactly one result, printed under each result that needs attention; none
   * when absent or when it returns `null`.
   */
  rerun?: (result: TestResult) => string | null;
  /** `--out DIR`: `details.artifacts` are relative to it, and printed joined to it. */
  outDir?: string | null;
}

type Style = Parameters<typeof styleText>[0];

const STATUS_STYLE: Record<Status, Style> = {
  PASS: "green",
  FAIL: "red",
  WARN: "yellow",
  INFO: "cyan",
  SKIP: "gray",
  TIMEOUT: "red",
  ERROR: "magenta",
};

/** The live, human-facing reporter. */
export class PrettyReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "pretty" as const;
  readonly #options: PrettyOptions;
  readonly #results: TestResult[] = [];
  readonly #running: string[] = [];
  #total = 0;
  #hostWidth = 4;
  #progressShown = false;

  /**
   * Makes the reporter.
   * @param options Where to write and how.
   */
  constructor(options: PrettyOptions) {
    this.#options = options;
  }

  /** Draws the first progress line. */
  start(plan: ReportPlan): void {
    this.#total = plan.total;
    this.#hostWidth = Math.max(4, ...plan.hosts.map((host) => host.id.length));
    this.#drawProgress();
  }

  /** Shows the test on the progress line. */
  testStarted(host: string, test: string): void {
    this.#running.push(`${host} › ${test}`);
    this.#drawProgress();
  }

  /** Prints the result (on a terminal: only when it needs attention) and updates the counts. */
  result(result: TestResult): void {
    this.#results.push(result);
    const index = this.#running.indexOf(`${result.host} › ${result.test}`);
    if (index >= 0) this.#running.splice(index, 1);
    const verdict = compare(result);
    if (!this.#options.isTTY || verdict !== "expected" || result.flaky) this.#print(this.#line(result));
    this.#drawProgress();
  }

  /** Clears the progress line, lists what needs attention, prints the summary line. */
  finish(report: RunReport): Promise<void> {
    this.#clearProgress();
    const attention = report.results.filter((result) => compare(result) !== "expected");
    if (attention.length > 0) {
      this.#options.out.write(`\n${this.#style(["bold"], "Needs attention:")}\n`);
      for (const result of attention) {
        this.#options.out.write(`${this.#line(result)}\n`);
        for (const line of this.#replay(result)) this.#options.out.write(`    ${line}\n`);
      }
      this.#options.out.write("\n");
    }
    // Evidence of results that broke nothing unexpected (a WARN, a known failure) is named too.
    const evidence = report.results.filter((result) =>
      compare(result) === "expected" && artifactsOf(result).length > 0
    );
    if (evidence.length > 0) {
      this.#options.out.write(`\n${this.#style(["bold"], "Evidence kept (as expected):")}\n`);
      for (const result of evidence) {
        this.#options.out.write(`${result.host}  ${result.test}\n`);
        for (const line of this.#replay(result).filter((l) => l.startsWith("artifacts:"))) {
          this.#options.out.write(`    ${line}\n`);
        }
      }
      this.#options.out.write("\n");
    }
    const flaky = report.results.filter((result) => result.flaky === true);
    if (flaky.length > 0) {
      this.#options.out.write(`\n${this.#style(["bold"], "Flaky (as expected only on a retry):")}\n`);
      for (const result of flaky) this.#options.out.write(`${this.#line(result)}\n`);
      this.#options.out.write("\n");
    }
    const skips = formatSkipGroups(groupSkips(report.results));
    if (skips !== null) this.#options.out.write(`${this.#style("gray", stripControls(skips))}\n`);
    this.#options.out.write(`${this.summaryLine(report)}\n`);
    return Promise.resolve();
  }

  /** The closing line: counts per status, unexpected and stale counts, duration. */
  summaryLine(report: RunReport): string {
    const s = report.summary;
    const unexpected = report.results.filter((result) => compare(result) === "unexpected").length;
    const stale = report.results.filter((result) => compare(result) === "stale").length;
    const parts = [
      this.#style("green", `${s.passed} passed`),
      this.#style(s.failed ? "red" : "reset", `${s.failed} failed`),
      this.#style(s.warned ? "yellow" : "reset", `${s.warned} warned`),
      this.#style(s.info ? "cyan" : "reset", `${s.info} info`),
      `${s.skipped} skipped`,
      this.#style(s.timedOut ? "red" : "reset", `${s.timedOut} timed out`),
      this.#style(s.errored ? "magenta" : "reset", `${s.errored} errored`),
    ];
    const verdict = unexpected + stale === 0
      ? this.#style(["bold", "green"], "all as expected")
      : this.#style(
        ["bold", "red"],
        [
          unexpected ? `${unexpected} unexpected` : "",
          stale ? `${stale} stale expectation${stale === 1 ? "" : "s"}` : "",
        ].filter(Boolean).join(", "),
      );
    const interrupted = report.run.interrupted?.length ?? 0;
    const incomplete = report.run.incomplete
      ? ` · ${
        this.#style(
          ["bold", "yellow"],
          `INCOMPLETE run${interrupted > 0 ? ` (${interrupted} interrupted)` : ""}`,
        )
      }`
      : "";
    const flaky = s.flaky > 0 ? ` · ${this.#style(["bold", "yellow"], `${s.flaky} flaky`)}` : "";
    const results = `${report.results.length} result${report.results.length === 1 ? "" : "s"}`;
    return `${results}: ${parts.join(", ")} · ${verdict}${flaky}${incomplete} · ` +
      formatDuration(report.run.durationMs);
  }

  #line(result: TestResult): string {
    const verdict = compare(result);
    const status = result.status.padEnd(7);
    const head = this.#style(STATUS_STYLE[result.status], `${STATUS_MARK[result.status]} ${status}`);
    const message = firstLine(redact(result.message, this.#options.secrets));
    const title = result.title
      ? ` ${this.#style("gray", `· ${firstLine(redact(result.title, this.#options.secrets))}`)}`
      : "";
    let line = `${head} ${result.host.padEnd(this.#hostWidth)}  ${result.test}${title}  ${
      this.#style("gray", formatDuration(result.durationMs))
    }`;
    if (message) line += `  ${message}`;
    const listed = result.expectedAny ?? [result.expected];
    if (verdict === "unexpected") {
      const expected = result.expected === "PASS" && !result.expectedAny
        ? ""
        : ` (expected ${expectedLabel(result)})`;
      const tries = result.attempts ? ` after ${result.attempts} attempts` : "";
      line += `  ${this.#badge(["bold", "red", "inverse"], `UNEXPECTED${expected}${tries}`)}`;
    } else if (verdict === "stale") {
      line +=
        `  ${
          this.#badge(["bold", "yellow", "inverse"], `STALE expectation: listed as ${expectedLabel(result)}`)
        }` +
        " remove it or run with --update-expectations";
    } else if (!listed.includes(result.status) && !listed.includes("PASS")) {
      line += this.#style("gray", ` (expected ${expectedLabel(result)})`);
    } else if (listed.includes(result.status) && result.status !== "PASS") {
      line += this.#style("gray", " (known failure)");
    }
    if (result.flaky) line += `  ${this.#badge(["bold", "yellow", "inverse"], flakyLabel(result))}`;
    return line;
  }

  /** How to look into a result again: the command that reruns it, and the files it left. */
  #replay(result: TestResult): string[] {
    const lines: string[] = [];
    const command = this.#options.rerun?.(result) ?? null;
    if (command !== null) {
      lines.push(`rerun: ${stripControls(redact(command, this.#options.secrets), { singleLine: true })}`);
    }
    const artifacts = artifactsOf(result);
    if (artifacts.length > 0) {
      const outDir = this.#options.outDir;
      const paths = artifacts.map((path) => outDir ? join(outDir, path) : path);
      lines.push(`artifacts: ${paths.join(", ")}`);
    }
    return lines;
  }

  #print(line: string): void {
    this.#clearProgress();
    this.#options.out.write(`${line}\n`);
  }

  #drawProgress(): void {
    if (!this.#options.isTTY) return;
    const s = summarize(this.#results);
    const done = this.#results.length;
    const counts = [
      this.#style("green", `✓${s.passed}`),
      this.#style("red", `✗${s.failed + s.timedOut + s.errored}`),
      this.#style("yellow", `!${s.warned}`),
      this.#style("cyan", `i${s.info}`),
      this.#style("gray", `–${s.skipped}`),
    ].join(" ");
    const current = this.#running.at(-1);
    const more = this.#running.length > 1 ? ` (+${this.#running.length - 1})` : "";
    const head = `[${done}/${this.#total}] `;
    const width = this.#options.columns ?? consoleColumns();
    // Visible width of the counts, without colour codes.
    const countsWidth =
      `✓${s.passed} ✗${s.failed + s.timedOut + s.errored} !${s.warned} i${s.info} –${s.skipped}`.length;
    let tail = current ? `  ${current}${more}` : "";
    const room = width - 1 - head.length - countsWidth;
    if (tail.length > room) tail = room > 1 ? `${tail.slice(0, room - 1)}…` : "";
    this.#options.out.write(`\r\x1b[2K${head}${counts}${tail}`);
    this.#progressShown = true;
  }

  #clearProgress(): void {
    if (!this.#progressShown) return;
    this.#options.out.write("\r\x1b[2K");
    this.#progressShown = false;
  }

  /** A label that stands out: inverse video in colour, brackets without. */
  #badge(style: Style, text: string): string {
    return this.#options.color ? this.#style(style, ` ${text} `) : `[${text}]`;
  }

  #style(style: Style, text: string): string {
    if (!this.#options.color || style === "reset") return text;
    return styleText(style, text, { validateStream: false });
  }
}

/** `FLAKY: passed on attempt 2, after FAIL`: what the flaky result did, and what the attempts before it did. */
function flakyLabel(result: TestResult): string {
  const attempts = Array.isArray(result.details.attemptResults)
    ? (result.details.attemptResults as { status?: unknown }[]).slice(0, -1).map((a) => String(a.status))
    : [];
  const did = result.status === "PASS" ? "passed" : `${result.status} as expected`;
  return `FLAKY: ${did} on attempt ${result.attempts ?? attempts.length + 1}` +
    (attempts.length > 0 ? `, after ${attempts.join(", ")}` : "");
}

/** The terminal's width now (it may have been resized), or 80 when there is no console. */
function consoleColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}

/**
 * The first line of text a host may control, its escape sequences and controls marked, cut at a word boundary
 * to at most 200 characters.
 */
function firstLine(text: string): string {
  return cutAtWord(stripControls(text.split(/\r?\n/, 1)[0] ?? "", { singleLine: true }), 200);
}

/** `--reporter pretty`: on standard output, unless another reporter prints there; then on standard error. */
export default {
  printsToStdout: false,
  create: (context) =>
    new PrettyReporter({
      out: context.stdoutTaken ? context.stderr : context.stdout,
      isTTY: context.isTTY,
      color: context.color,
      secrets: context.secrets,
      outDir: context.outDir,
      ...(context.rerun ? { rerun: context.rerun } : {}),
      ...(context.columns === undefined ? {} : { columns: context.columns }),
    }),
} satisfies ReporterModule;
