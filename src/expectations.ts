/**
 * Expectations: per-host lists of known failures, each with a reason, kept outside the tests. A listed test
 * that now passes is a stale expectation and fails the run; `--update-expectations` rewrites the file from a
 * run's results. Only what can surprise a run is listed: never PASS (the default) and never INFO (a MAY not
 * taken, which is expected whatever the file says).
 *
 * File format (YAML or JSON), one host per file by convention:
 *
 * ```yaml
 * schema: conformance-expectations/1
 * host: gemini
 * tests:
 *   cli/mock-model/http-500:
 *     status: FAIL
 *     reason: "gemini retries ten times, then exits 1 without a result event"
 * ```
 *
 * @module
 */
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "zod";
import { UsageError } from "./errors.ts";
import { isPermissionRefusal } from "./permissions.ts";
import { oneLine, yamlErrorDetail } from "./file_errors.ts";
import { compare, type Status, STATUSES, type TestResult } from "./outcome.ts";

/** The schema tag of an expectations file. */
export const EXPECTATIONS_SCHEMA = "conformance-expectations/1";

const Entry = z.object({
  status: z.enum(STATUSES)
    .refine((s) => s !== "PASS", "PASS is the default and need not be listed")
    .refine((s) => s !== "INFO", "INFO is never unexpected and need not be listed"),
  reason: z.string().trim().min(1, "every expectation needs a reason"),
}).strict();

const File = z.object({
  schema: z.literal(EXPECTATIONS_SCHEMA),
  host: z.string().min(1),
  tests: z.record(z.string().min(1), Entry).default({}),
}).strict();

/** One known failure. */
export interface Expectation {
  readonly status: Exclude<Status, "PASS" | "INFO">;
  readonly reason: string;
}

/** A host's expectations, with the file they came from (for updates and messages). */
export interface ExpectationSet {
  readonly host: string;
  readonly tests: ReadonlyMap<string, Expectation>;
  readonly source: string;
}

/** Parses and schema-checks one expectations file's text. Errors name the file and the offending field. */
export function parseExpectations(text: string, source: string): ExpectationSet {
  let data: unknown;
  try {
    // Warnings (e.g. an unknown !tag) would print as Node process warnings; errors carry what matters.
    data = parseYaml(text, { logLevel: "error" });
  } catch (error) {
    const detail = yamlErrorDetail(error, text);
    throw new UsageError(`Expectations file "${source}" is not valid YAML: ${detail}`);
  }
  const parsed = File.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join(".") : "(top level)";
    throw new UsageError(
      `Expectations file "${source}" is malformed at ${oneLine(where)}: ${oneLine(issue.message)}. ` +
        `Expected "schema: ${EXPECTATIONS_SCHEMA}", "host:" and "tests:" with status and reason per test`,
    );
  }
  const tests = new Map<string, Expectation>();
  for (const [test, entry] of Object.entries(parsed.data.tests)) {
    tests.set(test, { status: entry.status as Expectation["status"], reason: entry.reason });
  }
  return { host: parsed.data.host, tests, source };
}

/**
 * Loads expectations from files or folders (every `*.yaml`, `*.yml`, `*.json` inside). Two files for the
 * same host are merged; the same test listed twice is an error.
 */
export async function loadExpectations(paths: readonly string[]): Promise<Map<string, ExpectationSet>> {
  const byHost = new Map<string, ExpectationSet>();
  for (const path of paths) {
    for (const file of await expectationFiles(path)) {
      const set = parseExpectations(await Deno.readTextFile(file), file);
      const existing = byHost.get(set.host);
      if (!existing) {
        byHost.set(set.host, set);
        continue;
      }
      const merged = new Map(existing.tests);
      for (const [test, entry] of set.tests) {
        if (merged.has(test)) {
          throw new UsageError(
            `Expectation for host "${set.host}" test "${test}" is listed in both "${existing.source}" and "${file}": keep one`,
          );
        }
        merged.set(test, entry);
      }
      byHost.set(set.host, { host: set.host, tests: merged, source: existing.source });
    }
  }
  return byHost;
}

async function expectationFiles(path: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (isPermissionRefusal(error)) throw error;
    throw new UsageError(
      `Expectations path "${path}" does not exist: give a file or a folder of *.yaml files`,
    );
  }
  if (!info.isDirectory) return [path];
  const files: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (entry.isFile && /\.(ya?ml|json)$/.test(entry.name)) files.push(`${path}/${entry.name}`);
  }
  return files.sort();
}

/** The expected status of one (host, test) pair: the listed one, else PASS. */
export function expectedStatus(
  sets: ReadonlyMap<string, ExpectationSet>,
  host: string,
  test: string,
): { status: Status; reason?: string } {
  const entry = sets.get(host)?.tests.get(test);
  return entry ? { status: entry.status, reason: entry.reason } : { status: "PASS" };
}

/** Results that fail the run: unexpected results and stale expectations. */
export function unexpectedResults(results: readonly TestResult[]): TestResult[] {
  return results.filter((r) => compare(r) !== "expected");
}

/**
 * The expectations a run implies: every result that is not PASS, SKIP or INFO (none of which can surprise a
 * run), keeping the existing reason when the status is unchanged and using the result's message otherwise.
 * Tests that now pass drop out (they were stale); tests of this host that did not run this time keep their
 * entry.
 */
export function updatedExpectations(
  host: string,
  results: readonly TestResult[],
  previous: ExpectationSet | undefined,
): Map<string, Expectation> {
  const ran = new Set<string>();
  const next = new Map<string, Expectation>();
  for (const result of results) {
    if (result.host !== host) continue;
    ran.add(result.test);
    const status = result.status;
    if (status === "PASS" || status === "SKIP" || status === "INFO") continue;
    const old = previous?.tests.get(result.test);
    const reason = old && old.status === status ? old.reason : result.message || `observed ${status}`;
    next.set(result.test, { status, reason });
  }
  for (const [test, entry] of previous?.tests ?? []) {
    if (!ran.has(test)) next.set(test, entry);
  }
  return new Map([...next].sort(([a], [b]) => a.localeCompare(b)));
}

/** Renders an expectations file. */
export function formatExpectations(host: string, tests: ReadonlyMap<string, Expectation>): string {
  const body: Record<string, { status: string; reason: string }> = {};
  for (const [test, entry] of tests) body[test] = { status: entry.status, reason: entry.reason };
  return stringifyYaml({ schema: EXPECTATIONS_SCHEMA, host, tests: body }, { lineWidth: 0 });
}
