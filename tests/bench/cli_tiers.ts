/**
 * The real-CLI tiers as a user runs them, `conformance run --mock-model` over every installed real CLI of the
 * registry (`CLI_HOSTS`, so a CLI added there is measured with no change here), run by `deno task bench`:
 *
 * 1. the mock-model streaming tier (`--grep '^cli/mock-model/streaming$'`), all at once: wall time against
 *    the 60 s target;
 * 2. the capability-behaviour tier (`--grep '^cli/capability-behavior/'`) against the streaming tier measured
 *    in the same bench run: the ratio of their wall times, target ≤ 3×, once over the eight agent CLIs the
 *    product is built for ({@linkcode CORE_CLIS}, the target's own scope) and once over every installed CLI.
 *    The two tiers of the same CLIs alternate, streaming first and last ({@linkcode ROUNDS} behaviour runs),
 *    and the ratio is of their mean walls, so a neighbour's burst on the shared machine, or the machine
 *    slowing over the minutes, weighs on both sides; every run is listed in the note. While that tier lists
 *    no test, the row says so and gives no figure.
 *
 * Each run is one `conformance` process from source in its own process group (tests/robustness/_harness.ts),
 * with the hosts' shims on PATH as `deno task conformance` puts them, writing report.json to a temporary folder
 * the verdicts are read from. Alone: `deno task bench --only cli-run`.
 *
 * @module
 */
import { join } from "node:path";
import { CLI_HOSTS } from "../../hosts/registry.ts";
import type { RealHost } from "../../hosts/cli/_real_host.ts";
import { hostsCacheDir } from "../../hosts/installed.ts";
import { compare, type TestResult } from "../../src/outcome.ts";
import { runHarness } from "../robustness/_harness.ts";

/** One row of the bench table (the shape of bench.ts's `BenchRow`). */
export interface CliTierRow {
  readonly figure: string;
  readonly value: string;
  readonly target: string;
  readonly met: boolean | null;
  readonly note: string;
}

/** The streaming case of the mock-model tier, exactly. */
export const STREAMING_GREP = "^cli/mock-model/streaming$";
/** Every test of the capability-behaviour tier. */
export const BEHAVIOR_GREP = "^cli/capability-behavior/";
/** The eight agent CLIs the product is built for, whose behaviour tier the 3× target is about. */
export const CORE_CLIS: readonly string[] = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "pi",
  "omp",
  "kimi-code",
  "qwen",
];
const STREAMING_TARGET_S = 60;
const RATIO_TARGET = 3;
/** Behaviour runs per ratio, each between two streaming runs. */
const ROUNDS = 2;

/** One `conformance run`: its wall time, exit code and results. */
interface TierRun {
  readonly seconds: number;
  readonly code: number;
  readonly results: readonly TestResult[];
  /** The last lines of stderr, for a run that wrote no report. */
  readonly stderr: string;
}

/** The registry's real CLIs whose binary is installed here. */
async function installedClis(): Promise<{ all: readonly RealHost[]; installed: RealHost[] }> {
  const installed: RealHost[] = [];
  for (const host of CLI_HOSTS) if (await host.runner.detect() !== null) installed.push(host);
  return { all: CLI_HOSTS, installed };
}

/** What `deno task conformance` adds: the shims `hosts:install` wrote, first on PATH. */
function harnessEnv(): Record<string, string> {
  return { PATH: `${join(hostsCacheDir(), "bin")}:${Deno.env.get("PATH") ?? ""}` };
}

/** The hosts' binaries, beside the generated permission set (which may lag a host just added). */
function binaries(hosts: readonly RealHost[]): string[] {
  return [...new Set(hosts.map((host) => host.runner.binary))];
}

/** `conformance run --host … --mock-model --grep GREP --reporter json --out DIR`, timed. */
async function runTier(hosts: readonly RealHost[], grep: string, out: string): Promise<TierRun> {
  const started = performance.now();
  const exit = await runHarness([
    "run",
    "--host",
    hosts.map((host) => host.entry.id).join(","),
    "--mock-model",
    "--grep",
    grep,
    "--reporter",
    "json",
    "--out",
    out,
  ], { env: harnessEnv(), alsoRun: binaries(hosts) });
  const seconds = (performance.now() - started) / 1000;
  const report = await Deno.readTextFile(join(out, "report.json")).then(
    (text) => JSON.parse(text) as { results: TestResult[] },
    () => ({ results: [] }),
  );
  return {
    seconds,
    code: exit.code,
    results: report.results,
    stderr: exit.stderr.trim().split("\n").slice(-3).join(" "),
  };
}

