/**
 * `cli/constructability/<golden-path>`: can the runner build a valid invocation for each golden path? For
 * every host × golden path (the five standard ones plus the user's own from the config file):
 * SKIP "golden path unsupported" with the runner's reason; SKIP "binary absent" when the
 * binary is neither installed, on PATH nor named by `CONFORMANCE_<HOST>_BIN`; FAIL when the invocation is
 * malformed (empty binary or argv, an empty or non-string argument, a prompt path whose prompt is missing from
 * argv); otherwise PASS. No host process is started.
 *
 * @module
 */
import { binEnvName } from "../../src/exec/find_executable.ts";
import { GOLDEN_PATHS, type GoldenPath, type HostInvocation } from "../../src/exec/host_runner.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { fail, type Outcome, skip } from "../../src/outcome.ts";
import { passed } from "./evidence.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";
import type { CliTier } from "./tier.ts";
import { constructabilityTitle } from "./titles.ts";
import { userPathRun, userRequest } from "./user_paths.ts";

const PREFIX = "cli/constructability/";

/** The prompt the tier builds with: recognisable, so its presence in argv can be checked. */
export const CONSTRUCT_PROMPT = "Reply with exactly: OK";

/** Golden paths a test id may name: the standard ones, then the user's own by name. */
function pathsFor(settings: Pick<RunSettings, "goldenPaths">): string[] {
  return [...GOLDEN_PATHS, ...(settings.goldenPaths ?? []).map((path) => path.name)];
}

/** What is wrong with an invocation, or an empty list. */
export function invocationProblems(invocation: HostInvocation, path: GoldenPath, prompt: string): string[] {
  const problems: string[] = [];
  if (typeof invocation.binary !== "string" || invocation.binary.trim() === "") problems.push("empty binary");
  if (!Array.isArray(invocation.args) || invocation.args.length === 0) problems.push("empty argv");
  invocation.args.forEach((arg, index) => {
    if (typeof arg !== "string") problems.push(`argument ${index} is ${typeof arg}, not a string`);
    else if (arg === "") problems.push(`argument ${index} is an empty string`);
  });
  if (path !== "version-check" && !invocation.args.some((arg) => arg.includes(prompt))) {
    problems.push(`the prompt ${JSON.stringify(prompt)} is not in argv`);
  }
  for (const [name, value] of Object.entries(invocation.env)) {
    if (typeof value !== "string") problems.push(`env ${name} is ${typeof value}, not a string`);
  }
  return problems;
}

/** The constructability tier. */
export const constructabilityTier: CliTier = {
  name: "constructability",
  timeoutMs: 15_000,
  list(_entry: CliHostEntry, settings: Pick<RunSettings, "live" | "mockModel" | "goldenPaths">): TestCase[] {
    return pathsFor(settings).map((path) => ({ id: `${PREFIX}${path}`, title: constructabilityTitle(path) }));
  },
  async run(entry, test, settings): Promise<Outcome> {
    const { runner } = entry;
    const name = test.id.slice(PREFIX.length);
    const user = settings.goldenPaths?.find((path) => path.name === name);
    // A user path builds with the host's argv under its own name when there is one, else with its mode's.
    const run = user ? userPathRun(runner, name, settings) : null;
    const path = run?.build ?? user?.mode ?? name;
    const request = run?.request ?? (user ? userRequest(user) : { prompt: CONSTRUCT_PROMPT });
    if (!runner.goldenPaths.includes(path)) {
      return skip(
        `golden path "${path}" unsupported by ${runner.name}: ${
          runner.unsupportedPaths?.[path] ?? "no builder"
        }`,
      );
    }
    const binary = await runner.detect();
    if (binary === null) {
      return skip(
        `binary absent: "${runner.binary}" is not installed (deno task hosts:install), not on PATH, ` +
          `and ${binEnvName(runner.name)} is unset` + (runner.absentWhere ? `: ${runner.absentWhere}` : ""),
      );
    }
    let invocation: HostInvocation;
    try {
      invocation = runner.build(path, { ...request, workingDir: Deno.cwd() });
    } catch (error) {
      return fail(
        `building the "${path}" invocation threw: ${error instanceof Error ? error.message : error}`,
      );
    }
    const problems = invocationProblems(invocation, path, request.prompt);
    const details = { binary: invocation.binary, args: [...invocation.args], path };
    if (problems.length > 0) return fail(problems.join("; "), details);
    const promptAt = invocation.args.findIndex((arg) => arg.includes(request.prompt));
    return passed({
      binary: invocation.binary,
      argc: invocation.args.length,
      ...(promptAt < 0 ? {} : { promptAt }),
    }, details);
  },
};
