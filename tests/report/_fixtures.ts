/** Report builders shared by the report tests. */
import { type Status, summarize, type TestResult } from "../../src/outcome.ts";
import { REPORT_SCHEMA, type ReportHost, type RunReport } from "../../src/report/schema.ts";

/** A result with defaults: PASS expected, empty message, 10 ms. */
export function result(
  host: string,
  test: string,
  status: Status,
  extra: Partial<Omit<TestResult, "host" | "test" | "status">> = {},
): TestResult {
  return { host, test, status, expected: "PASS", message: "", durationMs: 10, details: {}, ...extra };
}

/** A valid report around the given results; hosts default to one cli host per host id seen. */
export function report(
  results: TestResult[],
  options: { hosts?: ReportHost[]; suite?: string; shard?: string; startedAt?: string; durationMs?: number } =
    {},
): RunReport {
  const hosts = options.hosts ??
    [...new Set(results.map((r) => r.host))].map((id): ReportHost => ({ id, kind: "cli", version: null }));
  return {
    schema: REPORT_SCHEMA,
    run: {
      harness: "0.1.0",
      suite: options.suite ?? "2026.11.30",
      startedAt: options.startedAt ?? "2026-11-30T08:00:00.000Z",
      durationMs: options.durationMs ?? 1234,
      os: "linux",
      deno: "2.9.6",
      shard: options.shard ?? "1/1",
    },
    hosts,
    results,
    summary: summarize(results),
  };
}

/** A report with every status, two real hosts, one test-only host, a known failure and a stale one. */
export function mixedReport(): RunReport {
  const results = [
    result("claude-code", "cli/behavior/plain", "PASS"),
    result("claude-code", "cli/scripted/ordering", "FAIL", { message: "tool_result before tool_call" }),
    result("claude-code", "cli/scripted/retry", "WARN", { message: "no retry event" }),
    result("claude-code", "cli/scripted/optional", "INFO", {
      message: "the optional behaviour is not offered",
    }),
    result("claude-code", "cli/capabilities/images-positive", "SKIP", { message: "images unsupported" }),
    result("codex", "cli/behavior/plain", "TIMEOUT", { message: "no terminal event in 60s" }),
    result("codex", "cli/scripted/ordering", "ERROR", { message: "harness crashed" }),
    result("codex", "cli/scripted/retry", "FAIL", { expected: "FAIL", message: "known: retries silently" }),
    result("codex", "cli/capabilities/images-positive", "SKIP", { message: "binary absent" }),
    result("fake", "cli/behavior/plain", "PASS", { expected: "FAIL" }),
    result("fake", "cli/scripted/only-fake", "SKIP", { message: "images unsupported" }),
  ];
  return report(results, {
    hosts: [
      { id: "claude-code", kind: "cli", version: "1.2.3" },
      { id: "codex", kind: "cli", version: null },
      { id: "fake", kind: "cli", version: "0.1.0", testOnly: true },
    ],
  });
}

/** A text sink collecting everything written. */
export function collector(): { write(text: string): void; text: () => string } {
  const chunks: string[] = [];
  return { write: (text) => void chunks.push(text), text: () => chunks.join("") };
}

/** A temporary folder, removed on dispose. */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "conformance-report-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
