/**
 * The `junit` reporter: `junit.xml` for CI systems, one `<testsuite>` per host. Results map onto JUnit the way
 * the run's exit code judges them, so CI and the exit code agree:
 *
 * - an unexpected FAIL, TIMEOUT or WARN → `<failure type="STATUS">`; an unexpected ERROR → `<error>`;
 * - a stale expectation (listed as failing, now passing) → `<failure type="STALE_EXPECTATION">`;
 * - SKIP → `<skipped>` with its reason; a known failure (as listed in the expectations) → `<skipped
 *   type="EXPECTED_FAILURE">`, like pytest's xfail;
 * - a test an interrupt (Ctrl-C, SIGTERM) left without a result (`run.interrupted`) → `<skipped
 *   type="INTERRUPTED" message="interrupted: …">`, and each testsuite of an incomplete run carries the
 *   property `run.incomplete` and an `INCOMPLETE: …` line in its `<system-err>`;
 * - PASS, WARN and INFO → a passed test case (a WARN's or INFO's message goes to `<system-out>`); an INFO is
 *   never a `<skipped>`, because the test ran and broke nothing.
 *
 * A testcase's name is the test id; its title and artifacts are `<property name="title">` and
 * `<property name="artifact">` (paths relative to the report folder) in the testcase's `<properties>`.
 *
 * @module
 */
import { compare, expectedLabel, type InterruptedTest, type TestResult } from "../outcome.ts";
import { artifactsOf } from "./artifacts.ts";
import { redact, redactResult } from "./redact.ts";
import { type Reporter, type ReporterModule, type TextSink, writeOrPrint } from "./reporter.ts";
import type { RunReport } from "./schema.ts";
import { escapeXmlText, openTag } from "./xml.ts";
import { shownDetails } from "./details.ts";

/** The file name the junit reporter writes in the output folder. */
export const JUNIT_FILE = "junit.xml";

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: number;
}

/**
 * Renders a report as JUnit XML.
 *
 * @example
 * ```ts
 * import { renderJunit } from "./junit.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * await Deno.writeTextFile("junit.xml", renderJunit(report));
 * ```
 */
