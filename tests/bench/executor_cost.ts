/**
 * The `executor-cost` bench group (issue 31): one host run's fixed cost on the 5.4 KB recorded claude stream
 * (tests/fixtures/cli/claude-code/mock-ok/stdout.jsonl), ours against the spawn floor. Each round starts two
 * fresh processes of `_executor_cost.ts`, one running the executor once (as a one-shot caller pays it) and one
 * running a bare `Deno.Command` of `cat` on the same file; rounds alternate which goes first, and the medians
 * are compared. The first call's time per executor phase (src/exec/executor.ts `ExecutorPhase`) is the trace
 * of where the cost goes.
 *
 * @module
 */
import { permissionFlags } from "../../src/permissions.ts";
import type { BenchRow } from "./_row.ts";

const ROOT = new URL("../../", import.meta.url);
const path = (relative: string) => decodeURIComponent(new URL(relative, ROOT).pathname);
/** The recording: a real claude stream-json run against the mock model. */
export const RECORDING = "tests/fixtures/cli/claude-code/mock-ok/stdout.jsonl";
const ROUNDS = 9;
/** The peer's in-call wall on the recording (little-loops' `run_claude_command`, issue 31), in ms. */
const PEER_MS = 7.8;

/** What one `_executor_cost.ts` child prints. */
export interface CostSample {
  readonly first: number;
  readonly warm: number;
  readonly phases: Readonly<Record<string, number>>;
}

async function sample(mode: "ours" | "bare"): Promise<CostSample> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...permissionFlags(["cat"]),
      path("tests/bench/_executor_cost.ts"),
      mode,
      path(RECORDING),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).output();
  if (!output.success) {
    throw new Error(new TextDecoder().decode(output.stderr).trim() || `exit ${output.code}`);
  }
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `ROUNDS` interleaved rounds of ours and bare, each in fresh processes. */
export async function measureExecutorCost(
  rounds = ROUNDS,
): Promise<{ ours: CostSample[]; bare: CostSample[] }> {
  const ours: CostSample[] = [];
  const bare: CostSample[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      ours.push(await sample("ours"));
      bare.push(await sample("bare"));
    } else {
      bare.push(await sample("bare"));
      ours.push(await sample("ours"));
    }
  }
  return { ours, bare };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The two rows of issue 31: ours ÷ the bare spawn, and our in-call wall beside the peer's. */
export async function executorCostRows(): Promise<BenchRow[]> {
  const { ours, bare } = await measureExecutorCost();
  const first = median(ours.map((s) => s.first));
  const floor = median(bare.map((s) => s.first));
  const warm = median(ours.map((s) => s.warm));
  const warmFloor = median(bare.map((s) => s.warm));
  const phaseNames = Object.keys(ours[0]?.phases ?? {});
  const phases = phaseNames.map((name) =>
    `${name} ${median(ours.map((s) => s.phases[name] ?? 0)).toFixed(1)}`
  );
  const trace = `first call per phase (median ms since the phase before): ${phases.join(", ")}`;
  return [
    {
      figure: "executor, 5.4 KB recording: ours ÷ bare spawn",
      value: `${(first / floor).toFixed(1)}×`,
      target: "≤ 2× (a bare `Deno.Command` of `cat` on the same file, waited for)",
      met: first <= 2 * floor,
      note:
        `first call in a fresh process, median of ${ours.length} interleaved rounds: ours ${ms(first)}, ` +
        `bare ${ms(floor)}; warm (15 calls in one process) ${ms(warm)} against ${ms(warmFloor)}, ` +
        `${(warm / warmFloor).toFixed(1)}×; ${trace}`,
    },
    {
      figure: "executor, 5.4 KB recording: in-call wall (first call)",
      value: ms(first),
      target: `≤ ${(1.5 * PEER_MS).toFixed(0)} ms (1.5× the Python peer's ${PEER_MS} ms, issue 31)`,
      met: first <= 1.5 * PEER_MS,
      note: "own group, group proven gone, escape hunt (one `ps` listing of environments), kept events; " +
        "the peer recipe is in docs/performance.md",
    },
  ];
}
