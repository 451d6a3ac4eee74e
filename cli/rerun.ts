/**
 * Replaying failures: the one-line command that reruns exactly one result (printed by the pretty reporter
 * under every unexpected result), and `--rerun-failed REPORT.json`, which reruns a report's unexpected results
 * and stale expectations.
 *
 * The command names the program the way this process was started (cli/launch.ts): the binary, `npx -y
 * deno@<version> task -q conformance -- …` (deno task runs in the repository root, so relative paths resolve
 * the same from anywhere inside it), or `deno run … main.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { UsageError } from "../src/errors.ts";
import { type CommandSpec, parseCommandLine } from "./args.ts";
import { JSON_REPORT_FILE } from "../src/report/json.ts";
import { compare, type TestResult } from "../src/outcome.ts";
import { parseReport } from "../src/report/schema.ts";
import { InputTooLargeError, MAX_REPORT_FILE_BYTES, readTextBounded } from "../src/read_bounded.ts";

/** What of a run's options shapes which tests exist and how they behave, so a rerun repeats it. */
export interface RerunShape {
  readonly suite: string;
  /** `--tier a,b`; empty for every tier. */
  readonly tiers: readonly string[];
  readonly live: boolean;
  readonly mockModel: boolean;
  readonly config?: string;
  readonly expectations: readonly string[];
  readonly timeoutMultiplier: number;
  readonly profileDir?: string;
  /** `--suite-server URL`: the other conformance server the MCP Apps hosts were pointed at. */
  readonly suiteServer?: string;
}

/**
 * Quotes one word for a POSIX shell: bare when it is made only of safe characters, else in single quotes
 * (inside which nothing is special but the quote itself, written `'\''`).
 *
 * @example
 * ```ts
 * import { shellQuote } from "./rerun.ts";
 * shellQuote("cli/scripted/ordering"); // "cli/scripted/ordering"
 * shellQuote("^a$"); // "'^a$'"
 * shellQuote("it's"); // "'it'\\''s'"
 * ```
 */
