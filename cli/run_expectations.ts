/**
 * Which expectations a run uses, and what they are checked against so that they cannot rot:
 *
 * - the built-in set (`hosts/expectations/`, used when no `--expectations` is given) against the registry,
 *   on every run, whatever hosts it selects;
 * - a user's files against the hosts this run knows (the registry plus `--config` hosts) and each host's
 *   tests.
 *
 * A host's tests are all it has in any tier or mode (`--live`, `--mock-model` included), so an entry for a
 * test this run does not select (`--grep`, `--tier`, `--shard`, no `--mock-model`) is fine.
 *
 * @module
 */
import { catalogue } from "../src/engine.ts";
import { type ExpectationSet, type KnownTests, loadExpectations } from "../src/expectations.ts";
import type { HostEntry } from "../src/host.ts";
import type { UserGoldenPath } from "../src/suite.ts";
import { builtInExpectationsDir } from "../hosts/expectations.ts";
import { HOSTS } from "../hosts/registry.ts";
import { SUITES } from "../suite/mod.ts";

/**
 * Every test id of each host in `entries`, in any tier or mode: for a host pointed at another conformance
 * server (`--suite-server`), that server's tests as well as the catalogue's (one expectations file may hold
 * both).
 */
export function knownTests(
  entries: readonly HostEntry[],
  goldenPaths: readonly UserGoldenPath[] = [],
): KnownTests {
  const known = new Map<string, Set<string>>();
  for (const entry of entries) known.set(entry.id, new Set());
  const unpointed = entries.flatMap((entry) => {
    if (entry.kind === "cli" || entry.suiteServer === undefined) return [];
    const { suiteServer: _, ...plain } = entry;
    return [plain];
  });
  for (
    const item of catalogue([...entries, ...unpointed], SUITES, { live: true, mockModel: true, goldenPaths })
  ) {
    for (const test of item.tests) known.get(item.entry.id)!.add(test.id);
  }
  return known;
}

/** Options of {@linkcode loadRunExpectations}. */
export interface RunExpectationsOptions {
  /** `--expectations` paths; none: the built-in set. */
  readonly paths: readonly string[];
  /** The hosts the run knows: the registry plus `--config` hosts. */
  readonly known: readonly HostEntry[];
  readonly goldenPaths: readonly UserGoldenPath[];
  /** `--update-expectations`: a path that does not exist yet is a file or folder to create, not a mistake. */
  readonly updating: boolean;
}

/**
 * Loads the run's expectations: its paths checked against the hosts it knows, or, with no paths, the
 * built-in set checked against the registry.
 */
export async function loadRunExpectations(
  options: RunExpectationsOptions,
): Promise<Map<string, ExpectationSet>> {
  const { known, goldenPaths } = options;
  let paths = options.paths;
  if (options.updating) {
    paths = (await Promise.all(paths.map(async (p) => await exists(p) ? [p] : []))).flat();
  }
  if (options.paths.length > 0) return await loadExpectations(paths, knownTests(known, goldenPaths));
  const builtIn = await builtInExpectationsDir();
  return builtIn === null ? new Map() : await loadExpectations([builtIn], knownTests(HOSTS));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
