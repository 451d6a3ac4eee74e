/**
 * Which (host, test) pairs a run runs: the selection flags `run` and `list tests` share, validated, and the
 * plan they give (the config file loaded, hosts resolved, what the run's hosts need beyond the permission set
 * refused, the catalogue filtered, the pre-flight checks made), before anything starts.
 *
 * @module
 */
import { type Config, EMPTY_CONFIG, loadConfig } from "../src/config.ts";
import { catalogue, filterPlan, type PlanItem, tiersOf } from "../src/engine.ts";
import { UsageError } from "../src/errors.ts";
import type { HostEntry } from "../src/host.ts";
import { parseShard, WHOLE } from "../src/shard.ts";
import type { SuiteId, UserGoldenPath } from "../src/suite.ts";
import { didYouMean } from "../src/suggest.ts";
import { parseSuiteServerUrl, type SuiteServer } from "../src/runner/suite_server.ts";
import { SUITES } from "../suite/mod.ts";
import { booleanFlag, type CommandSpec, listFlag, oneOf, type ParsedCommand, stringFlag } from "./args.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import { NotPermittedRun, runNeeds } from "./permit.ts";
import { checkPrerequisites } from "./preflight.ts";
import { checkRerunHosts, narrowToTargets, type RerunTargets } from "./rerun.ts";

/** The flags that choose which (host, test) pairs run; `conformance list tests` takes them too. */
export const SELECTION_FLAGS: CommandSpec["flags"] = {
  host: { type: "string", multiple: true },
  suite: { type: "string" },
  tier: { type: "string", multiple: true },
  grep: { type: "string" },
  shard: { type: "string" },
  live: { type: "boolean" },
  "mock-model": { type: "boolean" },
  config: { type: "string" },
  "suite-server": { type: "string" },
};

/** Which (host, test) pairs to run, validated: what `run` and `list tests` share. */
export interface Selection {
  hosts: string[];
  suite: SuiteId | "all";
  /** `--tier a,b`: only tests of these tiers (or MCP Apps areas); empty for every tier. */
  tiers: string[];
  grep?: RegExp;
  shard: ReturnType<typeof parseShard>;
  live: boolean;
  mockModel: boolean;
  config?: string;
  /** `--suite-server URL`: the MCP Apps hosts render and report that conformance MCP server's suite. */
  suiteServer?: string;
}

/** Validates the {@linkcode SELECTION_FLAGS} of a parsed command line. */
export function parseSelection(parsed: ParsedCommand, env = Deno.env): Selection {
  const selection: Selection = {
    hosts: listFlag(parsed, "host"),
    suite: oneOf("--suite", stringFlag(parsed, "suite") ?? "all", ["cli", "apps", "all"] as const),
    tiers: [...new Set(listFlag(parsed, "tier"))],
    shard: WHOLE,
    live: booleanFlag(parsed, "live") || env.get("CONFORMANCE_LIVE") === "1",
    mockModel: booleanFlag(parsed, "mock-model"),
  };
  const grep = stringFlag(parsed, "grep");
  if (grep !== undefined) {
    try {
      selection.grep = new RegExp(grep);
    } catch (error) {
      throw new UsageError(`Invalid --grep "${grep}": ${(error as Error).message}`);
    }
  }
  const suiteServer = stringFlag(parsed, "suite-server");
  if (suiteServer !== undefined) {
    selection.suiteServer = parseSuiteServerUrl(suiteServer);
    if (selection.hosts.length === 0 && parsed.flags["rerun-failed"] === undefined) {
      throw new UsageError(
        "--suite-server needs --host: the MCP Apps host to point at it, e.g. --host reference",
      );
    }
  }
  const shard = stringFlag(parsed, "shard");
  if (shard !== undefined) selection.shard = parseShard(shard);
  const config = stringFlag(parsed, "config");
  if (config !== undefined) {
    if (config.trim() === "") throw new UsageError(`Flag "--config" needs a non-empty value`);
    selection.config = config;
  }
  return selection;
}

/** Plans the run for `options`: the filtered (host, tests) list, or a usage error saying why it is empty. */
export async function planRun(
  options: Selection & { readonly profileDir?: string; readonly timeoutMultiplier?: number },
  rerun?: RerunTargets,
): Promise<
  {
    plan: PlanItem[];
    all: PlanItem[];
    goldenPaths: readonly UserGoldenPath[];
    known: HostEntry[];
    config: Config;
  }
