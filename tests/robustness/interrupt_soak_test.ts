/**
 * Interrupt soak: `conformance run` is sent SIGINT or SIGTERM at a random moment, many times, across the
 * scenarios of tests/robustness/_soak.ts (the default run at `--timeout-multiplier` 1 and 20, the mock-model tier
 * of a real CLI, a supervisor that SIGKILLs the harness 1 s after its SIGINT). Every trial must end with no
 * process of the run left, the exit code of the signal, and a `report.json` that is either the previous file
 * untouched or complete and valid, marked incomplete when cut short, blaming no host. The stop times are printed
 * but not asserted: they measure the machine's load as much as the harness, and the bench holds them to their
 * target (`deno task bench --only interrupt`, "stop after SIGINT p90 ≤ 1 s"). Trials: `CONFORMANCE_SOAK_TRIALS`
 * (default 50, at least 50 in CI), `CONFORMANCE_SOAK_PARALLEL` at once (default 1).
 */
import assert from "node:assert/strict";
import { latency, soak, soakScenarios } from "./_soak.ts";

const TRIALS = Math.max(2, Number(Deno.env.get("CONFORMANCE_SOAK_TRIALS") ?? 50));
const PARALLEL = Math.max(1, Number(Deno.env.get("CONFORMANCE_SOAK_PARALLEL") ?? 1));
const SCENARIOS = await soakScenarios();

const dir = Deno.makeTempDirSync({ prefix: "conformance-soak-" });

for (const scenario of SCENARIOS) {
  const trials = Math.max(1, Math.round(TRIALS * scenario.share));
  Deno.test({
    name: `interrupt soak, ${scenario.name}: ${trials} random interrupts, 0 survivors`,
    ignore: scenario.ignore,
    fn: async () => {
      const { endings, stops, survivors, survivorTrials, running, runningInterrupted } = await soak(
        scenario,
        trials,
        PARALLEL,
        dir,
      );
      console.log(
        `${scenario.name}: ${JSON.stringify(endings)}, stop after the signal ${latency(stops)} (load ` +
          `${
            Deno.loadavg().map((value) => value.toFixed(2)).join(" ")
          }; not asserted), survivors ${survivors.length}`,
      );
      assert.equal(survivors.length, 0, `processes survived their run:\n${survivorTrials.join("\n")}`);
      // Of the trials signalled once the run was under way (start-up trials may land before the handler, the
      // more so at load), most must find it still running: else the window no longer matches the run.
      assert.ok(
        runningInterrupted >= Math.ceil(running / 2),
        `only ${runningInterrupted} of ${running} trials signalled after the first output interrupted a ` +
          `running run: the signal window no longer matches the run's length (${JSON.stringify(endings)})`,
      );
    },
  });
}

Deno.test({
  name: "interrupt soak: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
