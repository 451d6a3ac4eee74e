/**
 * Benchmark child: one host run's fixed cost, measured as a caller meets it. `ours FILE` runs `cat FILE` through
 * the real executor (claude normaliser, own group, group proof, escape hunt) once in this fresh process, the way
 * a one-shot caller pays it, then `WARM` more times; `bare FILE` does the same with a bare `Deno.Command` of
 * `cat FILE`, its output read and its exit waited for: the spawn floor. Prints one JSON line `{first, warm,
 * phases}`: the first call's wall (ms), the median of the warm calls, and for `ours` the first call's time in
 * each phase of the executor (src/exec/executor.ts `ExecutorPhase`), as ms since the phase before.
 *
 * @module
 */
import { execute, type ExecutorPhase } from "../../src/exec/executor.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

const WARM = 15;
const [mode, file] = Deno.args;
if ((mode !== "ours" && mode !== "bare") || !file) {
  throw new TypeError("Usage: _executor_cost.ts ours|bare FILE");
}

async function ours(onPhase?: (phase: ExecutorPhase, at: number) => void): Promise<void> {
  const observation = await execute(
    { binary: "cat", args: [file!], env: {}, envAllow: [], cleanupPaths: [], capabilities: NO_CAPABILITIES },
    {
      host: "bench",
      normalizer: normalizerFor("claude")({ argv: [] }),
      streamShape: { init: "required", terminal: "event" },
      wallTimeoutMs: 60_000,
      ...(onPhase ? { onPhase } : {}),
    },
  );
  if (observation.exitCode !== 0 || observation.resultSeen !== true || !observation.groupGone) {
    throw new Error(`the executor's run of cat went wrong: exit ${observation.exitCode}`);
  }
}

async function bare(): Promise<void> {
  const output = await new Deno.Command("cat", {
    args: [file!],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!output.success || output.stdout.length === 0) throw new Error("cat failed");
}

const phases: Record<string, number> = {};
const begun = performance.now();
if (mode === "ours") {
  let last = begun;
  await ours((phase, at) => {
    phases[phase] = at - last;
    last = at;
  });
} else {
  await bare();
}
const first = performance.now() - begun;
const warm: number[] = [];
for (let i = 0; i < WARM; i++) {
  const at = performance.now();
  await (mode === "ours" ? ours() : bare());
  warm.push(performance.now() - at);
}
warm.sort((a, b) => a - b);
console.log(JSON.stringify({ first, warm: warm[Math.floor(warm.length / 2)], phases }));
