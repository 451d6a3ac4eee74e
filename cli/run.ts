/**
 * `conformance run`, step by step as docs/architecture.md tells it: a `--rerun-failed` report's hosts and tests,
 * the hosts and the plan, the expectations, the run under its interrupts, the reports, the exit code. The exit
 * code says whether every result was as expected.
 *
 * @module
 */
import { executePlan, type PlanItem } from "../src/engine.ts";
import { EXIT } from "../src/errors.ts";
import { applicableExpectations, type ExpectationSet, unexpectedResults } from "../src/expectations.ts";
import { formatShard } from "../src/shard.ts";
import type { RunSettings, SuiteDriver, UserGoldenPath } from "../src/suite.ts";
import type { HostEntry } from "../src/host.ts";
import type { Config } from "../src/config.ts";
import { HELP } from "./help.ts";
import { attachArtifacts } from "./artifacts.ts";
import { readRerunTargets, rerunFlags, rerunSummary } from "./rerun.ts";
import { planRun } from "./plan.ts";
import { clearEarlierEvidence, clearedLine, prepareOutDir } from "./out_dir.ts";
import { mayPermit, notPermittedError, NotPermittedRun, runPermitted } from "./permit.ts";
import type { CliIo } from "./io.ts";
import { prepareExpectationUpdate, writeExpectationUpdate } from "./update_expectations.ts";
import { loadRunExpectations } from "./run_expectations.ts";
import { parseRunOptions, type RunOptions, withReportFlags } from "./run_options.ts";
import { closeTerminal, runReporters } from "./run_reporters.ts";
import { redact, secretsFromEnv } from "../src/report/redact.ts";
import { runReport, type RunStart } from "../src/report/run_report.ts";
import type { ReportHost } from "../src/report/schema.ts";
import { readableEnv } from "../src/exec/env.ts";
import { trapInterrupts } from "../src/exec/interrupts.ts";
import { holdForTest } from "../src/exec/test_hold.ts";
import type { TestResult } from "../src/outcome.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../src/version.ts";

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
  // A `--rerun-failed` report names the hosts and tests, and the flags that shaped its run.
  const rerun = options.rerunFailed === undefined ? undefined : await readRerunTargets(options.rerunFailed);
  if (rerun?.tests.size === 0) {
    io.err(
      `conformance: report "${rerun.source}" has no unexpected result and no interrupted test: nothing to rerun\n`,
    );
    return EXIT.ok;
  }
  if (rerun) io.err(`conformance: ${rerunSummary(rerun)}\n`);
  if (rerun) options = { ...withReportFlags(options, rerun, argv), hosts: [...rerun.tests.keys()] };
  // The hosts and the plan.
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
  // The run and its reports.
  const ran = await runAndReport({ options, io, argv, plan, goldenPaths, config, expectations });
  if (ran.signalExit !== null) return ran.signalExit;
  // The exit code, or the expectations rewritten from the results.
  if (update) {
    const versions = new Map(ran.hosts.map((host) => [host.id, host.version]));
    const written = await writeExpectationUpdate(update, ran.results, versions);
    for (const file of written) io.err(`conformance: wrote expectations ${file}\n`);
    if (written.length === 0) io.err(`conformance: expectations "${update.target}" already match this run\n`);
    return EXIT.ok;
  }
  return unexpectedResults(ran.results).length > 0 ? EXIT.unexpected : EXIT.ok;
}

/** A planned run, ready to go. */
interface ReadyRun {
  readonly options: RunOptions;
  readonly io: CliIo;
  readonly argv: readonly string[];
  readonly plan: PlanItem[];
  readonly goldenPaths: readonly UserGoldenPath[];
  readonly config: Config;
  readonly expectations: ReadonlyMap<string, ExpectationSet>;
}

/** What a run ended with, its reports written. */
interface Ran {
  readonly hosts: ReportHost[];
  readonly results: TestResult[];
  /** The exit code of the signal that interrupted the run, or null. */
  readonly signalExit: number | null;
}

/**
 * Runs the plan under its interrupts (src/exec/interrupts.ts) and writes the reports, also when a signal
 * ended the run; the reaper has exited when it returns, unless a signal came.
 */
async function runAndReport(ready: ReadyRun): Promise<Ran> {
  const { options, io, plan } = ready;
  const secrets = secretsFromEnv(readableEnv());
  const scrub = (text: string) => redact(text, secrets);
  const startedAt = new Date();
  const start: RunStart = {
    harness: HARNESS_VERSION,
    suite: SUITE_REVISION,
    startedAt: startedAt.toISOString(),
    os: Deno.build.os,
    deno: Deno.version.deno,
    shard: formatShard(options.shard),
    command: scrub(["conformance", ...ready.argv].join(" ")),
    rerunFlags: rerunFlags(options).map(scrub),
  };
  // Loaded before the handlers below: a Ctrl-C while a module compiles ends the process at once (no host has
  // started), and one later is not kept waiting behind a quarter second of compiling (seconds under load).
  await Promise.all(plan.map(({ entry, suite }) => suite.preload?.(entry, { live: options.live })));
  // Listen before the version probes start host processes: a signal then aborts them instead of killing the
  // harness by default and leaving them behind.
  await using interrupts = trapInterrupts();
  const settings: RunSettings = {
    live: options.live,
    mockModel: options.mockModel,
    goldenPaths: ready.goldenPaths,
    timeoutMultiplier: options.timeoutMultiplier,
    headful: options.headful,
    trace: options.trace,
    outDir: options.out ?? null,
    signal: interrupts.signal,
    ...(options.profileDir ? { profileDir: options.profileDir } : {}),
  };
  let hosts;
  let reporters;
  let total;
  let executed;
  try {
    hosts = await Promise.all(plan.map(async ({ entry, suite }) => ({
      id: entry.id,
      kind: entry.kind,
      version: await hostVersion(suite, entry, settings),
      ...(entry.testOnly ? { testOnly: true } : {}),
    })));
    reporters = runReporters(options, { io, config: ready.config, plan, secrets });
    total = plan.reduce((n, item) => n + item.tests.length, 0);
    reporters.start({ run: start, hosts, total });
    executed = await executePlan({
      plan,
      settings,
      // An entry for other host versions than the one that runs does not apply.
      expectations: applicableExpectations(
        ready.expectations,
        new Map(hosts.map((host) => [host.id, host.version])),
      ),
      redact: scrub,
      observer: reporters,
      retries: options.retries,
    });
  } finally {
    interrupts.settle();
  }
  const signalExit = interrupts.exitCode;
  let results = executed.results;
  if (options.out !== undefined) results = await attachArtifacts(results, options.out, startedAt);
  const { interrupted } = executed;
  const report = runReport(start, startedAt, {
    hosts,
    results,
    total,
    interrupted,
    signalled: signalExit !== null,
  });
  // Every reporter finishes even when one fails; the first failure is thrown after.
  await reporters.finish(report);
  closeTerminal(options, report, io);
  if (signalExit !== null) holdForTest("interrupted-reports-written");
  return { hosts, results, signalExit };
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
