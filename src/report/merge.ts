/**
 * Merging shard and host reports into one: how a run spread over CI machines (`--shard I/N`) or over hosts
 * becomes one board. Reports must come from the same suite revision, and no (host, test) pair may appear
 * twice.
 *
 * @module
 */
import { summarize, type TestResult } from "../outcome.ts";
import { ReportError } from "./report_error.ts";
import { REPORT_SCHEMA, type ReportHost, type RunInfo, type RunReport } from "./schema.ts";

/** A report and the file it came from, named in errors. */
export interface SourcedReport {
  /** The parsed report. */
  report: RunReport;
  /** Its file name, quoted in errors. */
  source: string;
}

/**
 * Merges reports into one.
 *
 * - `run.suite` must be the same everywhere; `run.startedAt` is the earliest start and `run.durationMs` the
 *   span to the latest end; differing harness, OS or Deno values are listed, comma-separated.
 * - `run.shard` is `1/1` when, for every shard count N seen, all shards 1..N are present; otherwise the shards
 *   present are listed and the merged report is marked incomplete. An incomplete input makes it incomplete.
 * - Hosts are the union, in order of first appearance; results are grouped by host in that order.
 *
 * @throws {ReportError} No input, differing suite revisions (naming both revisions and files), a host with two
 *   kinds, or a (host, test) pair in two reports.
 * @example
 * ```ts
 * import { mergeReports } from "./merge.ts";
 * import { parseReport } from "./schema.ts";
 * const sources = ["shard1/report.json", "shard2/report.json"];
 * const merged = mergeReports(
 *   await Promise.all(sources.map(async (source) => ({ source, report: parseReport(await Deno.readTextFile(source), source) }))),
 * );
 * ```
 */
export function mergeReports(inputs: readonly SourcedReport[]): RunReport {
  const first = inputs[0];
  if (!first) throw new ReportError("No report to merge: pass at least one report.json");
  const sources = inputs.map((input) => input.source);
  const twice = sources.find((source, index) => sources.indexOf(source) !== index);
  if (twice !== undefined) {
    throw new ReportError(`Report "${twice}" is given twice: pass each shard or host report once`, twice);
  }
  for (const input of inputs) {
    if (input.report.run.suite !== first.report.run.suite) {
      throw new ReportError(
        `Reports "${first.source}" (suite ${first.report.run.suite}) and "${input.source}" ` +
          `(suite ${input.report.run.suite}) come from different suite revisions: ` +
          "merge only reports of the same conformance version, or re-run the older one",
        input.source,
      );
    }
  }

  const hosts = new Map<string, { host: ReportHost; source: string; versions: Set<string> }>();
  for (const { report, source } of inputs) {
    for (const host of report.hosts) {
      const seen = hosts.get(host.id);
      if (!seen) {
        hosts.set(host.id, {
          host: { ...host },
          source,
          versions: new Set(host.version ? [host.version] : []),
        });
        continue;
      }
      if (seen.host.kind !== host.kind) {
        throw new ReportError(
          `Host "${host.id}" is a ${seen.host.kind} host in "${seen.source}" but a ${host.kind} host in ` +
            `"${source}": these reports describe different hosts; merge them separately`,
          source,
        );
      }
      if (host.version) seen.versions.add(host.version);
      if (host.testOnly) seen.host.testOnly = true;
    }
  }
  const hostOrder = [...hosts.keys()];
  const mergedHosts = [...hosts.values()].map(({ host, versions }) => ({
    ...host,
    version: versions.size === 0 ? null : [...versions].join(", "),
  }));

  const owner = new Map<string, string>();
  const results: TestResult[] = [];
  for (const { report, source } of inputs) {
    for (const result of report.results) {
      const key = `${result.host}\u0000${result.test}`;
      const other = owner.get(key);
      if (other !== undefined) {
        throw new ReportError(
          `Host "${result.host}" test "${result.test}" appears in both "${other}" and "${source}": ` +
            "pass each shard or host report once",
          source,
        );
      }
      owner.set(key, source);
      results.push(result);
    }
  }
  const rank = new Map(hostOrder.map((id, index) => [id, index]));
  const ordered = results
    .map((result, index) => ({ result, index }))
    .sort((a, b) => (rank.get(a.result.host)! - rank.get(b.result.host)!) || a.index - b.index)
    .map(({ result }) => result);

  return {
    schema: REPORT_SCHEMA,
    run: mergeRun(inputs.map(({ report }) => report.run)),
    hosts: mergedHosts,
    results: ordered,
    summary: summarize(ordered),
  };
}

function mergeRun(runs: readonly RunInfo[]): RunInfo {
  const starts = runs.map((run) => Date.parse(run.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...runs.map((run, index) => starts[index]! + run.durationMs));
  const startedAt = runs[starts.indexOf(start)]!.startedAt;
  const { shard, complete } = mergeShards(runs.map((run) => run.shard));
  const run: RunInfo = {
    harness: distinct(runs.map((r) => r.harness)),
    suite: runs[0]!.suite,
    startedAt,
    durationMs: Math.max(0, end - start),
    os: distinct(runs.map((r) => r.os)),
    deno: distinct(runs.map((r) => r.deno)),
    shard,
  };
  if (!complete || runs.some((r) => r.incomplete)) run.incomplete = true;
  const interrupted = runs.flatMap((r) => r.interrupted ?? []);
  if (interrupted.length > 0) run.interrupted = interrupted;
  const commands = new Set(runs.map((r) => r.command));
  const command = runs[0]!.command;
  if (commands.size === 1 && command !== undefined) run.command = command;
  return run;
}

/** Whether the shards cover every slice of each shard count seen, and how to label the merged report. */
function mergeShards(labels: readonly string[]): { shard: string; complete: boolean } {
  const seen = new Map<number, Set<number>>();
  for (const label of labels.flatMap((l) => l.split(","))) {
    const [index, count] = label.split("/").map(Number) as [number, number];
    let indices = seen.get(count);
    if (!indices) seen.set(count, indices = new Set());
    indices.add(index);
  }
  const complete = [...seen].every(([count, indices]) => indices.size === count);
  if (complete) return { shard: "1/1", complete };
  const listed = [...seen].sort(([a], [b]) => a - b)
    .flatMap(([count, indices]) => [...indices].sort((a, b) => a - b).map((index) => `${index}/${count}`));
  return { shard: listed.join(","), complete };
}

function distinct(values: readonly string[]): string {
  return [...new Set(values)].join(", ");
}
