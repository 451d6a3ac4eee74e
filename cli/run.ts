/**
 * `conformance run`: resolves hosts, plans and filters the tests, runs them, applies expectations and writes
 * the reports. The exit code says whether every result was as expected.
 *
 * @module
 */
import type { Config } from "../src/config.ts";
import { executePlan, type PlanItem } from "../src/engine.ts";
import { EXIT, UsageError } from "../src/errors.ts";
import { applicableExpectations, unexpectedResults } from "../src/expectations.ts";
import { formatShard } from "../src/shard.ts";
import type { RunSettings, SuiteDriver } from "../src/suite.ts";
import type { HostEntry } from "../src/host.ts";
import { booleanFlag, type CommandSpec, listFlag, oneOf, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import { attachArtifacts } from "./artifacts.ts";
import {
  readRerunTargets,
  reportFlagsNotGiven,
  rerunCommand,
  rerunFlags,
  rerunSummary,
  type RerunTargets,
} from "./rerun.ts";
import { parseSelection, planRun, type Selection, SELECTION_FLAGS } from "./plan.ts";
import { clearEarlierEvidence, clearedLine, prepareOutDir } from "./out_dir.ts";
import { type AlsoPermit, launchOf, programWords } from "./launch.ts";
import { binEnvName } from "../src/exec/find_executable.ts";
import { mayPermit, notPermittedError, NotPermittedRun, runPermitted } from "./permit.ts";
import type { CliIo } from "./io.ts";
import { prepareExpectationUpdate, writeExpectationUpdate } from "./update_expectations.ts";
import { loadRunExpectations } from "./run_expectations.ts";
import { createReporters, needsOutMessage, ReporterGroup, reporterModule } from "../src/report/create.ts";
import { REPORTER_NAMES, type ReporterName } from "../src/report/reporters.ts";
import { PrettyReporter } from "../src/report/pretty.ts";
import { join } from "node:path";
import { redact, secretsFromEnv } from "../src/report/redact.ts";
import { readableEnv } from "../src/exec/env.ts";
import { reaperEnv, startReaper } from "../src/exec/reaper.ts";
import { selfCommand } from "../src/exec/self.ts";
import { RUN_TAG } from "../src/exec/run_tag.ts";
import { holdForTest } from "../src/exec/test_hold.ts";
import {
  ABORT_KILL_DEADLINE_MS,
  killLiveGroups,
  killLiveGroupsAfter,
  terminateLiveGroups,
} from "../src/exec/process_group.ts";
import { REPORT_SCHEMA, type RunReport } from "../src/report/schema.ts";
import { summarize, type TestResult } from "../src/outcome.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../src/version.ts";

/** The grammar of `conformance run`. */
export const RUN_SPEC: CommandSpec = {
  name: "run",
  flags: {
    ...SELECTION_FLAGS,
    expectations: { type: "string", multiple: true },
    "update-expectations": { type: "boolean" },
    reporter: { type: "string", multiple: true },
    out: { type: "string" },
    "timeout-multiplier": { type: "string" },
    retries: { type: "string" },
    headful: { type: "boolean" },
    trace: { type: "string" },
    "profile-dir": { type: "string" },
    "rerun-failed": { type: "string" },
  },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** Flags whose value is a path, and their option keys (`--config` is part of the selection). */
const PATH_FLAGS = [
  ["out", "out"],
  ["profile-dir", "profileDir"],
  ["rerun-failed", "rerunFailed"],
] as const;

/** Everything `run` was asked to do, validated. */
export interface RunOptions extends Selection {
  expectations: string[];
  updateExpectations: boolean;
  reporters: ReporterName[];
  out?: string;
  timeoutMultiplier: number;
  /** `--retries N`: how many more times an unexpected result is run; 0 by default. */
  retries: number;
  headful: boolean;
  trace: "on" | "off" | "on-failure";
  profileDir?: string;
  /** `--rerun-failed REPORT.json`: rerun that report's unexpected results (hosts and tests from it). */
  rerunFailed?: string;
}

/** Validates `run` arguments into {@linkcode RunOptions}; every mistake is a {@linkcode UsageError}. */
export function parseRunOptions(args: readonly string[], env = Deno.env): RunOptions | "help" {
  const parsed = parseCommandLine(RUN_SPEC, args);
  if (parsed.help) return "help";
  const options: RunOptions = {
    ...parseSelection(parsed, env),
    expectations: listFlag(parsed, "expectations"),
    updateExpectations: booleanFlag(parsed, "update-expectations"),
    reporters: [],
    timeoutMultiplier: 1,
    retries: 0,
    headful: booleanFlag(parsed, "headful"),
    trace: oneOf("--trace", stringFlag(parsed, "trace") ?? "off", ["on", "off", "on-failure"] as const),
  };
  const reporters = listFlag(parsed, "reporter");
  options.reporters = (reporters.length ? reporters : ["pretty"]).map((name) =>
    oneOf("--reporter", name, REPORTER_NAMES)
  );
  options.reporters = [...new Set(options.reporters)];
  const multiplier = stringFlag(parsed, "timeout-multiplier");
  if (multiplier !== undefined) {
    const value = Number(multiplier);
    if (!Number.isFinite(value) || value <= 0 || value > 100) {
      throw new UsageError(
        `Invalid --timeout-multiplier "${multiplier}": give a number above 0, at most 100`,
      );
    }
    options.timeoutMultiplier = value;
  }
  const retries = stringFlag(parsed, "retries");
  if (retries !== undefined) {
    if (!/^\d+$/.test(retries) || Number(retries) > 10) {
      throw new UsageError(`Invalid --retries "${retries}": give a whole number from 0 to 10`);
    }
    options.retries = Number(retries);
  }
  for (const [flag, key] of PATH_FLAGS) {
    const value = stringFlag(parsed, flag);
    if (value !== undefined) {
      if (value.trim() === "") throw new UsageError(`Flag "--${flag}" needs a non-empty value`);
      options[key] = value;
    }
  }
  for (const name of options.out === undefined ? options.reporters : []) {
    const refused = needsOutMessage(name);
    if (refused !== null) throw new UsageError(refused);
  }
  if (options.rerunFailed !== undefined && options.hosts.length > 0) {
    throw new UsageError(
      "--rerun-failed takes its hosts from the report: drop --host (narrow with --grep, --tier or --suite)",
    );
  }
  if (options.updateExpectations && options.expectations.length !== 1) {
    throw new UsageError(
      "--update-expectations needs exactly one --expectations PATH to rewrite (a folder gets one file per host)",
    );
  }
  return options;
}

/** The `run` subcommand. */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseRunOptions(args);
  if (options === "help") {
    io.out(`${HELP.run}\n`);
    return EXIT.ok;
  }
  return await runConformance(options, io, args);
}

/** Runs the conformance suites as `options` say, reporting to `io`; returns the exit code. */
export async function runConformance(
  options: RunOptions,
  io: CliIo,
  argv: readonly string[] = [],
): Promise<number> {
  const rerun = options.rerunFailed === undefined ? undefined : await readRerunTargets(options.rerunFailed);
  if (rerun?.tests.size === 0) {
    io.err(
      `conformance: report "${rerun.source}" has no unexpected result and no interrupted test: nothing to rerun\n`,
    );
    return EXIT.ok;
  }
  if (rerun) io.err(`conformance: ${rerunSummary(rerun)}\n`);
  if (rerun) options = { ...withReportFlags(options, rerun, argv), hosts: [...rerun.tests.keys()] };
  let planned;
  try {
    planned = await planRun(options, rerun);
  } catch (error) {
    if (!(error instanceof NotPermittedRun)) throw error;
    // From source under `deno task conformance:permit`: the same run, the set widened by what its hosts need.
    if (mayPermit()) return await runPermitted(error.needs, ["run", ...argv], io);
    throw notPermittedError(error.needs, ["run", ...argv]);
  }
  const { plan, goldenPaths, known, config } = planned;
  // These refuse before any test runs: a file that rotted, an update that cannot apply, a report folder that
  // cannot be written.
  const expectations = await loadRunExpectations({
    paths: options.expectations,
    known,
    goldenPaths,
    updating: options.updateExpectations,
  });
  if (options.out !== undefined) {
    await prepareOutDir(options.out);
    const cleared = await clearEarlierEvidence(options.out);
    if (cleared !== null) io.err(clearedLine(options.out, cleared));
  }
  const update = options.updateExpectations
    ? await prepareExpectationUpdate(
      options.expectations[0]!,
      [...new Set(plan.map((i) => i.entry.id))],
      options,
    )
    : undefined;

  const literals = secretsFromEnv(readableEnv());
  const scrub = (text: string) => redact(text, literals);
  const startedAt = new Date();
  const run = {
    harness: HARNESS_VERSION,
    suite: SUITE_REVISION,
    startedAt: startedAt.toISOString(),
    os: Deno.build.os,
    deno: Deno.version.deno,
    shard: formatShard(options.shard),
    command: scrub(["conformance", ...argv].join(" ")),
    rerunFlags: rerunFlags(options).map(scrub),
  };
  // Loaded before the handlers below: a Ctrl-C while a module compiles ends the process at once (no host has
  // started), and one later is not kept waiting behind a quarter second of compiling (seconds under load).
  await Promise.all(plan.map(({ entry, suite }) => suite.preload?.(entry, { live: options.live })));
  const controller = new AbortController();
  // Listen before the version probes start host processes: a signal then aborts them instead of killing the
  // harness by default and leaving them behind.
  let signalExit: number | null = null;
  const onSignal = (code: number) => () => {
    if (signalExit !== null) {
      // A second signal is the user's "now": every host group goes at once, and the reports written so far stand.
      killLiveGroups();
      Deno.exit(signalExit);
    }
    signalExit = code;
    terminateLiveGroups();
    controller.abort();
    // Whatever host group the teardown has not ended by then goes at once, before a supervisor's SIGKILL.
    killLiveGroupsAfter(ABORT_KILL_DEADLINE_MS);
  };
  const listeners = [["SIGINT", onSignal(EXIT.interrupted)], ["SIGTERM", onSignal(EXIT.terminated)]] as const;
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  // A SIGKILL runs no handler: the reaper, a process of its own, ends the hosts' groups then.
  const reaper = startReaper({
    command: selfCommand("__reaper"),
    env: reaperEnv(readableEnv()),
    tag: RUN_TAG,
  });
  const settings: RunSettings = {
    live: options.live,
    mockModel: options.mockModel,
    goldenPaths,
    timeoutMultiplier: options.timeoutMultiplier,
    headful: options.headful,
    trace: options.trace,
    outDir: options.out ?? null,
    signal: controller.signal,
    ...(options.profileDir ? { profileDir: options.profileDir } : {}),
  };
  let hosts;
  let reporters: ReporterGroup;
  let total;
  let results;
  let interrupted;
  let reaperClosed: Promise<void> | undefined;
  try {
    hosts = await Promise.all(plan.map(async ({ entry, suite }) => ({
      id: entry.id,
      kind: entry.kind,
      version: await hostVersion(suite, entry, settings),
      ...(entry.testOnly ? { testOnly: true } : {}),
    })));
    reporters = new ReporterGroup(createReporters(writtenReporters(options), {
      outDir: options.out ?? null,
      stdout: { write: io.out },
      stderr: { write: io.err },
      isTTY: io.isTTY,
      color: io.color,
      secrets: literals,
      rerun: rerunLine(options, alsoPermitFor(config, plan)),
      stepSummary: readableEnv().GITHUB_STEP_SUMMARY,
    }));
    total = plan.reduce((n, item) => n + item.tests.length, 0);
    reporters.start({ run, hosts, total });

    ({ results, interrupted } = await executePlan({
      plan,
      settings,
      // An entry for other host versions than the one that runs does not apply.
      expectations: applicableExpectations(
        expectations,
        new Map(hosts.map((host) => [host.id, host.version])),
      ),
      redact: scrub,
      observer: reporters,
      retries: options.retries,
    }));
  } finally {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
    // An interrupted run keeps its reaper to the end: a driver's teardown may still be ending a browser or a
    // host while the reports are written, and a supervisor's SIGKILL then must find the reaper there. The
    // exit closes its pipe.
    if (signalExit === null) reaperClosed = reaper?.close();
  }
  if (signalExit !== null) {
    // A driver's teardown after the abort is bounded: whatever host or browser group it had no time to end
    // goes now, before the reports are written and the process exits.
    killLiveGroups();
  }

  if (options.out !== undefined) results = await attachArtifacts(results, options.out, startedAt);
  const report: RunReport = {
    schema: REPORT_SCHEMA,
    run: {
      ...run,
      durationMs: Math.round(Date.now() - startedAt.getTime()),
      ...(signalExit !== null || results.length < total ? { incomplete: true } : {}),
      ...(interrupted.length > 0 ? { interrupted } : {}),
    },
    hosts,
    results,
    summary: summarize(results),
  };
  // Every reporter finishes even when one fails; the first failure is thrown after.
  await reporters.finish(report);
  closeTerminal(options, report, io);

  if (signalExit !== null) {
    holdForTest("interrupted-reports-written");
    return signalExit;
  }
  await reaperClosed;
  if (update) {
    const versions = new Map(hosts.map((host) => [host.id, host.version]));
    const written = await writeExpectationUpdate(update, results, versions);
    for (const file of written) io.err(`conformance: wrote expectations ${file}\n`);
    if (written.length === 0) io.err(`conformance: expectations "${update.target}" already match this run\n`);
    return EXIT.ok;
  }
  return unexpectedResults(results).length > 0 ? EXIT.unexpected : EXIT.ok;
}

/**
 * The options of a `--rerun-failed` run from the command line `argv`: the flags that shaped the report's run
 * (`run.rerunFlags`), then `argv`'s, which win (a flag given again drops the report's value for it).
 * Options built without a command line are kept as they are.
 */
export function withReportFlags(
  options: RunOptions,
  rerun: RerunTargets,
  argv: readonly string[],
): RunOptions {
  const fromCommandLine = argv.some((arg) => arg === "--rerun-failed" || arg.startsWith("--rerun-failed="));
  if (!rerun.flags || rerun.flags.length === 0 || !fromCommandLine) return options;
  const kept = reportFlagsNotGiven(RUN_SPEC, rerun.flags, argv);
  const merged = parseRunOptions([...kept, ...argv]);
  return merged === "help" ? options : merged;
}

/**
 * The reporters a run writes: those asked for, and with `--out` always `json`, so that `report.json` is there
 * for `--rerun-failed`, `board` and the next run's clearing of its evidence.
 */
function writtenReporters(options: RunOptions): ReporterName[] {
  return options.out !== undefined && !options.reporters.includes("json")
    ? [...options.reporters, "json"]
    : options.reporters;
}

/**
 * The terminal's last word on a run: without `pretty` (only file reporters chosen) its summary line, and one
 * "wrote PATH" line per report file, on standard error (standard output may carry a report).
 */
function closeTerminal(options: RunOptions, report: RunReport, io: CliIo): void {
  if (!options.reporters.includes("pretty")) {
    const pretty = new PrettyReporter({ out: { write: io.err }, isTTY: false, color: io.color });
    io.err(`${pretty.summaryLine(report)}\n`);
  }
  if (options.out === undefined) return;
  for (const name of writtenReporters(options)) {
    const file = reporterModule(name).file;
    if (file !== undefined) io.err(`conformance: wrote ${join(options.out, file)}\n`);
  }
}

/** The command that reruns one result of this run, with the flags that shaped it. */
function rerunLine(options: RunOptions, also: AlsoPermit): (result: TestResult) => string {
  const program = programWords(launchOf(), also);
  const flags = rerunFlags(options);
  return (result) => rerunCommand(program, flags, result);
}

/**
 * What a `deno run` start must permit to rerun this run's hosts as printed: the config file's CLI hosts'
 * programs and variables, and the `CONFORMANCE_<HOST>_BIN` paths of the run's CLI hosts.
 */
function alsoPermitFor(config: Config, plan: readonly PlanItem[], env = Deno.env): AlsoPermit {
  const cli = config.hosts.flatMap((host) => host.kind === "cli" ? [host] : []);
  const overrides = plan.flatMap(({ entry }) => {
    const path = entry.kind === "cli" ? env.get(binEnvName(entry.id)) : undefined;
    return path ? [path] : [];
  });
  return {
    run: [...new Set([...cli.map((host) => host.binary), ...overrides])],
    env: [...new Set(cli.flatMap((host) => host.envAllow.filter((name) => !name.endsWith("*"))))],
  };
}

async function hostVersion(
  suite: SuiteDriver,
  entry: HostEntry,
  settings: RunSettings,
): Promise<string | null> {
  if (!suite.version) return null;
  try {
    return await suite.version(entry, settings);
  } catch {
    return null;
  }
}