export function renderJunit(
  report: RunReport,
  secrets: readonly string[] = [],
  hostWallMs: ReadonlyMap<string, number> = new Map(),
): string {
  const timestamp = report.run.startedAt.slice(0, 19);
  const suites: string[] = [];
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
  for (const [index, host] of report.hosts.entries()) {
    const results = report.results.filter((result) => result.host === host.id)
      .map((result) => redactResult(result, secrets));
    const counts: Counts = { tests: results.length, failures: 0, errors: 0, skipped: 0, time: 0 };
    const cases = results.map((result) => {
      const { xml, kind } = testCase(result);
      if (kind !== "passed") counts[kind]++;
      counts.time += result.durationMs;
      return xml;
    });
    // The tests an interrupt left without a result: skipped, never a failure of the host.
    for (const test of (report.run.interrupted ?? []).filter((interrupted) => interrupted.host === host.id)) {
      cases.push(interruptedCase(test, secrets));
      counts.tests++;
      counts.skipped++;
    }
    for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += counts[key];
    counts.time = suiteWallMs(report, host.id, counts.time, hostWallMs);
    const properties = [
      ["host.kind", host.kind],
      ["host.version", redact(host.version ?? "", secrets)],
      ["host.testOnly", String(host.testOnly ?? false)],
      ["suite.revision", report.run.suite],
      ["harness.version", report.run.harness],
      ["shard", report.run.shard],
      ...(report.run.incomplete ? [["run.incomplete", "true"]] : []),
    ].map(([name, value]) => `      ${openTag("property", { name, value })}/>`);
    suites.push(
      `  ${
        openTag("testsuite", {
          name: host.id,
          id: index,
          package: "conformance",
          ...attributes(counts),
          timestamp,
        })
      }>\n` +
        `    <properties>\n${properties.join("\n")}\n    </properties>\n` +
        cases.join("") +
        incompleteNote(report, host.id) +
        "  </testsuite>\n",
    );
  }
  // Hosts run side by side: the run's time is its wall time, not the sum of its hosts'.
  total.time = report.run.durationMs;
  const head = openTag("testsuites", { name: `conformance ${report.run.suite}`, ...attributes(total) });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}>\n${suites.join("")}</testsuites>\n`;
}

/**
 * A testsuite's `time`: the wall time from the host's first test starting to its last result, as the reporter
 * saw it (`hostWallMs`). Without it (a merged board) the sum of its tests' durations, at most the run's wall
 * time (tests of one host can run side by side).
 */
function suiteWallMs(
  report: RunReport,
  host: string,
  summedMs: number,
  hostWallMs: ReadonlyMap<string, number>,
): number {
  return hostWallMs.get(host) ?? Math.min(summedMs, report.run.durationMs);
}

function attributes(counts: Counts): Record<string, string | number> {
  const { tests, failures, errors, skipped, time } = counts;
  return { tests, failures, errors, skipped, time: seconds(time) };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testCase(result: TestResult): { xml: string; kind: "passed" | "failures" | "errors" | "skipped" } {
  const segments = result.test.split("/");
  const classname = [result.host, ...segments.slice(0, -1)].join(".");
  const open = `    ${
    openTag("testcase", { name: result.test, classname, time: seconds(result.durationMs) })
  }`;
  const body = [result.message, detailsText(result.details)].filter(Boolean).join("\n");
  const verdict = compare(result);
  let inner = "";
  let kind: "passed" | "failures" | "errors" | "skipped" = "passed";
  if (verdict === "stale") {
    kind = "failures";
    const message = `Passes, but the expectations list it as ${expectedLabel(result)}: remove the entry ` +
      "or run with --update-expectations";
    inner = element("failure", { message, type: "STALE_EXPECTATION" }, body);
  } else if (verdict === "unexpected") {
    const expected = result.expected === "PASS" && !result.expectedAny
      ? ""
      : ` (expected ${expectedLabel(result)})`;
    const message = `${result.status}${expected}: ${firstLine(result.message)}`;
    kind = result.status === "ERROR" ? "errors" : "failures";
    inner = element(result.status === "ERROR" ? "error" : "failure", { message, type: result.status }, body);
  } else if (result.status === "SKIP") {
    kind = "skipped";
    inner = element("skipped", { message: result.message }, "");
  } else if (result.status !== "PASS" && result.status !== "WARN" && result.status !== "INFO") {
    kind = "skipped";
    const message = `Known failure (expected ${expectedLabel(result)}): ${firstLine(result.message)}`;
    inner = element("skipped", { message, type: "EXPECTED_FAILURE" }, body);
  } else if (result.status === "WARN" || result.status === "INFO") {
    // Neither breaks a MUST, so the testcase passes; an INFO is no skip either (the test ran).
    inner = `      <system-out>${escapeXmlText(`${result.status}: ${body}`)}</system-out>\n`;
  }
  inner = testCaseProperties(result) + inner;
  if (result.flaky && !inner.includes("<system-out>")) {
    inner += `      <system-out>${escapeXmlText(flakyText(result))}</system-out>\n`;
  }
  return { xml: inner ? `${open}>\n${inner}    </testcase>\n` : `${open}/>\n`, kind };
}

/** A test the run's interrupt left without a result, as a skipped testcase saying so. */
function interruptedCase(test: InterruptedTest, secrets: readonly string[]): string {
  const segments = test.test.split("/");
  const classname = [test.host, ...segments.slice(0, -1)].join(".");
  const message = test.started
    ? "interrupted: the run was stopped while this test ran"
    : "interrupted: the run was stopped before this test began";
  const title = test.title === undefined
    ? ""
    : `      <properties>\n        ${
      openTag("property", { name: "title", value: redact(test.title, secrets) })
    }/>\n` +
      "      </properties>\n";
  return `    ${openTag("testcase", { name: test.test, classname, time: seconds(0) })}>\n${title}` +
    element("skipped", { message, type: "INTERRUPTED" }, "") + "    </testcase>\n";
}

/** A testsuite's `<system-err>` line when the run is incomplete: how many of the host's tests have no result. */
function incompleteNote(report: RunReport, host: string): string {
  if (!report.run.incomplete) return "";
  const interrupted = (report.run.interrupted ?? []).filter((test) => test.host === host);
  const running = interrupted.filter((test) => test.started).length;
  const text = interrupted.length === 0
    ? "INCOMPLETE: the run was interrupted; results may be missing"
    : `INCOMPLETE: the run was interrupted; ${interrupted.length} test(s) of this host have no result ` +
      `(${running} running when it stopped, ${
        interrupted.length - running
      } not begun), marked skipped "interrupted"`;
  return `    <system-err>${escapeXmlText(text)}</system-err>\n`;
}

/** The title and the artifacts (relative to `--out`) as testcase properties; the name stays the test id. */
function testCaseProperties(result: TestResult): string {
  const properties = [
    ...(result.title ? [["title", result.title]] : []),
    ...artifactsOf(result).map((path) => ["artifact", path]),
    ...retryProperties(result),
  ].map(([name, value]) => `        ${openTag("property", { name: name!, value: value! })}/>\n`);
  return properties.length === 0 ? "" : `      <properties>\n${properties.join("")}      </properties>\n`;
}

/** What a flaky result's attempts before the matching one did, one line each. */
function flakyText(result: TestResult): string {
  const attempts = Array.isArray(result.details.attemptResults)
    ? result.details.attemptResults as { status?: unknown; message?: unknown }[]
    : [];
  const earlier = attempts.slice(0, -1).map((a, i) =>
    `attempt ${i + 1}: ${String(a.status)} ${String(a.message ?? "")}`
  );
  return [`FLAKY: as expected only on attempt ${result.attempts}`, ...earlier].join("\n");
}

/** `attempts` and `flaky` for a result that ran more than once (`--retries`). */
function retryProperties(result: TestResult): [string, string][] {
  if (result.attempts === undefined) return [];
  return [
    ["attempts", String(result.attempts)],
    ...(result.flaky ? [["flaky", "true"] as [string, string]] : []),
  ];
}

function element(name: string, attributes: Record<string, string>, text: string): string {
  const open = `      ${openTag(name, attributes)}`;
  return text ? `${open}>${escapeXmlText(text)}</${name}>\n` : `${open}/>\n`;
}

/** The details once each (src/report/details.ts); the artifacts are properties already. */
function detailsText(details: Record<string, unknown>): string {
  const shown = shownDetails(details, ["artifacts"]);
  return Object.keys(shown).length === 0 ? "" : `details: ${JSON.stringify(shown, null, 2)}`;
}

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? "";
}

/** Options of {@linkcode JunitReporter}. */
export interface JunitReporterOptions {
  /** Folder for `junit.xml`; `null` prints it to `out`. */
  outDir: string | null;
  /** Standard output, used without `outDir`. */
  out: TextSink;
  /** Secret values to redact besides the built-in shapes. */
  secrets?: readonly string[];
}

/** Writes `junit.xml` at the end of the run. */
export class JunitReporter implements Reporter {
  /** The `--reporter` name. */
  readonly name = "junit" as const;
  readonly #options: JunitReporterOptions;

  /**
   * Makes the reporter.
   * @param options Where to write.
   */
  constructor(options: JunitReporterOptions) {
    this.#options = options;
  }

  /** When each host's first test started and its last result came, for the suites' wall time. */
  readonly #spans = new Map<string, { start: number; end: number }>();

  /** Notes when the host's first test started. */
  testStarted(host: string): void {
    const now = performance.now();
    if (!this.#spans.has(host)) this.#spans.set(host, { start: now, end: now });
  }
  /** Notes when the host's latest result came (the final report has every result). */
  result(result: TestResult): void {
    const now = performance.now();
    const span = this.#spans.get(result.host);
    if (span) span.end = now;
    else this.#spans.set(result.host, { start: now - result.durationMs, end: now });
  }

  /** Writes the file atomically, or prints it without an output folder. */
  async finish(report: RunReport): Promise<void> {
    const wall = new Map([...this.#spans].map(([host, span]) => [host, span.end - span.start]));
    const text = renderJunit(report, this.#options.secrets, wall);
    await writeOrPrint({ ...this.#options, file: JUNIT_FILE }, text);
  }
}

/** `--reporter junit`: `junit.xml` under `--out`, else the XML on standard output. */
export default {
  file: JUNIT_FILE,
  printsToStdout: true,
  create: (context) =>
    new JunitReporter({ outDir: context.outDir, out: context.stdout, secrets: context.secrets }),
} satisfies ReporterModule;