export function shellQuote(word: string): string {
  if (/^[\w./:=,@%+-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A `--grep` pattern that matches exactly `testId` and nothing else: anchored, every metacharacter escaped. */
export function exactGrep(testId: string): string {
  return `^${testId.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}$`;
}

/** The flags of `shape` a rerun repeats: only those that were given (or differ from their default). */
export function rerunFlags(shape: RerunShape): string[] {
  const flags: string[] = [];
  if (shape.config !== undefined) flags.push("--config", shape.config);
  for (const path of shape.expectations) flags.push("--expectations", path);
  if (shape.suite !== "all") flags.push("--suite", shape.suite);
  if (shape.tiers.length > 0) flags.push("--tier", shape.tiers.join(","));
  if (shape.live) flags.push("--live");
  if (shape.mockModel) flags.push("--mock-model");
  if (shape.timeoutMultiplier !== 1) flags.push("--timeout-multiplier", String(shape.timeoutMultiplier));
  if (shape.profileDir !== undefined) flags.push("--profile-dir", shape.profileDir);
  if (shape.suiteServer !== undefined) flags.push("--suite-server", shape.suiteServer);
  return flags;
}

/**
 * The shell command that reruns exactly one (host, test) with the run's shaping flags.
 *
 * @example
 * ```ts
 * import { rerunCommand } from "./rerun.ts";
 * rerunCommand(["conformance"], [], { host: "fake", test: "cli/scripted/ordering" });
 * // "conformance run --host fake --grep '^cli/scripted/ordering$'"
 * ```
 */
export function rerunCommand(
  program: readonly string[],
  flags: readonly string[],
  result: Pick<TestResult, "host" | "test">,
): string {
  const words = [...program, "run", "--host", result.host, "--grep", exactGrep(result.test), ...flags];
  return words.map(shellQuote).join(" ");
}

/**
 * The words of a report's `run.rerunFlags` that `spec` knows and `argv` does not give again (never `--host`
 * nor `--rerun-failed`): what a rerun repeats of the run that wrote the report, before its own command line.
 *
 * @example
 * ```ts ignore
 * reportFlagsNotGiven(RUN_SPEC, ["--config", "c.yaml", "--live"], ["--rerun-failed", "r", "--live"]);
 * // ["--config", "c.yaml"]
 * ```
 */
export function reportFlagsNotGiven(
  spec: CommandSpec,
  flags: readonly string[],
  argv: readonly string[],
): string[] {
  const parsed = parseCommandLine(spec, argv);
  const given = new Set(Object.keys(parsed.flags).filter((name) => parsed.flags[name] !== undefined));
  const kept: string[] = [];
  for (let index = 0; index < flags.length; index++) {
    const name = flags[index]!.replace(/^--/, "");
    const flag = spec.flags[name];
    const words = flag?.type === "string" ? [flags[index]!, flags[++index] ?? ""] : [flags[index]!];
    if (flag !== undefined && name !== "host" && name !== "rerun-failed" && !given.has(name)) {
      kept.push(...words);
    }
  }
  return kept;
}

/** What `--rerun-failed` reruns: per host, the test ids. */
export interface RerunTargets {
  /** The report file, for messages. */
  readonly source: string;
  /** Host ids in report order, each with its test ids. */
  readonly tests: ReadonlyMap<string, ReadonlySet<string>>;
  /** The command line of the run that wrote the report, when it recorded one. */
  readonly command?: string;
  /** The flags that shaped that run (`run.rerunFlags`), when the report records them. */
  readonly flags?: readonly string[];
  /** How many of the targets an interrupt left without a result (`run.interrupted`): rerun as well. */
  readonly interrupted: number;
  /** Whether the report says its run was cut short. */
  readonly incomplete: boolean;
}

/**
 * Reads what a report's rerun runs: its unexpected results and stale expectations, and the tests an interrupt
 * left without a result. `path` is the report.json, or the `--out` folder holding it. A missing, unreadable
 * or invalid file is a {@linkcode UsageError} (or the report reader's one-line `ReportError`), both exit 2.
 */
export async function readRerunTargets(path: string): Promise<RerunTargets> {
  const file = await reportIn(path);
  let text: string;
  try {
    text = await readTextBounded(file, {
      label: `--rerun-failed: report "${file}"`,
      hint: "give the report.json (or the --out folder) of an earlier run",
      maxBytes: MAX_REPORT_FILE_BYTES,
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof InputTooLargeError) throw error;
    const why = error instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
    throw new UsageError(
      `--rerun-failed: report "${file}" ${why}: give the report.json (or the --out folder) of an earlier run`,
    );
  }
  const report = parseReport(text, file);
  const tests = new Map<string, Set<string>>();
  const add = (host: string, test: string) => {
    let set = tests.get(host);
    if (!set) tests.set(host, set = new Set());
    set.add(test);
  };
  for (const result of report.results) if (compare(result) !== "expected") add(result.host, result.test);
  const interrupted = report.run.interrupted ?? [];
  for (const test of interrupted) add(test.host, test.test);
  return {
    source: file,
    tests,
    ...(report.run.command ? { command: report.run.command } : {}),
    ...(report.run.rerunFlags ? { flags: report.run.rerunFlags } : {}),
    interrupted: interrupted.length,
    incomplete: report.run.incomplete === true,
  };
}

/** The report file `path` names: itself, or the report.json in it when it is a folder. */
async function reportIn(path: string): Promise<string> {
  try {
    if ((await Deno.stat(path)).isDirectory) return join(path, JSON_REPORT_FILE);
  } catch {
    // Not there, or not to be looked at: the read says which, with the path as given.
  }
  return path;
}

/**
 * The line that starts a rerun: how many tests of which report, and how many of them an interrupt left
 * without a result.
 */
export function rerunSummary(targets: RerunTargets): string {
  const total = [...targets.tests.values()].reduce((sum, tests) => sum + tests.size, 0);
  const interrupted = targets.interrupted > 0
    ? `, ${targets.interrupted} of them interrupted before they had a result (the report is incomplete)`
    : "";
  return `rerunning ${total} test(s) of "${targets.source}"${interrupted}`;
}

/**
 * The plan items a rerun keeps (each host's tests cut down to the report's targets) and the targets that are
 * not in the plan (filtered out by --suite/--tier/--grep/--shard, or absent without the original flags).
 * None kept is a {@linkcode UsageError}.
 */
export function narrowToTargets<T extends { entry: { id: string }; tests: readonly { id: string }[] }>(
  plan: readonly T[],
  targets: RerunTargets,
): { plan: T[]; missing: { host: string; test: string }[] } {
  const kept = plan.flatMap((item) => {
    const wanted = targets.tests.get(item.entry.id);
    const tests = wanted ? item.tests.filter((test) => wanted.has(test.id)) : [];
    return tests.length > 0 ? [{ ...item, tests }] : [];
  });
  const planned = new Set(kept.flatMap((item) => item.tests.map((test) => `${item.entry.id}\0${test.id}`)));
  const missing = [...targets.tests].flatMap(([host, tests]) =>
    [...tests].filter((test) => !planned.has(`${host}\0${test}`)).map((test) => ({ host, test }))
  );
  if (missing.length > 0 && kept.length === 0) {
    const first = missing[0]!;
    throw new UsageError(
      `--rerun-failed: none of the ${missing.length} result(s) of "${targets.source}" is in this run ` +
        `(first: ${first.host} ${first.test}): give the flags of the run that wrote it again` +
        (targets.command ? ` (it ran "${targets.command}")` : "") + ", or drop the --suite/--tier/--grep",
    );
  }
  return { plan: kept, missing };
}

/** Refuses a report whose hosts are not known here (a config-file host without the same `--config`). */
export function checkRerunHosts(targets: RerunTargets, known: readonly string[]): void {
  const unknown = [...targets.tests.keys()].find((host) => !known.includes(host));
  if (unknown === undefined) return;
  throw new UsageError(
    `--rerun-failed: report "${targets.source}" names host "${unknown}", which is not known here: ` +
      "a config-file host needs the same --config again" +
      (targets.command ? ` (the report's run was "${targets.command}")` : ""),
  );
}
