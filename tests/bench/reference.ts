/**
 * Benchmark of the MCP Apps catalogue against the reference host: the wall time of one whole host run (suite
 * bundle cached, listeners, one Chromium, three renders, teardown), and how many browser processes the run
 * started. Targets: ≤ 10 s wall, exactly one browser per run. Every test must PASS, or there is no figure.
 *
 * Run alone: `deno run <task permissions> tests/bench/reference.ts`; `deno task bench` can call
 * {@linkcode benchReference}.
 *
 * @module
 */
import type { BenchFigure } from "./fake_tier.ts";
import { REFERENCE_HOST, type ReferenceHost } from "../../hosts/web/reference.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import { appsDriver } from "../../suite/apps/driver.ts";
import { loadSuiteHtml } from "../../suite/apps/build.ts";
import { headlessSettings } from "../_settings.ts";

/** Measures the figures; `runs` whole runs, the best wall time is reported (the machine is shared). */
export async function benchReference(runs = 2): Promise<BenchFigure[]> {
  await loadSuiteHtml(); // warm esbuild's module cache; the driver builds its own copy once per process
  const browsers: number[] = [];
  const counted: AppsHostEntry = {
    ...REFERENCE_HOST,
    create: () => {
      const host = REFERENCE_HOST.create() as ReferenceHost;
      const setup = host.setup.bind(host);
      host.setup = async (options) => {
        await setup(options);
        if (host.browserPid !== null) browsers.push(host.browserPid);
      };
      return host;
    },
  };
  const settings = headlessSettings();
  const tests = appsDriver.list(counted, settings);
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const failed: string[] = [];
    const before = browsers.length;
    const started = performance.now();
    await appsDriver.run(counted, tests, settings, {
      started: () => {},
      finished: (_host, test, outcome) => {
        if (outcome.status !== "PASS") failed.push(`${test}: ${outcome.status} ${outcome.message ?? ""}`);
      },
    });
    best = Math.min(best, performance.now() - started);
    if (failed.length > 0) {
      throw new Error(`The catalogue did not pass on the reference host:\n${failed.join("\n")}`);
    }
    if (browsers.length - before !== 1) {
      throw new Error(`One run started ${browsers.length - before} browsers`);
    }
  }
  return [
    {
      name: "apps catalogue on reference (best of runs)",
      value: best,
      unit: "ms",
      target: 10_000,
      note:
        `best of ${runs}; ${tests.length} tests, one headless Chromium, three renders (two beside the main one), ` +
        "teardown included",
    },
  ];
}

if (import.meta.main) {
  for (const figure of await benchReference()) {
    const verdict = figure.target === null ? "" : figure.value <= figure.target ? "  ok" : "  OVER TARGET";
    console.log(
      `${figure.name}: ${
        figure.value.toFixed(1)
      } ms (target ≤ ${figure.target} ms)${verdict} — ${figure.note}`,
    );
  }
  console.log(`load average: ${Deno.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
}
