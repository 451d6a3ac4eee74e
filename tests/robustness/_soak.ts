/**
 * The interrupt soak's trial: `conformance run` is started, sent SIGINT or SIGTERM at a random moment (a
 * supervisor may SIGKILL it some time after), and checked: no process of the run left (counted by the run tag),
 * an exit of 130/143 when the run's own handler caught the signal, and a `report.json` that is either the
 * previous trial's file untouched or a complete, valid report (marked incomplete when the run was cut short, with
 * no FAIL, ERROR or TIMEOUT for a test it stopped). Used by interrupt_soak_test.ts and the bench's
 * interrupt-latency row (tests/bench/bench.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { shimPath } from "../../hosts/installed.ts";
import { detectBinary } from "../../hosts/installed.ts";
import { parseReport } from "../../src/report/schema.ts";
import { describeSurvivors, processesTagged, spawnHarness, type TaggedProcess } from "./_harness.ts";
import { BLAMING } from "./_interrupt.ts";

/** One kind of interrupted run. */
export interface Scenario {
  readonly name: string;
  /** The `run` arguments before the reporters (hosts, tier, multiplier). */
  readonly args: readonly string[];
  /** How long after the run's first output the signal may land (most trials), in ms: about the run's length. */
  readonly runningMs: number;
  /** The signals drawn from at random. Default SIGINT and SIGTERM. */
  readonly signals?: readonly Deno.Signal[];
  /** A supervisor's SIGKILL to the harness this long after the signal (`docker stop`, `timeout -k`). */
  readonly supervisorKillMs?: number;
  /** Extra environment for the run. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A scenario of the soak, with its share of the trials and whether it cannot run here. */
export interface SoakScenario extends Scenario {
  readonly share: number;
  readonly ignore: boolean;
}

const DEFAULT_RUN = ["--host", "fake,fake-minimal,reference"];

/**
 * What the soak interrupts (tests/robustness/interrupt_soak_test.ts) and the bench times
 * (tests/bench/bench.ts): the fake tier at `--timeout-multiplier` 1 and 20, the reference host, the default run,
 * the mock-model tier of a real CLI (ignored without `claude`), and a supervisor's SIGKILL 1 s after SIGINT.
 */
export async function soakScenarios(): Promise<SoakScenario[]> {
  const claude = await detectBinary("claude-code", "claude").catch(() => null);
  return [
    { name: "fake tier", share: 0.3, args: ["--host", "fake,fake-minimal"], runningMs: 2_500, ignore: false },
    {
      name: "fake tier at --timeout-multiplier 20",
      share: 0.2,
      args: ["--host", "fake,fake-minimal", "--timeout-multiplier", "20"],
      runningMs: 2_500,
      ignore: false,
    },
    { name: "reference host", share: 0.1, args: ["--host", "reference"], runningMs: 6_000, ignore: false },
    {
      name: "default run at --timeout-multiplier 20",
      share: 0.1,
      args: [...DEFAULT_RUN, "--timeout-multiplier", "20"],
      runningMs: 6_000,
      ignore: false,
    },
    {
      name: "mock-model tier",
      share: 0.1,
      args: ["--host", "claude-code", "--mock-model", "--tier", "mock-model"],
      // The tier runs about a minute (fault runs retry); the signal lands in its first third.
      runningMs: 20_000,
      env: { PATH: `${dirname(shimPath("claude"))}:${Deno.env.get("PATH") ?? ""}` },
      ignore: claude === null,
    },
    {
      name: "supervisor SIGKILL 1 s after SIGINT, default run at --timeout-multiplier 20",
      share: 0.2,
      args: [...DEFAULT_RUN, "--timeout-multiplier", "20"],
      runningMs: 6_000,
      signals: ["SIGINT"],
      supervisorKillMs: 1_000,
      ignore: false,
    },
  ];
}

/** A fifth of the trials signal at any moment from spawn, start-up included (module loading, planning). */
const STARTUP_SHARE = 0.2;
const STARTUP_MS = 3_000;
/** Longest a signalled run may take to stop before the soak kills it: kill grace and group checks, loaded. */
const STOP_DEADLINE_MS = 30_000;
/** The pretty reporter's first line says the run has started; the json report is what is checked. */
const REPORTERS = ["--reporter", "pretty", "--reporter", "json", "--out"] as const;

/** How a trial ended: killed before the handler, interrupted (the handler ran), completed, or SIGKILLed. */
export type Ending = "before-handler" | "interrupted" | "completed" | "supervisor-killed";

/** One trial's outcome. */
export interface Trial {
  readonly ending: Ending;
  /** Whether the signal was drawn from the start-up (from spawn) rather than from the run's first output. */
  readonly startup: boolean;
  /** From the signal to the harness's exit. */
  readonly stopMs: number;
  readonly survivors: readonly TaggedProcess[];
  /** Scenario, trial, signal and when it landed: what a failure message names. */
  readonly label: string;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

function killGroupOf(pid: number, signal: Deno.Signal, group = true): void {
  try {
    Deno.kill(group ? -pid : pid, signal);
  } catch { /* gone */ }
}

/** Runs one trial of `scenario`, writing to `out` (a folder kept per worker: the "previous report" check). */
export async function trial(scenario: Scenario, index: number, out: string): Promise<Trial> {
  const reportPath = `${out}/report.json`;
  const previous = await readOrNull(reportPath);
  const signals = scenario.signals ?? ["SIGINT", "SIGTERM"];
  const signal = signals[Math.floor(Math.random() * signals.length)]!;
  const startup = Math.random() < STARTUP_SHARE;
  const delayMs = Math.round(Math.random() * (startup ? STARTUP_MS : scenario.runningMs));
  const label = `${scenario.name} trial ${index + 1}: ${signal} ${delayMs} ms after ${
    startup ? "spawn" : "the first output"
  }`;

  await using harness = spawnHarness(
    ["run", ...scenario.args, ...REPORTERS, out],
    scenario.env ? { env: scenario.env } : {},
  );
  if (!startup) await harness.firstOutput;
  const early = await Promise.race([
    harness.done.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), delayMs)),
  ]);
  // A terminal's Ctrl-C signals the foreground process group: the harness is its group's leader.
  const signalled = performance.now();
  if (!early) killGroupOf(harness.pid, signal);
  let supervisorKilled = false;
  const supervisor = scenario.supervisorKillMs === undefined || early ? undefined : setTimeout(() => {
    supervisorKilled = true;
    killGroupOf(harness.pid, "SIGKILL", false);
  }, scenario.supervisorKillMs);
  const timer = setTimeout(() => killGroupOf(harness.pid, "SIGKILL"), STOP_DEADLINE_MS);
  const exit = await harness.done.finally(() => {
    clearTimeout(timer);
    clearTimeout(supervisor);
  });
  // The exit, not the drained pipes: what a supervisor or a terminal waits for.
  const stopMs = Math.round(exit.exitedAt - signalled);
  // A harness SIGKILLed outright runs no handler: its reaper (src/exec/reaper.ts) ends the hosts' groups as the
  // harness's pipe closes, a moment after the exit.
  const survivors = supervisorKilled
    ? await settledSurvivors(harness.runId)
    : await processesTagged(harness.runId);

  const text = await readOrNull(reportPath);
  const expectedCode = signal === "SIGINT" ? 130 : 143;
  let ending: Ending;
  if (exit.signal === "SIGKILL" && supervisorKilled) {
    // The supervisor's SIGKILL came first: whatever report there is must be whole (checkpoints are atomic).
    if (text !== null && text !== previous) checkNoBlame(parseReport(text, `${label} ${reportPath}`), label);
    ending = "supervisor-killed";
  } else if (text === null || text === previous) {
    // Killed before the run installed its handler (start-up): nothing written, nothing half-written.
    assert.ok(
      exit.signal === signal || exit.code === expectedCode,
      `${label}: the report was not rewritten, yet the run exited ${exit.code} (signal ${exit.signal}); ` +
        `stderr: ${exit.stderr.slice(0, 1000)}`,
    );
    assert.ok(startup, `${label}: the run had started, yet it wrote no report`);
    ending = "before-handler";
  } else {
    const report = parseReport(text, `${label} ${reportPath}`);
    if (report.run.incomplete) {
      assert.equal(exit.code, expectedCode, `${label}: an interrupted run must exit ${expectedCode}`);
      checkNoBlame(report, label);
      ending = "interrupted";
    } else {
      assert.ok(
        [0, 1, expectedCode].includes(exit.code),
        `${label}: a complete run exited ${exit.code}; stderr: ${exit.stderr.slice(0, 1000)}`,
      );
      ending = exit.code === expectedCode ? "interrupted" : "completed";
    }
  }
  assert.ok(
    !exit.stderr.includes("error: Uncaught"),
    `${label}: uncaught error: ${exit.stderr.slice(0, 1000)}`,
  );
  return { ending, startup, stopMs, survivors, label: `${label} (${ending}, stopped in ${stopMs} ms)` };
}

