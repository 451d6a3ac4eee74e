/**
 * `deno task bench`: every performance figure of the issues, measured in one run, printed as one Markdown
 * table (`--json` for JSON), each beside its target. A figure that cannot be measured here says why instead of
 * a number. `--update-docs` also writes the table, with date and machine, into docs/performance.md.
 *
 * Figures: the fake tier (wall, cases per second) and fake-host start (`fake_tier.ts`); normaliser throughput
 * and memory growth (`mock_model.ts`); a large recorded claude stream through the real executor, its MB/s and
 * the peak RSS of the process reading it (here); the reference-host catalogue (`reference.ts`); the catalogue
 * on each new apps host ÷ on the reference (`apps_hosts.ts`); the CLI variant
 * table, the reference agent and its broken variants through every CLI tier (`reference_agent.ts`); the mock-model
 * tier per real CLI (here, all at once as a run does) and the ACP tier against it (here); the streaming and capability-behaviour tiers through
 * `conformance run` over every installed real CLI, and their ratio (`cli_tiers.ts`); `conformance --version`
 * start-up (here). `--only GROUP[,GROUP…]` measures some groups alone (names in {@linkcode GROUPS}); with
 * `--update-docs` their rows replace the same rows of the table in docs/performance.md.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { HOSTS } from "../../hosts/registry.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { permissionFlags } from "../../src/permissions.ts";
import { acpTier } from "../../suite/cli/acp.ts";
import { isRealCli, mockModelTier } from "../../suite/cli/mock_model.ts";
import { sampleStatusPeak, sampleVmHwm } from "../robustness/_harness.ts";
import type { BenchRow } from "./_row.ts";
import { cliTierRows } from "./cli_tiers.ts";
import { executorCostRows } from "./executor_cost.ts";
import { benchFakeTier } from "./fake_tier.ts";
import { benchNormalizer } from "./mock_model.ts";
import { appsHostsRows } from "./apps_hosts.ts";
import { benchReference } from "./reference.ts";
import { benchAgentTable, TABLE_TARGET_MS } from "./reference_agent.ts";
import { FAULT_MULTIPLIER, HOSTS_AT_ONCE } from "../hosts/cli/_agent_table.ts";
import { headlessSettings } from "../_settings.ts";
import { checkArtifact } from "../../tools/compile.ts";
import { percentiles, soak, soakScenarios } from "../robustness/_soak.ts";

export type { BenchRow } from "./_row.ts";

const ROOT = new URL("../../", import.meta.url);
const path = (relative: string) => decodeURIComponent(new URL(relative, ROOT).pathname);
const STREAM_MB = 256;

function fixed(value: number, digits = 0): string {
  return value.toFixed(digits);
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n").slice(0, 3).join(" ").slice(
    0,
    300,
  );
}

function notMeasured(figure: string, target: string, why: string): BenchRow {
  return { figure, value: "not measured", target, met: null, note: why };
}

async function fakeTierRows(): Promise<BenchRow[]> {
  try {
    const figures = await benchFakeTier();
    const rows: BenchRow[] = figures.map((f) => ({
      figure: f.name,
      value: `${fixed(f.value)} ${f.unit}`,
      target: f.target === null ? "reference" : `≤ ${f.target} ${f.unit}`,
      met: f.target === null ? null : f.value <= f.target,
      note: f.note,
    }));
    const tier = figures.find((f) => f.name.startsWith("fake tier wall"));
    const cases = Number(/(\d+) cases/.exec(tier?.note ?? "")?.[1] ?? NaN);
    if (tier && Number.isFinite(cases)) {
      const perSecond = cases / (tier.value / 1000);
      const floor = cases / 2;
      rows.push({
        figure: "fake tier cases per second",
        value: `${fixed(perSecond, 1)} /s`,
        target: `≥ ${fixed(floor, 1)} /s (${cases} cases in ≤ 2 s)`,
        met: perSecond >= floor,
        note: "from the same best run",
      });
    }
    return rows;
  } catch (error) {
    return [notMeasured("fake tier wall and fake-host start", "≤ 2 000 ms; ≤ 50 ms", reason(error))];
  }
}

/** The claude normaliser rows: its throughput, and memory while streaming through the line reader. */
export async function normalizerRows(): Promise<BenchRow[]> {
  try {
    return (await benchNormalizer(STREAM_MB)).map((f) => ({
      figure: f.name,
      value: `${f.value} ${f.unit}`,
      target: f.target,
      met: f.met,
      note: f.note ?? "line reader and claude normaliser in-process",
    }));
  } catch (error) {
    return [notMeasured("claude normaliser throughput", "≥ 200 MB/s", reason(error))];
  }
}

