/**
 * The run's tag: a random value every process `conformance run` starts carries in its environment as
 * {@linkcode RUN_TAG_ENV} (hosts, browsers, the MCP Inspector, a desktop app), and everything those start
 * inherits. The reaper (src/exec/reaper.ts) is given it on its command line and, once the harness is gone,
 * SIGKILLs every process whose environment carries it: a process the harness started but had not yet told the
 * reaper of (a SIGKILL between the spawn and the write to the reaper's pipe), or that the run's teardown was
 * still ending, is found by it. The harness's own environment does not carry it, nor does the reaper's.
 *
 * @module
 */
import { newSpawnTag } from "./escapes.ts";

/** The variable carrying the run's tag in the environment of every process the harness starts. */
export const RUN_TAG_ENV = "CONFORMANCE_RUN_TAG";

/** This harness process's tag: 128 random bits, so no unrelated process can carry it. */
export const RUN_TAG: string = newSpawnTag();

/**
 * The variable to add to a spawn's environment.
 *
 * @example
 * ```ts
 * import { runTagEnv } from "./run_tag.ts";
 * new Deno.Command("sleep", { args: ["1"], env: { ...runTagEnv() } });
 * ```
 */
export function runTagEnv(): Record<string, string> {
  return { [RUN_TAG_ENV]: RUN_TAG };
}

/**
 * Whether a `ps … e` line (command line, then environment) carries `RUN_TAG_ENV=tag` as a whole word.
 */
export function carriesTag(line: string, tag: string): boolean {
  const marker = `${RUN_TAG_ENV}=${tag}`;
  for (let at = line.indexOf(marker); at >= 0; at = line.indexOf(marker, at + 1)) {
    const after = line[at + marker.length];
    if ((at === 0 || /\s/.test(line[at - 1]!)) && (after === undefined || /\s/.test(after))) return true;
  }
  return false;
}
