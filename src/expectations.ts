/**
 * Expectations: per-host lists of known failures, each with a reason, kept outside the tests. A listed test
 * that now passes is a stale expectation and fails the run; `--update-expectations` rewrites the file from a
 * run's results (see `expectations_update.ts`). Only what can surprise a run is listed: never PASS alone (the
 * default) and never INFO (a MAY not taken, which is expected whatever the file says).
 *
 * File format (YAML or JSON), one host per file by convention:
 *
 * ```yaml
 * schema: conformance-expectations/1
 * host: gemini
 * tests:
 *   cli/mock-model/fault-http-500:
 *     status: FAIL
 *     reason: "gemini retries ten times, then exits 1 without a result event"
 *   cli/behavior/streaming:
 *     status: [PASS, TIMEOUT]        # a known flaky host: either is as expected
 *     reason: "stalls now and then on a slow first token"
 *   cli/scripted/ordering:
 *     status: WARN
 *     versions: ">=0.20, <0.25"      # applies only to these host versions
 *     reason: "fixed in 0.25"
 * ```
 *
 * Hosts and test ids are checked against what the harness knows (see {@linkcode checkExpectations}).
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { UsageError, UsageProblems } from "./errors.ts";
import { isPermissionRefusal } from "./permissions.ts";
import { oneLine, yamlErrorDetail } from "./file_errors.ts";
import { InputTooLargeError, readTextBounded } from "./read_bounded.ts";
import { compare, type Status, STATUSES, type TestResult } from "./outcome.ts";
import { didYouMean } from "./suggest.ts";
import { parseVersionRange, versionOf } from "./version_range.ts";

/** The schema tag of an expectations file. */
export const EXPECTATIONS_SCHEMA = "conformance-expectations/1";

const statusList = z.union([z.enum(STATUSES), z.array(z.enum(STATUSES)).min(1)])
  .transform((value) => Array.isArray(value) ? value : [value])
  .refine((list) => !list.includes("INFO"), "INFO is never unexpected and need not be listed")
  .refine(
    (list) => list.some((status) => status !== "PASS"),
    "PASS is the default and need not be listed (list it only beside another status, for a flaky test)",
  )
  .refine((list) => new Set(list).size === list.length, "a status is listed twice");

const versionCondition = z.string().superRefine((text, context) => {
  try {
    parseVersionRange(text);
  } catch (error) {
    context.addIssue({ code: "custom", message: (error as Error).message });
  }
});

/** The schema of one entry: one status or several, a reason, and optionally the host versions it holds for. */
export const ExpectationEntrySchema = z.object({
  status: statusList.describe(
    "The expected status, or several (a known flaky test: any is as expected); never INFO, never PASS alone",
  ),
  reason: z.string().trim().min(1, "every expectation needs a reason").describe("Why the host does this"),
  versions: versionCondition.optional().describe(
    'The host versions the entry holds for: comparators <, <=, >, >=, = and a version, joined by commas (">=0.20, <0.25")',
  ),
}).strict();

/** The schema of an expectations file (`conformance-expectations/1`). */
export const ExpectationsFileSchema = z.object({
  schema: z.literal(EXPECTATIONS_SCHEMA),
  host: z.string().min(1),
  // `tests:` with nothing under it (every entry removed) is an empty list.
  tests: z.record(z.string().min(1), ExpectationEntrySchema).nullish().transform((tests) => tests ?? {}),
}).strict();

/** A status an expectation can list. */
export type ListedStatus = Exclude<Status, "INFO">;

/** One known failure (or known flakiness). */
export interface Expectation {
  /** The first listed status. */
  readonly status: ListedStatus;
  /** Every listed status, in the file's order; any of them is as expected. */
  readonly statuses: readonly ListedStatus[];
  readonly reason: string;
  /** The host versions the entry holds for (`"<0.25"`); absent when it holds for every version. */
  readonly versions?: string;
  /** Set when the entry applied although the host's version is unknown. */
  readonly note?: string;
}