/**
 * A file of `mb` MB of recorded claude lines (result lines held back to the very end), by repetition: at
 * least one pass over the recorded lines. Returns its path and its longest line in bytes.
 */
async function largeClaudeStream(mb: number): Promise<{ file: string; longest: number }> {
  const dir = path("tests/fixtures/cli/claude-code/");
  const lines: string[] = [];
  let result = "";
  for await (const fixture of Deno.readDir(dir)) {
    const text = await Deno.readTextFile(`${dir}${fixture.name}/stdout.jsonl`).catch(() => "");
    for (const line of text.split("\n")) {
      if (!line.startsWith("{")) continue;
      if (line.includes('"type":"result"')) result ||= line;
      else lines.push(line);
    }
  }
  if (lines.length === 0) throw new Error(`No recorded claude stream under ${dir}`);
  const file = await Deno.makeTempFile({ prefix: "conformance-bench-", suffix: ".jsonl" });
  const block = new TextEncoder().encode(`${lines.join("\n")}\n`);
  using handle = await Deno.open(file, { write: true });
  for (let written = 0; written === 0 || written < mb * 1024 * 1024; written += block.length) {
    for (let at = 0; at < block.length;) at += await handle.write(block.subarray(at));
  }
  await handle.write(new TextEncoder().encode(`${result}\n`));
  const longest = Math.max(...[...lines, result].map((line) => new TextEncoder().encode(line).length));
  return { file, longest };
}

/**
 * Samples `pid`'s anonymous resident memory (RssAnon: its own allocations, not the pages of the `deno` binary
 * it maps) every `intervalMs` until it exits; `peak` is the largest sample, in bytes.
 */
function sampleRssAnon(pid: number, intervalMs: number): { peak: number; stopped: Promise<void> } {
  return sampleStatusPeak(pid, "RssAnon", intervalMs);
}

/**
 * Runs `_executor_stream.ts` on `file` in a child of its own: its summary line, its peak resident set
 * (VmHWM) and its peak anonymous resident memory (sampled).
 */
async function streamThroughExecutor(
  file: string,
): Promise<{ result: StreamSummary; peak: number; peakAnon: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    detached: true,
    args: ["run", "--quiet", ...permissionFlags(["cat"]), path("tests/bench/_executor_stream.ts"), file],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const sampler = sampleVmHwm(child.pid, 20);
  const anon = sampleRssAnon(child.pid, 10);
  const output = await child.output();
  await Promise.all([sampler.stopped, anon.stopped]);
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
  const result = JSON.parse(new TextDecoder().decode(output.stdout));
  return { result, peak: sampler.peak, peakAnon: anon.peak };
}

/** What `_executor_stream.ts` prints. */
interface StreamSummary {
  readonly bytes: number;
  readonly ms: number;
  readonly cpuMs: number;
  readonly kept: number;
  readonly dropped: number;
  readonly rawBytes: number;
}

/**
 * A large recorded claude stream through the real executor (`cat` child): throughput, peak RSS, and how much
 * the stream's length adds to the peak. The growth is taken beside the same child reading one pass of the
 * recorded lines (about 25 KB), so the runtime, the modules, the spawn and a short stream are the baseline;
 * what the executor keeps of a long stream must add no more than 16 MiB + 2× the longest line. It is the
 * growth of anonymous memory (RssAnon): a long stream also pages in more of the `deno` binary (V8's optimising
 * compiler runs once code is hot), file pages shared with every deno process and not held by the executor;
 * the VmHWM growth, those pages included, is in the note.
 */
