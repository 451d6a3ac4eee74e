/**
 * The `ctrf` reporter: the run as a Common Test Report Format document (https://ctrf.io, `specVersion`
 * 0.0.0), `ctrf-report.json` under `--out` or printed without it, for the tools that read CTRF (such as the
 * `github-test-reporter` action, docs/ci.md). Statuses map the way the run's exit code judges them, as JUnit's
 * do, so a CTRF tool and the exit code agree:
 *
 * - a result the run fails on (unexpected, or a stale expectation) → `failed`;
 * - a known finding (a failure the host's expectations list) → `other`: it ran and failed, as listed;
 * - SKIP, and a test an interrupt left without a result → `skipped`;
 * - PASS, and WARN or INFO as expected → `passed`.
 *
 * `rawStatus` keeps the harness's status; `extra` holds what was expected, the standing and why.
 *
 * @module
 */
import { basename, extname } from "node:path";
import { expectedLabel, type InterruptedTest, type TestResult } from "../outcome.ts";
import { artifactsOf } from "./artifacts.ts";
import { jsonText } from "./json.ts";
import { redact, redactResult } from "./redact.ts";
import { type ReporterModule, writeOrPrint } from "./reporter.ts";
import type { RunReport } from "./schema.ts";
import { expectationReason, judge, verdictCounts } from "./verdict.ts";

/** The file the ctrf reporter writes in the output folder. */
export const CTRF_FILE = "ctrf-report.json";

/** The CTRF specification version the document follows. */
export const CTRF_SPEC_VERSION = "0.0.0";

/** A CTRF test status. */
export type CtrfStatus = "passed" | "failed" | "skipped" | "pending" | "other";

/** One test of a CTRF document, as this reporter fills it. */
export interface CtrfTest {
  /** `host: test id`, unique within the run. */
  name: string;
  /** The same, as the stable id of the (host, test) pair. */
  testId: string;
  /** See the module doc. */
  status: CtrfStatus;
  /** The harness's status (`PASS`, `FAIL`, …); absent for an interrupted test. */
  rawStatus?: string;
  /** Whole milliseconds. */
  duration: number;
  /** The host, then the test id's folders. */
  suite: string[];
  /** Why, for everything but a plain PASS. */
  message?: string;
  /** Set when the result matched its expectation only on a retry. */
  flaky?: boolean;
  /** Runs after the first (`--retries`). */
  retries?: number;
  /** The result's artifacts, paths relative to the report folder. */
  attachments?: { name: string; contentType: string; path: string }[];
  /** What was expected, the standing and why, the expectation's reason, the test's title. */
  extra: Record<string, unknown>;
}

/** The CTRF document this reporter writes. */
export interface CtrfReport {
  /** Always `CTRF`. */
  reportFormat: "CTRF";
  /** {@linkcode CTRF_SPEC_VERSION}. */
  specVersion: string;
  /** When the run ended. */
  timestamp: string;
  /** `conformance`. */
  generatedBy: string;
  /** The run. */
  results: {
    tool: { name: string; version: string; extra: Record<string, unknown> };
    summary: {
      tests: number;
      passed: number;
      failed: number;
      skipped: number;
      pending: number;
      other: number;
      flaky: number;
      suites: number;
      start: number;
      stop: number;
      duration: number;
      extra: Record<string, unknown>;
    };
    tests: CtrfTest[];
    environment: { reportName: string; osPlatform: string; shardId: string; extra: Record<string, unknown> };
    extra: Record<string, unknown>;
  };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".zip": "application/zip",
  ".json": "application/json",
  ".jsonl": "application/jsonl",
  ".txt": "text/plain",
  ".log": "text/plain",
  ".html": "text/html",
};

/**
 * The run as a CTRF document, secrets redacted.
 *
 * @example
 * ```ts
 * import { ctrfReport } from "./ctrf.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * console.log(ctrfReport(report).results.summary.failed);
 * ```
 */
