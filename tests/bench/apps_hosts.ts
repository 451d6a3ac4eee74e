/**
 * Benchmark of the MCP Apps catalogue on each apps host issue 27 adds (`mcp-use`, `mcp-use-chat`,
 * `copilotkit`) against the reference host in the same bench run: the reference and each host take turns,
 * round after round, and each row is the best wall time of the host ÷ the best of the reference. Target: within
 * 3×. A host not in the registry yet, or not installed, gets a row that says so instead of a number; a run
 * whose results are not all as the host's expectations say (hosts/expectations/) gives no figure either.
 *
 * Run alone: `deno task bench --only apps-hosts`.
 *
 * @module
 */
import { HOSTS } from "../../hosts/registry.ts";
import { REFERENCE_HOST } from "../../hosts/web/reference.ts";
import { shimPath } from "../../hosts/installed.ts";
import { builtInExpectationsDir } from "../../hosts/expectations.ts";
import { binEnvName } from "../../src/exec/find_executable.ts";
import { type ExpectationSet, expectedStatus, loadExpectations } from "../../src/expectations.ts";
import type { AppsHostEntry, HostEntry } from "../../src/host.ts";
import type { Status } from "../../src/outcome.ts";
import { judge } from "../../src/report/verdict.ts";
import { appsDriver } from "../../suite/apps/driver.ts";
import { loadSuiteHtml } from "../../suite/apps/build.ts";
import { headlessSettings } from "../_settings.ts";
import type { BenchRow } from "./_row.ts";

/** The apps hosts of issue 27, in the order they are measured. */
export const NEW_APPS_HOSTS: readonly string[] = ["mcp-use", "mcp-use-chat", "copilotkit"];

/** A host's best catalogue wall may be at most this many times the reference's, same bench run. */
export const RATIO_TARGET = 3;

const TARGET = `≤ ${RATIO_TARGET}× the reference, same bench run`;

/** The figure's name for `host`. */
export function figureOf(host: string): string {
  return `apps catalogue on ${host} ÷ on reference (best wall of each, same bench run)`;
}

/** One whole catalogue run: its wall time, each test's status and duration, and the time before the first test. */
interface TimedRun {
  readonly ms: number;
  readonly statuses: Map<string, Status>;
  readonly durations: Map<string, number>;
  /** From the start of the run to the first test's start: the host's setup (programs, browser, first page). */
  readonly setupMs: number;
}

async function timedRun(entry: HostEntry): Promise<TimedRun> {
  const settings = headlessSettings();
  const tests = appsDriver.list(entry, settings);
  const statuses = new Map<string, Status>();
  const durations = new Map<string, number>();
  const started = performance.now();
  let firstTest: number | null = null;
  await appsDriver.run(entry, tests, settings, {
    started: () => void (firstTest ??= performance.now()),
    finished: (_host, test, outcome, durationMs) => {
      statuses.set(test, outcome.status);
      durations.set(test, durationMs);
    },
  });
  const ms = performance.now() - started;
  if (statuses.size !== tests.length) {
    throw new Error(`${entry.id}: ${tests.length - statuses.size} planned tests were never reported`);
  }
  return { ms, statuses, durations, setupMs: (firstTest ?? started) - started };
}

/** The results of `run` that its host's expectations do not allow, as `test: STATUS (why)`. */
export function unexpectedOf(
  host: string,
  statuses: ReadonlyMap<string, Status>,
  sets: ReadonlyMap<string, ExpectationSet>,
): string[] {
  const out: string[] = [];
  for (const [test, status] of statuses) {
    const expected = expectedStatus(sets, host, test);
    const judged = judge({
      status,
      expected: expected.status,
      ...(expected.statuses ? { expectedAny: [...expected.statuses] } : {}),
    });
    if (!judged.matched) out.push(`${test}: ${status} (${judged.why})`);
  }
  return out;
}

/** How many results had each status, e.g. `48 PASS, 13 SKIP, 6 FAIL`. */
function countsOf(statuses: ReadonlyMap<string, Status>): string {
  const counts = new Map<Status, number>();
  for (const status of statuses.values()) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([status, n]) => `${n} ${status}`).join(", ");
}

