/**
 * The user's own golden paths (`goldenPaths:` in the config file) as the CLI tiers run them: each has a name,
 * the built-in mode it runs as, a prompt and request options. A host runs one when it gives argv for it: a
 * config host under the path's own name (`paths: { plan-step: [...] }`), else any host for its mode.
 *
 * @module
 */
import type { GoldenPath, HostRunner, InvocationRequest } from "../../src/exec/host_runner.ts";
import type { RunSettings, UserGoldenPath } from "../../src/suite.ts";

/** How one user golden path runs on one host. */
export interface UserPathRun {
  /** The path whose argv the runner builds: the user path's own name when the host has argv for it, else its mode. */
  readonly build: GoldenPath;
  /** The built-in path whose stream shape and judgement apply. */
  readonly mode: UserGoldenPath["mode"];
  readonly request: InvocationRequest;
}

/** The request a user golden path makes: its prompt and options. */
export function userRequest(user: UserGoldenPath): InvocationRequest {
  const options = user.options;
  return {
    prompt: user.prompt,
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(options.tools !== undefined ? { tools: options.tools } : {}),
    ...(options.jsonSchema !== undefined ? { jsonSchema: options.jsonSchema } : {}),
  };
}

/** How `runner` runs the user golden path `name`, or `null` when it is not one or the host gives no argv. */
export function userPathRun(
  runner: HostRunner,
  name: string,
  settings: Pick<RunSettings, "goldenPaths">,
): UserPathRun | null {
  const user = settings.goldenPaths?.find((path) => path.name === name);
  if (user === undefined) return null;
  const build = runner.goldenPaths.includes(user.name)
    ? user.name
    : runner.goldenPaths.includes(user.mode)
    ? user.mode
    : null;
  return build === null ? null : { build, mode: user.mode, request: userRequest(user) };
}

/** The user golden paths `runner` gives argv for, among those running as one of `modes`. */
export function userPathsOf(
  runner: HostRunner,
  settings: Pick<RunSettings, "goldenPaths">,
  modes: readonly GoldenPath[],
): UserGoldenPath[] {
  return (settings.goldenPaths ?? []).filter((user) =>
    modes.includes(user.mode) && userPathRun(runner, user.name, settings) !== null
  );
}
