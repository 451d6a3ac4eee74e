/**
 * Interrupt soak: `conformance run` is sent SIGINT or SIGTERM at a random moment, many times, across the default
 * run (fake, fake-minimal, reference) at `--timeout-multiplier` 1 and 20, the mock-model tier of a real CLI, and
 * under a supervisor that SIGKILLs the harness 1 s after its SIGINT. Every trial must end with no process of the
 * run left and a `report.json` that is either the previous file untouched or complete and valid, marked
 * incomplete when cut short, blaming no host (tests/robustness/_soak.ts). Each scenario prints its stop times;
 * the last test prints them over all scenarios (p50, p90, max) and holds them to the bound of
 * tests/robustness/_interrupt.ts: 1 s at the p90, {@linkcode EXIT_WITHIN_MS} at worst. Trials:
 * `CONFORMANCE_SOAK_TRIALS` (default 50, at least 50 in CI), `CONFORMANCE_SOAK_PARALLEL` at once (default 1:
 * two runs at once, each a fake tier and a Chromium, put a two-core machine at load 9-13 of their own making, and
 * the stop times then measured the second run's share of the cores as much as the harness).
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { shimPath } from "../../hosts/cli/_installed.ts";
import { detectBinary } from "../../hosts/cli/_real_host.ts";
import { describeSurvivors } from "./_harness.ts";
import { EXIT_WITHIN_MS } from "./_interrupt.ts";
import { latency, percentiles, type Scenario, soak } from "./_soak.ts";

const TRIALS = Math.max(2, Number(Deno.env.get("CONFORMANCE_SOAK_TRIALS") ?? 50));
const PARALLEL = Math.max(1, Number(Deno.env.get("CONFORMANCE_SOAK_PARALLEL") ?? 1));
/** The p90 of the stop times over every scenario: the "within 1 s of the signal". */
const P90_WITHIN_MS = 1_000;

const CLAUDE = await detectBinary("claude-code", "claude").catch(() => null);
const DEFAULT_RUN = ["--host", "fake,fake-minimal,reference"];

/** Each scenario's share of the trials; the fake tier (cheap, many processes at once) takes the rest. */
const SCENARIOS: readonly (Scenario & { share: number; ignore?: boolean })[] = [
  { name: "fake tier", share: 0.3, args: ["--host", "fake,fake-minimal"], runningMs: 2_500 },
  {
    name: "fake tier at --timeout-multiplier 20",
    share: 0.2,
    args: ["--host", "fake,fake-minimal", "--timeout-multiplier", "20"],
    runningMs: 2_500,
  },
  { name: "reference host", share: 0.1, args: ["--host", "reference"], runningMs: 6_000 },
  {
    name: "default run at --timeout-multiplier 20",
    share: 0.1,
    args: [...DEFAULT_RUN, "--timeout-multiplier", "20"],
    runningMs: 6_000,
  },
  {
    name: "mock-model tier",
    share: 0.1,
    args: ["--host", "claude-code", "--mock-model", "--tier", "mock-model"],
    // The tier runs about a minute (fault runs retry); the signal lands in its first third.
    runningMs: 20_000,
    env: { PATH: `${dirname(shimPath("claude"))}:${Deno.env.get("PATH") ?? ""}` },
    ignore: CLAUDE === null,
  },
  {
    name: "supervisor SIGKILL 1 s after SIGINT, default run at --timeout-multiplier 20",
    share: 0.2,
    args: [...DEFAULT_RUN, "--timeout-multiplier", "20"],
    runningMs: 6_000,
    signals: ["SIGINT"],
    supervisorKillMs: 1_000,
  },
];

const dir = Deno.makeTempDirSync({ prefix: "conformance-soak-" });
const allStops: number[] = [];
let allTrials = 0;

for (const scenario of SCENARIOS) {
  const trials = Math.max(1, Math.round(TRIALS * scenario.share));
  Deno.test({
    name: `interrupt soak, ${scenario.name}: ${trials} random interrupts, 0 survivors`,
    ignore: scenario.ignore ?? false,
    fn: async () => {
      const { endings, stops, survivors } = await soak(scenario, trials, PARALLEL, dir);
      allStops.push(...stops);
      allTrials += trials;
      console.log(
        `${scenario.name}: ${JSON.stringify(endings)}, stop after the signal ${latency(stops)}, ` +
          `survivors ${survivors.length}`,
      );
      assert.equal(survivors.length, 0, `processes survived their run:\n${describeSurvivors(survivors)}`);
      assert.ok(
        stops.length >= Math.ceil(trials / 2),
        `only ${stops.length} of ${trials} trials interrupted a running run: ` +
          `the signal window no longer matches the run's length (${JSON.stringify(endings)})`,
      );
    },
  });
}

Deno.test("interrupt soak: every scenario's stop times, p90 within 1 s and max within 2 s", () => {
  const figures = percentiles(allStops);
  const load = Deno.loadavg().map((value) => value.toFixed(2)).join(" ");
  console.log(
    `all scenarios: ${allTrials} trials, ${allStops.length} interrupted a running run, stop after the signal ` +
      `${latency(allStops)} (load average ${load})`,
  );
  assert.ok(figures !== null, "no trial interrupted a running run");
  assert.ok(figures.p90 <= P90_WITHIN_MS, `p90 ${figures.p90} ms is over ${P90_WITHIN_MS} ms (load ${load})`);
  assert.ok(
    figures.max <= EXIT_WITHIN_MS,
    `max ${figures.max} ms is over ${EXIT_WITHIN_MS} ms (load ${load})`,
  );
});

Deno.test({
  name: "interrupt soak: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
