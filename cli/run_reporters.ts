/**
 * A run's reporters: those the run writes, made with what they print (the secrets to redact, each result's
 * rerun command), and the terminal's last word once the report is written.
 *
 * @module
 */
import type { Config } from "../src/config.ts";
import type { PlanItem } from "../src/engine.ts";
import { readableEnv } from "../src/exec/env.ts";
import { binEnvName } from "../src/exec/find_executable.ts";
import type { TestResult } from "../src/outcome.ts";
import { createReporters, ReporterGroup, reporterModule } from "../src/report/create.ts";
import { PrettyReporter } from "../src/report/pretty.ts";
import type { RunReport } from "../src/report/schema.ts";
import { join } from "node:path";
import type { CliIo } from "./io.ts";
import { type AlsoPermit, launchOf, programWords } from "./launch.ts";
import { rerunCommand, rerunFlags } from "./rerun.ts";
import { type RunOptions, writtenReporters } from "./run_options.ts";

/** What a run's reporters are made with beside its options. */
export interface RunReportersContext {
  readonly io: CliIo;
  /** The run's config: its CLI hosts' programs and variables go into the printed rerun commands. */
  readonly config: Config;
  readonly plan: readonly PlanItem[];
  /** Exact secret values to redact. */
  readonly secrets: readonly string[];
}

/** The reporters `options` ask for (with `--out` always `json`), as one group the engine reports to. */
export function runReporters(options: RunOptions, context: RunReportersContext): ReporterGroup {
  const { io, config, plan, secrets } = context;
  return new ReporterGroup(createReporters(writtenReporters(options), {
    outDir: options.out ?? null,
    stdout: { write: io.out },
    stderr: { write: io.err },
    isTTY: io.isTTY,
    color: io.color,
    secrets,
    rerun: rerunLine(options, alsoPermitFor(config, plan)),
    stepSummary: readableEnv().GITHUB_STEP_SUMMARY,
  }));
}

/**
 * The terminal's last word on a run: without `pretty` (only file reporters chosen) its summary line, and one
 * "wrote PATH" line per report file, on standard error (standard output may carry a report).
 */
export function closeTerminal(options: RunOptions, report: RunReport, io: CliIo): void {
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