> {
  const config = options.config ? await loadConfig(options.config) : EMPTY_CONFIG;
  const known = knownHosts(config);
  if (rerun) checkRerunHosts(rerun, known.map((entry) => entry.id));
  const resolved = resolveHosts(options.hosts, known);
  const suiteServers = suiteServersOf(resolved, config, options.suiteServer);
  const needs = runNeeds(config.notPermitted, config.source, resolved);
  if (needs !== null) throw new NotPermittedRun(needs);
  if (!options.live) {
    const gated = resolved.filter((e) => e.kind !== "cli" && e.requiresLive);
    if (gated.length > 0) {
      const first = gated[0]!;
      const before = first.kind === "web"
        ? `sign in once with "conformance login --host ${first.id}", then add --live`
        : `start the app with its DevTools port (see "conformance list hosts"), then add --live`;
      throw new UsageError(
        `Host "${first.id}" ${
          first.kind !== "cli" ? first.requiresLive : ""
        }: it runs only with --live (or CONFORMANCE_LIVE=1): ${before}`,
      );
    }
  } else {
    for (const entry of resolved) {
      if (entry.kind === "cli" || entry.preflight === undefined) continue;
      const problem = await entry.preflight(options.profileDir ? { profileDir: options.profileDir } : {});
      if (problem !== null) throw new UsageError(problem);
    }
  }
  const entries = await pointedAtSuiteServers(resolved, suiteServers, options);
  const goldenPaths = config.goldenPaths;
  const { all, plan: selected } = selectTests(entries, options, goldenPaths);
  for (const entry of entries) {
    if (!all.some((item) => item.entry.id === entry.id && item.tests.length > 0)) {
      throw new UsageError(`Host "${entry.id}" has no tests in this build`);
    }
  }
  let plan = selected;
  if (rerun) plan = narrowToTargets(plan, rerun).plan;
  if (plan.length === 0 && options.shard.count === 1) {
    throw new UsageError(
      `No test matches the filters (--suite, --tier, --grep). Run "conformance list tests"`,
    );
  }
  await checkPrerequisites(plan.map((item) => item.entry), {
    named: new Set(options.hosts),
    configHosts: new Set(config.hosts.map((host) => host.id)),
    configSource: config.source,
  });
  // A host pointed at another server knows that server's tests (expectations are checked against them).
  const pointedKnown = known.map((entry) => entries.find((candidate) => candidate.id === entry.id) ?? entry);
  return { plan, all, goldenPaths, known: pointedKnown, config };
}

/**
 * The other conformance server each of `entries` is pointed at (`--suite-server`, or its YAML
 * `server: { url }`), by host id. A CLI host, or an MCP Apps host that cannot be pointed elsewhere, with
 * `--suite-server` is a usage error.
 */
function suiteServersOf(
  entries: readonly HostEntry[],
  config: Config,
  flag: string | undefined,
): Map<string, { url: string; what: string }> {
  const pointed = new Map<string, { url: string; what: string }>();
  for (const entry of entries) {
    if (flag !== undefined) {
      if (entry.kind === "cli") {
        throw new UsageError(
          `--suite-server points an MCP Apps host at another suite: "${entry.id}" is a CLI host (give --host reference, mcp-inspector or a web host)`,
        );
      }
      if (!entry.suiteServers) {
        throw new UsageError(
          `Host "${entry.id}" cannot be pointed at another conformance server (--suite-server): reference, mcp-inspector and config web hosts with server: { url } or {serverUrl} in their launch steps can`,
        );
      }
      pointed.set(entry.id, { url: flag, what: "--suite-server" });
      continue;
    }
    const configured = config.hosts.find((host) => host.id === entry.id);
    if (configured?.kind === "web" && configured.server?.url !== undefined) {
      pointed.set(entry.id, {
        url: parseSuiteServerUrl(configured.server.url, `host "${entry.id}" server.url`),
        what: `host "${entry.id}" server.url`,
      });
    }
  }
  return pointed;
}

/**
 * `entries` as a run with `options` would run them: each host pointed at another conformance server
 * (`--suite-server`, a YAML `server: { url }`) carries that server's suite (`list tests` lists it).
 */
export async function withSuiteServers(
  entries: readonly HostEntry[],
  config: Config,
  options: Pick<Selection, "suiteServer"> & { readonly timeoutMultiplier?: number },
): Promise<HostEntry[]> {
  return await pointedAtSuiteServers(entries, suiteServersOf(entries, config, options.suiteServer), options);
}

/** `entries`, each pointed at its other server with that server's suite listed (one probe per URL). */
async function pointedAtSuiteServers(
  entries: readonly HostEntry[],
  pointed: ReadonlyMap<string, { url: string; what: string }>,
  options: { readonly timeoutMultiplier?: number },
): Promise<HostEntry[]> {
  if (pointed.size === 0) return [...entries];
  const { loadSuiteServer } = await import("../src/runner/suite_server.ts");
  const loaded = new Map<string, Promise<SuiteServer>>();
  const out: HostEntry[] = [];
  for (const entry of entries) {
    const target = pointed.get(entry.id);
    if (target === undefined || entry.kind === "cli") {
      out.push(entry);
      continue;
    }
    let suite = loaded.get(target.url);
    if (suite === undefined) {
      suite = loadSuiteServer(target.url, {
        what: target.what,
        ...(options.timeoutMultiplier ? { timeoutMultiplier: options.timeoutMultiplier } : {}),
      });
      loaded.set(target.url, suite);
    }
    out.push({ ...entry, suiteServer: await suite });
  }
  return out;
}

/**
 * The catalogue of `entries` and the part of it `selection` picks (suite, tiers, pattern, shard), as `run`
 * would run it and `list tests` lists it. An unknown tier is a usage error.
 */
export function selectTests(
  entries: readonly HostEntry[],
  selection: Selection,
  goldenPaths: readonly UserGoldenPath[],
): { all: PlanItem[]; plan: PlanItem[] } {
  const all = catalogue(entries, SUITES, { ...selection, goldenPaths });
  const known = tiersOf(all);
  for (const tier of selection.tiers) {
    if (!known.includes(tier)) {
      throw new UsageError(
        `Unknown --tier "${tier}"${didYouMean(tier, known, `Tiers for these hosts: ${known.join(", ")}`)}`,
      );
    }
  }
  return { all, plan: filterPlan(all, selection) };
}
