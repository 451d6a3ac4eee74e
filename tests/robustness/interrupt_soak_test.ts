/**
 * Interrupt soak: `conformance run` is sent SIGINT or SIGTERM at a random moment, many times, across the fake
 * tier and the reference host. Every trial must end with no process of the run left (counted by the run tag
 * in `/proc/<pid>/environ`), an exit of 130/143 when the run's own handler caught the signal, and a
 * `report.json` that is either the previous trial's file untouched or a complete, valid report (marked
 * incomplete when the run was cut short, with no FAIL, ERROR or TIMEOUT for a test it stopped). Each scenario
 * prints the stop times (p50, p90, max). Trials: `CONFORMANCE_SOAK_TRIALS` (default 50, at least 50 in CI).
 */
import assert from "node:assert/strict";
import { parseReport } from "../../src/report/schema.ts";
import { describeSurvivors, processesTagged, spawnHarness, type TaggedProcess } from "./_harness.ts";
import { BLAMING } from "./_interrupt.ts";

const TRIALS = Math.max(2, Number(Deno.env.get("CONFORMANCE_SOAK_TRIALS") ?? 50));
/** A tenth of the trials interrupt the reference host (browser + servers; slow to start), the rest the fake tier. */
const REFERENCE_TRIALS = Math.max(1, Math.round(TRIALS / 10));
/** Longest a signalled run may take to stop: kill grace and group checks on a loaded machine. */
const STOP_DEADLINE_MS = 30_000;
/** Trials at once: `CONFORMANCE_SOAK_PARALLEL` (default 2). */
const PARALLEL = Math.max(1, Number(Deno.env.get("CONFORMANCE_SOAK_PARALLEL") ?? 2));

interface Scenario {
  readonly name: string;
  readonly trials: number;
  readonly hosts: string;
  /** How long after the run's first output the signal may land (most trials), in ms: about the run's length. */
  readonly runningMs: number;
}

/** A fifth of the trials signal at any moment from spawn, start-up included (module loading, planning). */
const STARTUP_SHARE = 0.2;
const STARTUP_MS = 3_000;
/** The pretty reporter's first line says the run has started; the json report is what is checked. */
const REPORTERS = ["--reporter", "pretty", "--reporter", "json", "--out"] as const;

const dir = Deno.makeTempDirSync({ prefix: "conformance-soak-" });

const SCENARIOS: readonly Scenario[] = [
  {
    name: "fake tier",
    trials: TRIALS - REFERENCE_TRIALS,
    hosts: "fake,fake-minimal",
    runningMs: 2_500,
  },
  {
    name: "reference host",
    trials: REFERENCE_TRIALS,
    hosts: "reference",
    runningMs: 6_000,
  },
];

type Ending = "before-handler" | "interrupted" | "completed";

interface Trial {
  readonly ending: Ending;
  /** From the signal to the harness's exit. */
  readonly stopMs: number;
  readonly survivors: readonly TaggedProcess[];
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

async function trial(scenario: Scenario, index: number, out: string): Promise<Trial> {
  const reportPath = `${out}/report.json`;
  const previous = await readOrNull(reportPath);
  const signal: Deno.Signal = Math.random() < 0.5 ? "SIGINT" : "SIGTERM";
  const startup = Math.random() < STARTUP_SHARE;
  const delayMs = Math.round(Math.random() * (startup ? STARTUP_MS : scenario.runningMs));
  const label = `${scenario.name} trial ${index + 1}: ${signal} ${delayMs} ms after ${
    startup ? "spawn" : "the first output"
  }`;

  await using harness = spawnHarness(["run", "--host", scenario.hosts, ...REPORTERS, out]);
  if (!startup) await harness.firstOutput;
  const early = await Promise.race([
    harness.done.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), delayMs)),
  ]);
  // A terminal's Ctrl-C signals the foreground process group: the harness is its group's leader.
  const signalled = performance.now();
  if (!early) Deno.kill(-harness.pid, signal);
  const timer = setTimeout(() => {
    try {
      Deno.kill(-harness.pid, "SIGKILL");
    } catch { /* gone */ }
  }, STOP_DEADLINE_MS);
  const exit = await harness.done.finally(() => clearTimeout(timer));
  const stopMs = Math.round(performance.now() - signalled);
  const survivors = await processesTagged(harness.runId);

  const text = await readOrNull(reportPath);
  const expectedCode = signal === "SIGINT" ? 130 : 143;
  let ending: Ending;
  if (text === null || text === previous) {
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
      const blamed = report.results.filter((result) => BLAMING.has(result.status));
      assert.deepEqual(
        blamed.map(({ test, status, message }) => `${status} ${test}: ${message.slice(0, 120)}`),
        [],
        `${label}: the interrupt was blamed on the host`,
      );
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
  return { ending, stopMs, survivors };
}

/** p50, p90 and max of the interrupted trials' stop times. */
function latency(stops: readonly number[]): string {
  if (stops.length === 0) return "(no interrupted trial)";
  const sorted = [...stops].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  return `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted.at(-1)} ms`;
}

for (const scenario of SCENARIOS) {
  Deno.test(`interrupt soak, ${scenario.name}: ${scenario.trials} random SIGINT/SIGTERM, 0 survivors`, async () => {
    const endings: Record<Ending, number> = { "before-handler": 0, interrupted: 0, completed: 0 };
    const survivors: TaggedProcess[] = [];
    let next = 0;
    const stops: number[] = [];
    // Trials run a few at a time, each worker with its own report folder (the "previous report" check).
    const worker = async (id: number) => {
      for (let index = next++; index < scenario.trials; index = next++) {
        const result = await trial(scenario, index, `${dir}/${scenario.hosts}-${id}`);
        endings[result.ending]++;
        if (result.ending === "interrupted") stops.push(result.stopMs);
        survivors.push(...result.survivors);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, (_, id) => worker(id)));
    console.log(
      `${scenario.name}: ${JSON.stringify(endings)}, stop after the signal ${latency(stops)}, ` +
        `survivors ${survivors.length}`,
    );
    assert.equal(survivors.length, 0, `processes survived their run:\n${describeSurvivors(survivors)}`);
    assert.ok(
      endings.interrupted >= Math.ceil(scenario.trials / 2),
      `only ${endings.interrupted} of ${scenario.trials} trials interrupted a running run: ` +
        `the signal window no longer matches the run's length (${JSON.stringify(endings)})`,
    );
  });
}

Deno.test({
  name: "interrupt soak: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