/** A host's expectations, with the files they came from (for updates and messages). */
export interface ExpectationSet {
  readonly host: string;
  readonly tests: ReadonlyMap<string, Expectation>;
  /** The first file that listed this host. */
  readonly source: string;
  /** The file each test's entry came from. */
  readonly sources?: ReadonlyMap<string, string>;
}

/**
 * Parses and schema-checks one expectations file's text. The error names the file and the first offending
 * field, on one line; {@linkcode loadExpectations} reports every problem.
 */
export function parseExpectations(text: string, source: string): ExpectationSet {
  const parsed = readExpectations(text, source);
  if ("problems" in parsed) throw new UsageError(parsed.problems[0]!);
  return parsed;
}

function readExpectations(text: string, source: string): ExpectationSet | { problems: string[] } {
  let data: unknown;
  try {
    // Warnings (e.g. an unknown !tag) would print as Node process warnings; errors carry what matters.
    data = parseYaml(text, { logLevel: "error" });
  } catch (error) {
    const detail = yamlErrorDetail(error, text);
    return { problems: [`Expectations file "${source}" is not valid YAML: ${detail}`] };
  }
  const parsed = ExpectationsFileSchema.safeParse(data);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const where = issue.path.length ? issue.path.join(".") : "(top level)";
        return `Expectations file "${source}" is malformed at ${oneLine(where)}: ${
          oneLine(issue.message)
        }. ` +
          `Expected "schema: ${EXPECTATIONS_SCHEMA}", "host:" and "tests:" with status and reason per test`;
      }),
    };
  }
  const tests = new Map<string, Expectation>();
  const sources = new Map<string, string>();
  for (const [test, entry] of Object.entries(parsed.data.tests)) {
    const statuses = entry.status as ListedStatus[];
    tests.set(test, {
      status: statuses[0]!,
      statuses,
      reason: entry.reason,
      ...(entry.versions !== undefined ? { versions: entry.versions } : {}),
    });
    sources.set(test, source);
  }
  return { host: parsed.data.host, tests, source, sources };
}

/** What an expectations file may name: each known host with every test id it has (in any tier or mode). */
export type KnownTests = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Loads expectations from files or folders (every `*.yaml`, `*.yml`, `*.json` inside). Two files for the
 * same host are merged; the same test listed twice is an error. With `known`, hosts and test ids are checked
 * too ({@linkcode checkExpectations}). Every problem of every file is reported at once, one line each.
 */
export async function loadExpectations(
  paths: readonly string[],
  known?: KnownTests,
): Promise<Map<string, ExpectationSet>> {
  const byHost = new Map<string, ExpectationSet>();
  const problems: string[] = [];
  for (const path of paths) {
    for (const file of await expectationFiles(path)) {
      const set = readExpectations(await readExpectationsText(file), file);
      if ("problems" in set) {
        problems.push(...set.problems);
        continue;
      }
      const existing = byHost.get(set.host);
      if (!existing) {
        byHost.set(set.host, set);
        continue;
      }
      const merged = new Map(existing.tests);
      const sources = new Map(existing.sources);
      for (const [test, entry] of set.tests) {
        if (merged.has(test)) {
          problems.push(
            `Expectation for host "${set.host}" test "${test}" is listed in both "${
              sources.get(test) ?? existing.source
            }" and "${file}": keep one`,
          );
          continue;
        }
        merged.set(test, entry);
        sources.set(test, file);
      }
      byHost.set(set.host, { host: set.host, tests: merged, source: existing.source, sources });
    }
  }
  if (known) problems.push(...checkExpectations(byHost, known));
  if (problems.length > 0) throw new UsageProblems(problems);
  return byHost;
}

/**
 * The problems of expectation sets against what the harness knows: a host it does not know, a test id the
 * host does not have. Each names the file and the entry, with a did-you-mean.
 *
 * @example
 * ```ts
 * import { checkExpectations, parseExpectations } from "./expectations.ts";
 * const set = parseExpectations("schema: conformance-expectations/1\nhost: gemeni\n", "g.yaml");
 * checkExpectations(new Map([["gemeni", set]]), new Map([["gemini", new Set<string>()]]));
 * // ['Expectations file "g.yaml": unknown host "gemeni": did you mean "gemini"? Run "conformance list hosts"']
 * ```
 */