export function ctrfReport(report: RunReport, secrets: readonly string[] = []): CtrfReport {
  const tests = [
    ...report.results.map((result) => resultTest(redactResult(result, secrets), secrets)),
    ...(report.run.interrupted ?? []).map((test) => interruptedTest(test, secrets)),
  ];
  const count = (status: CtrfStatus) => tests.filter((test) => test.status === status).length;
  const start = Date.parse(report.run.startedAt);
  const stop = start + Math.round(report.run.durationMs);
  const incomplete = report.run.incomplete === true;
  return {
    reportFormat: "CTRF",
    specVersion: CTRF_SPEC_VERSION,
    timestamp: new Date(stop).toISOString(),
    generatedBy: "conformance",
    results: {
      tool: { name: "conformance", version: report.run.harness, extra: { suite: report.run.suite } },
      summary: {
        tests: tests.length,
        passed: count("passed"),
        failed: count("failed"),
        skipped: count("skipped"),
        pending: count("pending"),
        other: count("other"),
        flaky: tests.filter((test) => test.flaky).length,
        suites: report.hosts.length,
        start,
        stop,
        duration: stop - start,
        extra: { ...verdictCounts(report.results, incomplete), incomplete },
      },
      tests,
      environment: {
        reportName: "conformance",
        osPlatform: report.run.os,
        shardId: report.run.shard,
        extra: { deno: report.run.deno },
      },
      extra: {
        hosts: report.hosts.map((host) => ({
          ...host,
          version: host.version === null ? null : redact(host.version, secrets),
        })),
      },
    },
  };
}

function resultTest(result: TestResult, secrets: readonly string[]): CtrfTest {
  const judgement = judge(result);
  const reason = expectationReason(result);
  const artifacts = artifactsOf(result);
  return {
    ...identity(result),
    status: statusOf(result, judgement.verdict),
    rawStatus: result.status,
    duration: Math.max(0, Math.round(result.durationMs)),
    suite: suiteOf(result),
    ...(result.message === "" ? {} : { message: result.message }),
    ...(result.flaky ? { flaky: true } : {}),
    ...(result.attempts !== undefined && result.attempts > 1 ? { retries: result.attempts - 1 } : {}),
    ...(artifacts.length === 0 ? {} : {
      attachments: artifacts.map((path) => ({
        name: basename(path),
        contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
        path,
      })),
    }),
    extra: {
      ...(result.title === undefined ? {} : { title: redact(result.title, secrets) }),
      expected: expectedLabel(result),
      verdict: judgement.verdict,
      why: judgement.why,
      ...(reason === undefined ? {} : { expectationReason: reason }),
    },
  };
}

function statusOf(result: TestResult, verdict: ReturnType<typeof judge>["verdict"]): CtrfStatus {
  if (verdict === "unexpected" || verdict === "stale") return "failed";
  if (result.status === "SKIP") return "skipped";
  return verdict === "known" ? "other" : "passed";
}

function interruptedTest(test: InterruptedTest, secrets: readonly string[]): CtrfTest {
  return {
    ...identity(test),
    status: "skipped",
    duration: 0,
    suite: suiteOf(test),
    message: test.started
      ? "interrupted: the run was stopped while this test ran"
      : "interrupted: the run was stopped before this test began",
    extra: {
      ...(test.title === undefined ? {} : { title: redact(test.title, secrets) }),
      interrupted: true,
    },
  };
}

function identity(test: { host: string; test: string }): { name: string; testId: string } {
  const name = `${test.host}: ${test.test}`;
  return { name, testId: name };
}

function suiteOf(test: { host: string; test: string }): string[] {
  return [test.host, ...test.test.split("/").slice(0, -1)];
}

/** `--reporter ctrf`: `ctrf-report.json` under `--out`, else the document on standard output. */
export default {
  file: CTRF_FILE,
  printsToStdout: true,
  create: (context) => ({
    name: "ctrf",
    finish: (report) =>
      writeOrPrint(
        { outDir: context.outDir, file: CTRF_FILE, out: context.stdout },
        jsonText(ctrfReport(report, context.secrets)),
      ),
  }),
} satisfies ReporterModule;
