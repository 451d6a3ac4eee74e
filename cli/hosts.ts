/**
 * Resolving host names from the command line against the registry and the config file.
 *
 * @module
 */
import type { Config } from "../src/config.ts";
import { UsageError } from "../src/errors.ts";
import type { HostEntry } from "../src/host.ts";
import { type Candidate, didYouMean } from "../src/suggest.ts";
import { DEFAULT_HOSTS, HOSTS } from "../hosts/registry.ts";
import { configHosts } from "../hosts/from_config.ts";

/** Every known host: the built-in registry, then the config file's hosts. */
export function knownHosts(config: Config): HostEntry[] {
  const extra = configHosts(config);
  for (const entry of extra) {
    if (HOSTS.some((h) => h.id === entry.id)) {
      throw new UsageError(
        `Config file "${config.source}" defines host "${entry.id}", which is built in: choose another id`,
      );
    }
  }
  return [...HOSTS, ...extra];
}

/** The entries for `--host` values, in the order given; the defaults when none. */
export function resolveHosts(names: readonly string[], known: readonly HostEntry[]): HostEntry[] {
  const wanted = names.length > 0 ? names : DEFAULT_HOSTS.filter((id) => known.some((h) => h.id === id));
  const seen = new Set<string>();
  const entries: HostEntry[] = [];
  for (const name of wanted) {
    if (seen.has(name)) continue;
    seen.add(name);
    const entry = known.find((h) => h.id === name);
    if (!entry) {
      throw new UsageError(
        `Unknown host "${name}"${didYouMean(name, known.map(hostCandidate), 'Run "conformance list hosts"')}`,
      );
    }
    entries.push(entry);
  }
  return entries;
}

/** A host as a did-you-mean candidate: its id, and the program it starts (`--host claude` means claude-code). */
function hostCandidate(entry: HostEntry): Candidate {
  // The fakes start the harness itself: its name means no host.
  if (entry.testOnly) return entry.id;
  const program = entry.kind === "cli" ? entry.runner.binary : entry.program;
  const name = program?.split("/").at(-1);
  return name === undefined || name === entry.id ? entry.id : { name: entry.id, aliases: [name] };
}