/** Where a run's time went: its setup and its slowest tests, e.g. `setup 9.1 s; slowest: a 8.0 s, b 6.2 s`. */
function timeOf(run: TimedRun, slowest = 4): string {
  const tests = [...run.durations].sort((a, b) => b[1] - a[1]).slice(0, slowest);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `setup ${s(run.setupMs)}, tests ${s([...run.durations.values()].reduce((a, b) => a + b, 0))}; ` +
    `slowest: ${tests.map(([test, ms]) => `${test.replace(/^apps\//, "")} ${s(ms)}`).join(", ")}`;
}

/** Why `entry` cannot be measured here, or `null` when it can. */
function unavailable(id: string, entry: HostEntry | undefined): string | null {
  if (entry === undefined) return `"${id}" is not a built-in host yet (issue 27)`;
  if (entry.kind === "cli") return `"${id}" is not an MCP Apps host`;
  if (entry.program === undefined || Deno.env.get(binEnvName(id))) return null;
  try {
    if (Deno.statSync(shimPath(entry.program)).isFile) return null;
  } catch {
    // not installed
  }
  return `"${entry.program}" is not installed: run deno task hosts:install`;
}

/** The row of a host that gives no figure. */
export function notMeasuredRow(host: string, why: string): BenchRow {
  return { figure: figureOf(host), value: "not measured", target: TARGET, met: null, note: why };
}

/** The row of a host measured beside the reference. */
export function ratioRow(host: string, hostMs: number, referenceMs: number, note: string): BenchRow {
  const ratio = hostMs / referenceMs;
  return {
    figure: figureOf(host),
    value: `${ratio.toFixed(2)}×`,
    target: TARGET,
    met: ratio <= RATIO_TARGET,
    note: `${(hostMs / 1000).toFixed(1)} s on ${host}, ${
      (referenceMs / 1000).toFixed(1)
    } s on reference; ${note}`,
  };
}

/**
 * Measures every host of {@linkcode NEW_APPS_HOSTS} the registry has and this machine has installed:
 * `rounds` rounds, each one reference run then one run per host; best wall of each.
 */
export async function appsHostsRows(rounds = 2, hosts: readonly HostEntry[] = HOSTS): Promise<BenchRow[]> {
  const rows = new Map<string, BenchRow>();
  const measured: AppsHostEntry[] = [];
  for (const id of NEW_APPS_HOSTS) {
    const entry = hosts.find((candidate) => candidate.id === id);
    const why = unavailable(id, entry);
    if (why !== null) rows.set(id, notMeasuredRow(id, why));
    else measured.push(entry as AppsHostEntry);
  }
  if (measured.length > 0) {
    await loadSuiteHtml(); // warm esbuild's module cache before the first timed run
    const dir = await builtInExpectationsDir();
    const sets = dir === null ? new Map<string, ExpectationSet>() : await loadExpectations([dir]);
    let reference: TimedRun | null = null;
    const best = new Map<string, TimedRun>();
    const unexpected = new Map<string, string[]>();
    for (let round = 0; round < rounds; round++) {
      const ran = await timedRun(REFERENCE_HOST);
      const failing = [...ran.statuses].filter(([, status]) => status !== "PASS");
      if (failing.length > 0) {
        const list = failing.map(([test, status]) => `${test}: ${status}`).join(", ");
        return NEW_APPS_HOSTS.map((id) =>
          rows.get(id) ?? notMeasuredRow(id, `the reference did not pass the catalogue: ${list}`)
        );
      }
      if (ran.ms < (reference?.ms ?? Infinity)) reference = ran;
      for (const entry of measured) {
        const run = await timedRun(entry);
        const surprises = unexpectedOf(entry.id, run.statuses, sets);
        if (surprises.length > 0) {
          unexpected.set(entry.id, [...(unexpected.get(entry.id) ?? []), ...surprises]);
        }
        if (run.ms < (best.get(entry.id)?.ms ?? Infinity)) best.set(entry.id, run);
      }
    }
    for (const entry of measured) {
      const surprises = unexpected.get(entry.id) ?? [];
      const run = best.get(entry.id)!;
      rows.set(
        entry.id,
        surprises.length > 0
          ? notMeasuredRow(entry.id, `results not as its expectations say: ${surprises.join("; ")}`)
          : ratioRow(
            entry.id,
            run.ms,
            reference!.ms,
            `best of ${rounds}, reference and host in turn; ${run.statuses.size} tests (${
              countsOf(run.statuses)
            }; all as expected); ${entry.id}: ${timeOf(run)}; reference: ${timeOf(reference!)}`,
          ),
      );
    }
  }
  return NEW_APPS_HOSTS.map((id) => rows.get(id)!);
}

if (import.meta.main) {
  for (const row of await appsHostsRows()) {
    console.log(`${row.figure}: ${row.value} (${row.target}) ${row.met ?? ""} — ${row.note}`);
  }
}