/** How many tests `conformance list tests` plans for `grep` on these hosts with `--mock-model`. */
async function plannedTests(hosts: readonly RealHost[], grep: string): Promise<number> {
  const exit = await runHarness(
    [
      "list",
      "tests",
      "--host",
      hosts.map((host) => host.entry.id).join(","),
      "--mock-model",
      "--grep",
      grep,
      "--json",
    ],
    { env: harnessEnv(), alsoRun: binaries(hosts) },
  );
  if (exit.code !== 0) throw new Error(`conformance list tests exited ${exit.code}: ${exit.stderr.trim()}`);
  return (JSON.parse(exit.stdout) as unknown[]).length;
}

/** A run's verdicts in a few words: counts by status and the unexpected results by host. */
function verdicts(run: TierRun): string {
  const counts = new Map<string, number>();
  for (const result of run.results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  const unexpected = run.results.filter((result) => compare(result) !== "expected");
  const tally = [...counts].map(([status, n]) => `${n} ${status}`).join(", ") || "no result";
  const listed = unexpected.slice(0, 6)
    .map((result) => `${result.host} ${result.test.split("/").at(-1)} ${result.status}`).join(", ");
  return `${tally}; ${
    unexpected.length === 0 ? "all as expected" : `${unexpected.length} unexpected (${listed})`
  }${run.results.length === 0 && run.stderr ? `; stderr: ${run.stderr.slice(0, 200)}` : ""}`;
}

/** Whether a run observed what it set out to: a report with results, every one as expected. */
function clean(run: TierRun): boolean {
  return run.code === 0 && run.results.length > 0 &&
    run.results.every((result) => compare(result) === "expected");
}

function notMeasured(figure: string, target: string, why: string): CliTierRow {
  return { figure, value: "not measured", target, met: null, note: why };
}

/**
 * The behaviour tier's wall over `hosts` as a multiple of their streaming tier's: {@linkcode ROUNDS} behaviour
 * runs, each between two streaming runs (the first may be `before`, a streaming run of the same hosts just
 * made), the mean walls of the two tiers compared. `withheld` names why the verdict is withheld (a CLI of the scope
 * not installed), or is `null`.
 */
async function ratioRow(
  hosts: readonly RealHost[],
  figure: string,
  target: string,
  withheld: string | null,
  dir: string,
  before?: { run: TierRun; note: string },
): Promise<CliTierRow> {
  if (hosts.length === 0) return notMeasured(figure, target, withheld ?? "no CLI of it is installed");
  let behaviorTests: number;
  try {
    behaviorTests = await plannedTests(hosts, BEHAVIOR_GREP);
  } catch (error) {
    return notMeasured(figure, target, (error as Error).message.slice(0, 300));
  }
  if (behaviorTests === 0) {
    return notMeasured(
      figure,
      target,
      `the cli/capability-behavior/ tier has not landed: \`conformance list tests --mock-model --grep ` +
        `'${BEHAVIOR_GREP}'\` plans no test for the ${hosts.length} CLIs, so there is no ratio`,
    );
  }
  const streaming = [before?.run ?? await runTier(hosts, STREAMING_GREP, join(dir, "streaming-0"))];
  const behavior: TierRun[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    behavior.push(await runTier(hosts, BEHAVIOR_GREP, join(dir, `behaviour-${round}`)));
    streaming.push(await runTier(hosts, STREAMING_GREP, join(dir, `streaming-${round}`)));
  }
  const mean = (runs: readonly TierRun[]) => runs.reduce((sum, run) => sum + run.seconds, 0) / runs.length;
  const base = mean(streaming);
  const ratio = mean(behavior) / base;
  const scope = before?.note ?? `${hosts.length} CLIs: ${hosts.map((host) => host.entry.id).join(", ")}`;
  return {
    figure,
    value: `${ratio.toFixed(2)}×`,
    target,
    met: withheld !== null ? null : ratio <= RATIO_TARGET && behavior.every(clean),
    note: `mean walls: behavior ${mean(behavior).toFixed(1)} s for ${behaviorTests} tests (${
      verdicts(behavior[0]!)
    }), streaming ${base.toFixed(1)} s; in run order streaming ${streaming[0]!.seconds.toFixed(1)} s, then ${
      behavior.map((run, at) =>
        `behaviour ${run.seconds.toFixed(1)} s${clean(run) ? "" : ` (${verdicts(run)})`}, streaming ${
          streaming[at + 1]!.seconds.toFixed(1)
        } s`
      ).join(", ")
    }; ${scope}${withheld !== null ? `; verdict withheld: ${withheld}` : ""}`,
  };
}

/**
 * The rows: the streaming tier's wall, and the behaviour tier's wall as a multiple of it over the eight CLIs
 * of the brief and over every installed CLI.
 */
export async function cliTierRows(): Promise<CliTierRow[]> {
  const streamingFigure = "`conformance run --mock-model`, streaming case, every installed real CLI at once";
  const ratioFigure = "capability-behaviour tier ÷ mock-model streaming tier (wall, same bench run)";
  const streamingTarget = `≤ ${STREAMING_TARGET_S} s wall`;
  const ratioTarget = `≤ ${RATIO_TARGET}×`;
  const { all, installed } = await installedClis();
  if (installed.length === 0) {
    const why = `none of the ${all.length} real CLIs of the registry is installed: deno task hosts:install`;
    return [notMeasured(streamingFigure, streamingTarget, why), notMeasured(ratioFigure, ratioTarget, why)];
  }
  const absent = all.filter((host) => !installed.includes(host));
  // A CLI whose binary comes from outside npm (crush: github.com) cannot be installed on an npm-only machine:
  // it is named, and does not withhold the verdict as a CLI left uninstalled would.
  const offNpm = absent.filter((host) => host.pin.binaryDownloadFrom !== undefined);
  const missing = absent.filter((host) => !offNpm.includes(host)).map((host) => host.entry.id);
  const installedNote = `${installed.length} of ${all.length} registry CLIs installed` +
    (missing.length > 0 ? ` (not: ${missing.join(", ")})` : "") +
    (offNpm.length > 0
      ? ` (${
        offNpm.map((host) => `${host.entry.id}: its binary comes from ${host.pin.binaryDownloadFrom}`).join(
          ", ",
        )
      }, not reachable here)`
      : "");
  const dir = await Deno.makeTempDir({ prefix: "conformance-bench-cli-" });
  try {
    const first = await runTier(installed, STREAMING_GREP, join(dir, "streaming-1"));
    const reachable = first.results.filter((result) => result.status !== "SKIP").length;
    const streaming: CliTierRow = first.results.length === 0
      ? notMeasured(
        streamingFigure,
        streamingTarget,
        `the run wrote no result (exit ${first.code}): ${first.stderr}`,
      )
      : {
        figure: streamingFigure,
        value: `${first.seconds.toFixed(1)} s`,
        target: streamingTarget,
        met: missing.length > 0 ? null : first.seconds <= STREAMING_TARGET_S && clean(first),
        note: `${installedNote}; ${reachable} reachable (not SKIP); ${verdicts(first)}`,
      };
    const core = installed.filter((host) => CORE_CLIS.includes(host.entry.id));
    const coreMissing = CORE_CLIS.filter((id) => !core.some((host) => host.entry.id === id));
    const coreRow = await ratioRow(
      core,
      `${ratioFigure}, the eight agent CLIs of the brief`,
      ratioTarget,
      coreMissing.length > 0 ? `not installed: ${coreMissing.join(", ")}` : null,
      join(dir, "core"),
    );
    const allRow = await ratioRow(
      installed,
      `${ratioFigure}, every installed CLI`,
      ratioTarget,
      missing.length > 0 ? `not installed: ${missing.join(", ")}` : null,
      join(dir, "all"),
      { run: first, note: installedNote },
    );
    return [streaming, coreRow, allRow];
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  for (const row of await cliTierRows()) {
    console.log(
      `${
        row.met === null ? "–   " : row.met ? "ok  " : "MISS"
      } ${row.figure}: ${row.value} (target ${row.target})\n     ${row.note}`,
    );
  }
}