export async function executorStreamRows(): Promise<BenchRow[]> {
  const figure = `${STREAM_MB} MB recorded claude stream through the executor`;
  const files: string[] = [];
  try {
    const short = await largeClaudeStream(0);
    files.push(short.file);
    const long = await largeClaudeStream(STREAM_MB);
    files.push(long.file);
    const baseline = await streamThroughExecutor(short.file);
    const { result, peak, peakAnon } = await streamThroughExecutor(long.file);
    const mib = (bytes: number) => bytes / 1024 / 1024;
    const mb = mib(result.bytes);
    const peakMiB = mib(peak);
    const growthMiB = mib(peakAnon - baseline.peakAnon);
    const allowedMiB = 16 + 2 * mib(long.longest);
    return [
      {
        figure: `${figure}: throughput`,
        value: `${fixed(mb / (result.ms / 1000))} MB/s`,
        target: "≥ 200 MB/s",
        met: mb / (result.ms / 1000) >= 200,
        note:
          `${fixed(mb / (result.cpuMs / 1000))} MB per CPU-second; \`cat\` child, line reader, normaliser, ` +
          `event caps (${result.kept} events kept, ${result.dropped} counted)`,
      },
      {
        figure: `${figure}: peak RSS`,
        value: `${fixed(peakMiB, 1)} MiB`,
        target: "≤ 200 MiB (the harness under hostile output)",
        met: peakMiB <= 200,
        note: "VmHWM of the whole reading process, sampled every 20 ms",
      },
      {
        figure: `${figure}: peak RSS growth over a short stream`,
        value: `${fixed(growthMiB, 1)} MiB`,
        target: `≤ ${fixed(allowedMiB, 1)} MiB (16 MiB + 2× the longest line, ${long.longest} B)`,
        met: growthMiB <= allowedMiB,
        note: `anonymous memory, beside ${fixed(mib(baseline.peakAnon), 1)} MiB reading ` +
          `${baseline.result.bytes} B; VmHWM ${fixed(mib(peak - baseline.peak), 1)} MiB over ` +
          `${fixed(mib(baseline.peak), 1)} MiB; ${fixed(result.rawBytes / 1024)} KiB of raw lines kept`,
      },
    ];
  } catch (error) {
    return [notMeasured(figure, "≥ 200 MB/s; ≤ 200 MiB; growth ≤ 16 MiB + 2× longest line", reason(error))];
  } finally {
    for (const file of files) await Deno.remove(file).catch(() => {});
  }
}

async function referenceRows(): Promise<BenchRow[]> {
  try {
    // Best of three: one run on a shared machine measures the neighbours as much as the code.
    return (await benchReference(3)).map((f) => ({
      figure: f.name,
      value: `${fixed(f.value)} ${f.unit}`,
      target: `≤ ${f.target} ${f.unit}`,
      met: f.target === null ? null : f.value <= f.target,
      note: f.note,
    }));
  } catch (error) {
    return [notMeasured("apps catalogue on reference", "≤ 10 000 ms", reason(error))];
  }
}

/** The CLI variant table, as its gate runs it (tests/hosts/cli/reference_agent_variants_test.ts). */
async function agentTableRows(): Promise<BenchRow[]> {
  const figure = "reference agent and its variants through every CLI tier (no browser)";
  const target = `≤ ${TABLE_TARGET_MS / 1000} s`;
  try {
    const { ms, hosts, tests, mismatched, why } = await benchAgentTable();
    for (const line of why) console.error(`not as listed: ${line}`);
    return [{
      figure,
      value: `${fixed(ms / 1000, 1)} s`,
      target,
      met: ms <= TABLE_TARGET_MS && mismatched.length === 0,
      note: `${hosts} hosts, ${tests} results, ${HOSTS_AT_ONCE} hosts at a time (faults at ` +
        `--timeout-multiplier ${FAULT_MULTIPLIER}); ` +
        (mismatched.length === 0 ? "every host as listed" : `not as listed: ${mismatched.join(", ")}`),
    }];
  } catch (error) {
    return [notMeasured(figure, target, reason(error))];
  }
}