export function checkExpectations(sets: ReadonlyMap<string, ExpectationSet>, known: KnownTests): string[] {
  const problems: string[] = [];
  for (const set of sets.values()) {
    const tests = known.get(set.host);
    if (tests === undefined) {
      const files = new Set([set.source, ...(set.sources?.values() ?? [])]);
      for (const file of files) {
        problems.push(
          `Expectations file "${file}": unknown host "${oneLine(set.host)}"${
            didYouMean(set.host, known.keys(), 'Run "conformance list hosts"')
          }`,
        );
      }
      continue;
    }
    for (const test of set.tests.keys()) {
      if (tests.has(test)) continue;
      problems.push(
        `Expectations file "${set.sources?.get(test) ?? set.source}": entry "${
          oneLine(test)
        }" is not a test of ` +
          `host "${set.host}"${
            didYouMean(
              test,
              tests,
              `Run "conformance list tests --host ${set.host}" (with --config if it is yours)`,
            )
          }`,
      );
    }
  }
  return problems;
}

/**
 * The text of one expectations file, at most 16 MiB of it (src/read_bounded.ts).
 *
 * @throws {UsageError} The file is larger, or cannot be read.
 */
export async function readExpectationsText(file: string): Promise<string> {
  try {
    return await readTextBounded(file, {
      label: `Expectations file "${file}"`,
      hint: "check the --expectations path",
    });
  } catch (error) {
    if (isPermissionRefusal(error) || error instanceof InputTooLargeError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new UsageError(`Expectations file "${file}" cannot be read (${oneLine(why)}): check the path`);
  }
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

/**
 * Whether an entry holds for a host whose version check printed `hostVersion`: always without `versions`;
 * with them, when the version is in range, or when the version is unknown (`null`, or no number in it), in
 * which case the entry applies and says so in `note`.
 */
export function applies(
  entry: Expectation,
  hostVersion: string | null,
): { applies: boolean; note?: string } {
  if (entry.versions === undefined) return { applies: true };
  const version = versionOf(hostVersion);
  if (version === null) {
    return {
      applies: true,
      note: `the host's version is unknown, so the entry for versions "${entry.versions}" applied`,
    };
  }
  return { applies: parseVersionRange(entry.versions).matches(version) };
}

/**
 * The expectations that hold for this run's hosts: entries whose `versions` do not match the host's version
 * are left out (a newer host with the bug fixed is not a stale expectation).
 */
export function applicableExpectations(
  sets: ReadonlyMap<string, ExpectationSet>,
  versions: ReadonlyMap<string, string | null>,
): Map<string, ExpectationSet> {
  const out = new Map<string, ExpectationSet>();
  for (const [host, set] of sets) {
    const tests = new Map<string, Expectation>();
    for (const [test, entry] of set.tests) {
      const verdict = applies(entry, versions.get(host) ?? null);
      if (verdict.applies) tests.set(test, verdict.note ? { ...entry, note: verdict.note } : entry);
    }
    out.set(host, { ...set, tests });
  }
  return out;
}

/** The expected status of one (host, test) pair: the listed one(s), else PASS. */
export function expectedStatus(
  sets: ReadonlyMap<string, ExpectationSet>,
  host: string,
  test: string,
): { status: Status; statuses?: readonly Status[]; reason?: string; note?: string } {
  const entry = sets.get(host)?.tests.get(test);
  if (!entry) return { status: "PASS" };
  return {
    status: entry.status,
    ...(entry.statuses.length > 1 ? { statuses: entry.statuses } : {}),
    reason: entry.reason,
    ...(entry.note !== undefined ? { note: entry.note } : {}),
  };
}

/** Results that fail the run: unexpected results and stale expectations. */
export function unexpectedResults(results: readonly TestResult[]): TestResult[] {
  return results.filter((r) => compare(r) !== "expected");
}