/**
 * The run's processes once the reaper has had up to {@linkcode REAPER_SETTLE_MS} to end them: returns as soon
 * as none is left, so the bound only guards against a reaper that never sweeps.
 */
async function settledSurvivors(runId: string): Promise<TaggedProcess[]> {
  const deadline = performance.now() + REAPER_SETTLE_MS;
  for (;;) {
    const left = await processesTagged(runId);
    if (left.length === 0 || performance.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Against a hang only: how long after a SIGKILLed harness's exit its processes may take to go. The reaper reads
 * EOF, lists every process and kills; on a loaded machine it may still be starting (a `deno run`) when the
 * harness dies early in the run, and 2 s counted as survivors processes it ended a moment later.
 */
const REAPER_SETTLE_MS = 20_000;

function checkNoBlame(report: ReturnType<typeof parseReport>, label: string): void {
  const blamed = report.results.filter((result) => BLAMING.has(result.status));
  assert.deepEqual(
    blamed.map(({ test, status, message }) => `${status} ${test}: ${message.slice(0, 120)}`),
    [],
    `${label}: the interrupt was blamed on the host`,
  );
}

/** What a series of trials gave. */
export interface SoakResult {
  readonly endings: Record<Ending, number>;
  /** Stop times of the trials the run's handler saw (interrupted or SIGKILLed after it), in ms. */
  readonly stops: number[];
  /** Trials signalled after the run's first output (the others may land before its handler, by design). */
  running: number;
  /** Of those, the ones that interrupted the run (the others found it complete). */
  runningInterrupted: number;
  readonly survivors: TaggedProcess[];
  /** The trials that left survivors, each with its survivors: what a failure message says. */
  readonly survivorTrials: string[];
}

/** Runs `trials` trials of `scenario`, `parallel` at a time, each worker with its own report folder. */
export async function soak(
  scenario: Scenario,
  trials: number,
  parallel: number,
  dir: string,
): Promise<SoakResult> {
  const endings: Record<Ending, number> = {
    "before-handler": 0,
    interrupted: 0,
    completed: 0,
    "supervisor-killed": 0,
  };
  const result: SoakResult = {
    endings,
    stops: [],
    survivors: [],
    survivorTrials: [],
    running: 0,
    runningInterrupted: 0,
  };
  let next = 0;
  const slug = scenario.name.replace(/[^a-z0-9]+/gi, "-");
  const worker = async (id: number) => {
    for (let index = next++; index < trials; index = next++) {
      const one = await trial(scenario, index, `${dir}/${slug}-${id}`);
      endings[one.ending]++;
      const interrupted = one.ending === "interrupted" || one.ending === "supervisor-killed";
      if (interrupted) result.stops.push(one.stopMs);
      if (!one.startup) {
        result.running++;
        if (interrupted) result.runningInterrupted++;
      }
      result.survivors.push(...one.survivors);
      if (one.survivors.length > 0) {
        result.survivorTrials.push(`${one.label}:\n${describeSurvivors(one.survivors)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, (_, id) => worker(id)));
  return result;
}

/** The p50, p90 and max of `stops`, in ms; `null` when there are none. */
export function percentiles(stops: readonly number[]): { p50: number; p90: number; max: number } | null {
  if (stops.length === 0) return null;
  const sorted = [...stops].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  return { p50: at(0.5), p90: at(0.9), max: sorted.at(-1)! };
}

/** `p50 … ms, p90 … ms, max … ms` of `stops`. */
export function latency(stops: readonly number[]): string {
  const figures = percentiles(stops);
  if (figures === null) return "(no interrupted trial)";
  return `p50 ${figures.p50} ms, p90 ${figures.p90} ms, max ${figures.max} ms`;
}