/** Interrupts of the fake tier at a random moment, half at `--timeout-multiplier 20`: signal to exit, in ms. */
const INTERRUPT_TRIALS = 20;

/** A small interrupt soak (tests/robustness/_soak.ts): how long from SIGINT/SIGTERM to the harness's exit. */
export async function interruptRows(): Promise<BenchRow[]> {
  const figure = "interrupt: signal to exit (p50 / p90 / max)";
  const target = "p90 ≤ 1 000 ms; max ≤ 2 000 ms; 0 survivors";
  const dir = await Deno.makeTempDir({ prefix: "conformance-bench-soak-" });
  try {
    const hosts = ["--host", "fake,fake-minimal"];
    const x1 = await soak({ name: "x1", args: hosts, runningMs: 2_500 }, INTERRUPT_TRIALS / 2, 2, dir);
    const x20 = await soak(
      { name: "x20", args: [...hosts, "--timeout-multiplier", "20"], runningMs: 2_500 },
      INTERRUPT_TRIALS / 2,
      2,
      dir,
    );
    const stops = [...x1.stops, ...x20.stops];
    const survivors = x1.survivors.length + x20.survivors.length;
    const figures = percentiles(stops);
    if (figures === null) return [notMeasured(figure, target, "no trial interrupted a running run")];
    return [{
      figure,
      value: `${figures.p50} / ${figures.p90} / ${figures.max} ms`,
      target,
      met: figures.p90 <= 1_000 && figures.max <= 2_000 && survivors === 0,
      note: `${stops.length} interrupts in ${INTERRUPT_TRIALS} trials of the fake tier (half at ` +
        `--timeout-multiplier 20), SIGINT or SIGTERM at random, 2 at once; ${survivors} survivors`,
    }];
  } catch (error) {
    return [notMeasured(figure, target, reason(error))];
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Trials of each soak scenario for the stop-time row, one at a time (two at once load the machine). */
const SCENARIO_TRIALS = 4;

/**
 * The interrupt soak's stop times (tests/robustness/interrupt_soak_test.ts asserts survivors, reports and exit
 * codes only): every scenario of tests/robustness/_soak.ts, {@linkcode SCENARIO_TRIALS} trials each, with the
 * load average beside the figures, since at load they measure the machine as much as the harness.
 */
export async function soakStopRows(): Promise<BenchRow[]> {
  const figure = "stop after SIGINT, every soak scenario (p50 / p90 / max)";
  const target = "p90 ≤ 1 s";
  const dir = await Deno.makeTempDir({ prefix: "conformance-bench-soak-" });
  try {
    const loadBefore = Deno.loadavg();
    const stops: number[] = [];
    let survivors = 0;
    let trials = 0;
    for (const scenario of (await soakScenarios()).filter((one) => !one.ignore)) {
      const result = await soak(scenario, SCENARIO_TRIALS, 1, dir);
      stops.push(...result.stops);
      survivors += result.survivors.length;
      trials += SCENARIO_TRIALS;
    }
    const figures = percentiles(stops);
    const load = `load ${loadBefore.map((l) => fixed(l, 1)).join(" ")} before, ${
      Deno.loadavg().map((l) => fixed(l, 1)).join(" ")
    } after`;
    if (figures === null) {
      return [notMeasured(figure, target, `no trial interrupted a running run (${load})`)];
    }
    return [{
      figure,
      value: `${figures.p50} / ${figures.p90} / ${figures.max} ms`,
      target,
      met: figures.p90 <= 1_000,
      note:
        `${stops.length} interrupts in ${trials} trials, ${SCENARIO_TRIALS} per scenario, one at a time ` +
        `(the supervisor's SIGKILL 1 s after SIGINT included); ${survivors} survivors; ${load}`,
    }];
  } catch (error) {
    return [notMeasured(figure, target, reason(error))];
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Every installed real CLI's mock-model streaming test, all at once as a run does; each timed alone. */
async function mockModelRows(): Promise<BenchRow[]> {
  const entries = HOSTS.filter((entry): entry is CliHostEntry =>
    entry.kind === "cli" && isRealCli(entry) && !entry.testOnly
  );
  const settings = headlessSettings({ mockModel: true });
  const started = performance.now();
  const rows = await Promise.all(entries.map(async (entry): Promise<BenchRow> => {
    const figure = `mock-model streaming, ${entry.id}`;
    try {
      if (await entry.runner.detect() === null) {
        return notMeasured(
          figure,
          "≤ 60 s",
          `"${entry.runner.binary}" is not installed: deno task hosts:install`,
        );
      }
      const test = { id: "cli/mock-model/streaming" };
      const outcome = await mockModelTier.run(entry, test, settings, settings.signal);
      const seconds = (performance.now() - started) / 1000;
      return {
        figure,
        value: `${fixed(seconds, 1)} s`,
        target: "≤ 60 s",
        met: seconds <= 60 && outcome.status === "PASS",
        note: outcome.status === "PASS"
          ? "PASS"
          : `${outcome.status}: ${(outcome.message ?? "").slice(0, 120)}`,
      };
    } catch (error) {
      return notMeasured(figure, "≤ 60 s", reason(error));
    }
  }));
  const measured = rows.filter((row) => row.met !== null);
  const total = (performance.now() - started) / 1000;
  rows.push({
    figure: `mock-model tier, all ${entries.length} real CLIs at once`,
    value: measured.length > 0 ? `${fixed(total, 1)} s` : "not measured",
    target: "≤ 60 s",
    met: measured.length === entries.length ? total <= 60 && rows.every((row) => row.met) : null,
    note: `${measured.length} of ${entries.length} installed`,
  });
  rows.push(await acpTierRow(entries, measured.length > 0 ? total : null));
  return rows;
}

/**
 * The ACP tier (`cli/acp/*`) over every installed agent that speaks ACP, all at once as a run does (the tier's
 * run slots bound it), against the mock-model streaming tier's wall of the same bench run: issue 26's "within
 * 2×". An agent whose cases all SKIP (no ACP, no way to the mock model, not installed) is not counted.
 */
async function acpTierRow(
  entries: readonly CliHostEntry[],
  streamingSeconds: number | null,
): Promise<BenchRow> {
  const figure = "ACP tier, every installed agent at once ÷ the mock-model streaming tier";
  const target = "≤ 2×";
  if (streamingSeconds === null) return notMeasured(figure, target, "no real CLI is installed");
  const settings = headlessSettings({ mockModel: true });
  const speakers = entries.filter((entry) => entry.runner.acp !== undefined);
  const started = performance.now();
  const perAgent = await Promise.all(speakers.map(async (entry) => {
    const outcomes = await Promise.all(
      acpTier.list(entry, settings).map((test) => acpTier.run(entry, test, settings, settings.signal)),
    );
    return { id: entry.id, outcomes };
  }));
  const seconds = (performance.now() - started) / 1000;
  const ran = perAgent.filter((agent) => agent.outcomes.some((outcome) => outcome.status !== "SKIP"));
  if (ran.length === 0) return notMeasured(figure, target, "no installed agent ran an ACP case");
  const counts = new Map<string, number>();
  for (const outcome of ran.flatMap((agent) => agent.outcomes)) {
    counts.set(outcome.status, (counts.get(outcome.status) ?? 0) + 1);
  }
  const ratio = seconds / streamingSeconds;
  return {
    figure,
    value: `${fixed(seconds, 1)} s ÷ ${fixed(streamingSeconds, 1)} s = ${fixed(ratio, 2)}×`,
    target,
    met: ratio <= 2,
    note: `${ran.length} agents (${ran.map((agent) => agent.id).join(", ")}); ${
      [...counts].map(([status, count]) => `${count} ${status}`).join(", ")
    }`,
  };
}

async function medianMs(runs: number, binary: string, args: readonly string[]): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    const output = await new Deno.Command(binary, {
      detached: true,
      args: [...args],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    })
      .output();
    if (!output.success) throw new Error(`"${binary} ${args.join(" ")}" exited ${output.code}`);
    if (run > 0) times.push(performance.now() - started); // the first run warms the module cache
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function startupRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const runs = 11;
  try {
    const source = await medianMs(runs, Deno.execPath(), [
      "run",
      "--quiet",
      ...permissionFlags(),
      path("main.ts"),
      "--version",
    ]);
    const bare = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(bare, "console.log(1);\n");
    const reference = await medianMs(runs, Deno.execPath(), ["run", "--quiet", bare]).finally(() =>
      Deno.remove(bare)
    );
    rows.push({
      figure: "`deno run main.ts --version` start-up (median)",
      value: `${fixed(source)} ms`,
      target: `instant: within 2× a bare \`deno run\` (${fixed(reference)} ms here)`,
      met: source <= 2 * reference,
      note: `${runs} runs; --version must stay instant; ` +
        "the compiled binary gets its own row when dist/conformance is built",
    });
  } catch (error) {
    rows.push(notMeasured("`deno run main.ts --version` start-up", "instant", reason(error)));
  }
  const binary = path("dist/conformance");
  const built = await Deno.stat(binary).then((info) => info.isFile, () => false);
  if (built) rows.push(await compiledStartupRow(binary, runs));
  return rows;
}

/**
 * The compiled binary's `--version` start-up, or no figure when the binary is not the harness (one built on
 * a stand-in runtime is Deno itself: its start-up says nothing about the harness's).
 */
export async function compiledStartupRow(binary: string, runs = 11): Promise<BenchRow> {
  const figure = "`dist/conformance --version` start-up";
  const check = await checkArtifact(binary);
  if (!check.ok) return notMeasured(figure, "instant", `${check.why}; no figure for it`);
  try {
    const ms = await medianMs(runs, binary, ["--version"]);
    return {
      figure: `${figure} (median)`,
      value: `${fixed(ms)} ms`,
      target: "instant",
      met: null,
      note: `${runs} runs of the compiled binary (${check.version})`,
    };
  } catch (error) {
    return notMeasured(figure, "instant", reason(error));
  }
}

/** The machine, for the table's heading. */
function machine(): string {
  const memory = Deno.systemMemoryInfo();
  return `${Deno.build.os} ${Deno.osRelease()}, ${navigator.hardwareConcurrency} CPUs, ${
    fixed(memory.total / 1024 ** 3)
  } GiB, Deno ${Deno.version.deno}`;
}

/** The table as Markdown. */
export function renderMarkdown(rows: readonly BenchRow[], heading: string): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const lines = [
    heading,
    "",
    "| figure | measured | target | met | note |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map((row) =>
      `| ${cell(row.figure)} | ${cell(row.value)} | ${cell(row.target)} | ${
        row.met === null ? "–" : row.met ? "yes" : "no"
      } | ${cell(row.note)} |`
    ),
  ];
  return `${lines.join("\n")}\n`;
}

const BEGIN = "<!-- bench:begin -->";
const END = "<!-- bench:end -->";

/** Replaces the table between the bench markers of docs/performance.md (appends it when they are missing). */
async function updatePerformanceDoc(table: string, doc = path("docs/performance.md")): Promise<void> {
  const text = await Deno.readTextFile(doc);
  const block =
    `${BEGIN}\nLatest \`deno task bench\` (written by \`deno task bench --update-docs\`):\n\n${table}${END}`;
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  const next = begin >= 0 && end > begin
    ? text.slice(0, begin) + block + text.slice(end + END.length)
    : `${text.trimEnd()}\n\n${block}\n`;
  await Deno.writeTextFile(doc, next);
}

/** The groups of rows, in the order the bench measures them: `--only` names some of them. */
export const GROUPS: Readonly<Record<string, () => Promise<BenchRow[]>>> = {
  startup: startupRows,
  "fake-tier": fakeTierRows,
  normalizer: normalizerRows,
  "executor-stream": executorStreamRows,
  "executor-cost": executorCostRows,
  reference: referenceRows,
  "apps-hosts": () => appsHostsRows(),
  "reference-agent": agentTableRows,
  "mock-model": mockModelRows,
  "cli-run": cliTierRows,
  interrupt: async () => [...await interruptRows(), ...await soakStopRows()],
};

/** The groups `--only` names, checked; every group without it. */
export function selectedGroups(only: string | undefined): string[] {
  if (only === undefined) return Object.keys(GROUPS);
  const names = only.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(name in GROUPS));
  if (names.length === 0 || unknown.length > 0) {
    throw new TypeError(
      `Unknown bench group "${unknown[0] ?? only}": name one or more of ${Object.keys(GROUPS).join(", ")}`,
    );
  }
  return Object.keys(GROUPS).filter((name) => names.includes(name));
}

