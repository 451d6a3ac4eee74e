/**
 * The options of `conformance run`: its grammar, their validation, the merge of a `--rerun-failed` report's
 * flags with the command line's, and which reporters a run writes.
 *
 * @module
 */
import { UsageError } from "../src/errors.ts";
import { needsOutMessage } from "../src/report/create.ts";
import { REPORTER_NAMES, type ReporterName } from "../src/report/reporters.ts";
import { booleanFlag, type CommandSpec, listFlag, oneOf, parseCommandLine, stringFlag } from "./args.ts";
import { parseSelection, type Selection, SELECTION_FLAGS } from "./plan.ts";
import { reportFlagsNotGiven, type RerunTargets } from "./rerun.ts";
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
export function writtenReporters(options: RunOptions): ReporterName[] {
  return options.out !== undefined && !options.reporters.includes("json")
    ? [...options.reporters, "json"]
    : options.reporters;
}
