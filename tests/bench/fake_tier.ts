/**
 * Benchmark of the fake tier: how long one `conformance fake-host` start takes (median, against a bare
 * `deno run` of a one-line script), and the wall time of the whole fake tier (behavior + scripted +
 * composition) on `fake`, cases running concurrently. Targets: start ≤ 50 ms median, tier ≤ 2 s.
 *
 * Run alone: `deno run <task permissions> tests/bench/fake_tier.ts`; `deno task bench` calls
 * {@linkcode benchFakeTier}.
 *
 * @module
 */
import { HOSTS } from "../../hosts/registry.ts";
import { fakeHostCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { behaviorTier } from "../../suite/cli/behavior.ts";
import { compositionTier } from "../../suite/cli/composition.ts";
import { createCliDriver } from "../../suite/cli/driver.ts";
import { scriptedTier } from "../../suite/cli/scripted.ts";
import { headlessSettings } from "../_settings.ts";

/** One measured figure against its target. */
export interface BenchFigure {
  readonly name: string;
  readonly value: number;
  readonly unit: "ms";
  /** The target the figure must not exceed, or `null` for reference figures. */
  readonly target: number | null;
  readonly note: string;
}

/** Options of {@linkcode benchFakeTier}. */
export interface BenchFakeTierOptions {
  /** Sequential starts measured for the median. */
  readonly starts?: number;
  /** Whole-tier runs; the best wall time is reported (the machine is shared). */
  readonly tierRuns?: number;
}

async function timeRun(binary: string, args: readonly string[]): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command(binary, {
    detached: true,
    args: [...args],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  })
    .output();
  const elapsed = performance.now() - started;
  if (!output.success) throw new Error(`Benchmark command failed: ${binary} ${args.join(" ")}`);
  return elapsed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function medianOf(runs: number, binary: string, args: readonly string[]): Promise<number> {
  await timeRun(binary, args); // warm the module cache
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeRun(binary, args));
  return median(times);
}

/** Measures the figures. Throws if a tier case does not pass (a fast wrong answer is no figure). */
export async function benchFakeTier(options: BenchFakeTierOptions = {}): Promise<BenchFigure[]> {
  const starts = options.starts ?? 21;
  const self = fakeHostCommand();
  const fakeStart = await medianOf(starts, self.binary, [...self.args, "Reply with exactly: OK"]);
  const oneLiner = await Deno.makeTempFile({ suffix: ".ts" });
  let bareStart: number;
  try {
    await Deno.writeTextFile(oneLiner, "console.log(1);\n");
    bareStart = await medianOf(starts, Deno.execPath(), ["run", "--quiet", oneLiner]);
  } finally {
    await Deno.remove(oneLiner);
  }

  const fake = HOSTS.find((host): host is CliHostEntry => host.kind === "cli" && host.id === "fake");
  if (!fake) throw new Error('The "fake" host is not in the registry: check hosts/registry.ts');
  const driver = createCliDriver({ tiers: [behaviorTier, scriptedTier, compositionTier] });
  const settings = headlessSettings();
  const tests = driver.list(fake, settings);
  let best = Infinity;
  for (let run = 0; run < (options.tierRuns ?? 3); run++) {
    const failed: string[] = [];
    const started = performance.now();
    await driver.run(fake, tests, settings, {
      started: () => {},
      finished: (_host, test, outcome) => {
        if (outcome.status !== "PASS") failed.push(`${test}: ${outcome.status} ${outcome.message ?? ""}`);
      },
    });
    best = Math.min(best, performance.now() - started);
    if (failed.length > 0) throw new Error(`The fake tier did not pass:\n${failed.join("\n")}`);
  }
  return [
    {
      name: "fake-host start (median)",
      value: fakeStart,
      unit: "ms",
      target: 50,
      note: `${starts} sequential starts of \`conformance fake-host\` from source, default script`,
    },
    {
      name: "bare deno run (median)",
      value: bareStart,
      unit: "ms",
      target: null,
      note: "reference: a one-line script",
    },
    {
      name: "fake tier wall (best of runs)",
      value: best,
      unit: "ms",
      target: 2_000,
      note: `${tests.length} cases (behavior + scripted + composition) on \`fake\`, concurrent`,
    },
  ];
}

if (import.meta.main) {
  const figures = await benchFakeTier();
  for (const figure of figures) {
    const verdict = figure.target === null ? "" : figure.value <= figure.target ? "  ok" : "  OVER TARGET";
    const target = figure.target === null ? "" : ` (target ≤ ${figure.target} ${figure.unit})`;
    console.log(
      `${figure.name}: ${figure.value.toFixed(1)} ${figure.unit}${target}${verdict} — ${figure.note}`,
    );
  }
  console.log(`load average: ${Deno.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
}