/** Splits a table line of docs/performance.md into its trimmed cells (an escaped `\\|` stays in its cell). */
function cellsOf(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/**
 * Puts rows measured alone (`--only`) into the table of docs/performance.md: each replaces the row of the same
 * figure, or is appended, and its note says when and under what load it was measured, since the table's
 * heading describes the full run the other rows come from.
 */
export async function updatePerformanceRows(
  rows: readonly BenchRow[],
  when: string,
  doc = path("docs/performance.md"),
): Promise<void> {
  const text = await Deno.readTextFile(doc);
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  const dated = rows.map((row) => ({ ...row, note: `measured alone (--only) ${when}; ${row.note}` }));
  if (begin < 0 || end < begin) {
    await updatePerformanceDoc(renderMarkdown(dated, `Benchmark rows measured alone ${when}.`), doc);
    return;
  }
  const lines = text.slice(begin, end).split("\n");
  const rendered = renderMarkdown(dated, "").split("\n").filter((line) => line.startsWith("| ")).slice(2);
  let append = lines.findLastIndex((line) => line.startsWith("|")) + 1;
  for (const [index, row] of rows.entries()) {
    const at = lines.findIndex((line) =>
      line.startsWith("|") && cellsOf(line)[0] === row.figure.replaceAll("|", "\\|")
    );
    if (at >= 0) lines[at] = rendered[index]!;
    else lines.splice(append++, 0, rendered[index]!);
  }
  await Deno.writeTextFile(doc, text.slice(0, begin) + lines.join("\n") + text.slice(end));
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { json: { type: "boolean" }, "update-docs": { type: "boolean" }, only: { type: "string" } },
  });
  const groups = selectedGroups(values.only);
  const date = new Date().toISOString();
  const loadBefore = Deno.loadavg();
  const rows: BenchRow[] = [];
  for (const group of groups) rows.push(...await GROUPS[group]!());
  const load = `load average ${loadBefore.map((l) => fixed(l, 1)).join(" ")} at start, ${
    Deno.loadavg().map((l) => fixed(l, 1)).join(" ")
  } at end`;
  const heading = `Benchmark of ${date.slice(0, 10)} (${date}) on ${machine()}; ${load}.`;
  const table = renderMarkdown(rows, heading);
  if (values.json) console.log(JSON.stringify({ date, machine: machine(), load, rows }, null, 2));
  else console.log(table);
  if (values["update-docs"]) {
    if (values.only === undefined) await updatePerformanceDoc(table);
    else await updatePerformanceRows(rows, `on ${date} (${load})`);
  }
}
