/**
 * How an error that reached the top of the command becomes one line on stderr and an exit code: domain errors
 * keep their code and message, a refusal of the harness's permission set says what to do (exit 2), anything
 * else is an internal error (exit 3) whose stack is shown only with `CONFORMANCE_DEBUG=1`. A closed standard
 * output ends the command quietly with 141, as SIGPIPE would.
 *
 * @module
 */
import { EXIT, exitCodeOf, UsageProblems } from "../src/errors.ts";
import { oneLine } from "../src/file_errors.ts";
import { explainRefusal } from "../src/permissions.ts";
import { stripControls } from "../src/report/sanitize.ts";
import { localizeCommands } from "./launch.ts";

/**
 * The line to print (without the `conformance: ` prefix) and the exit code for `error`. A command the line
 * quotes for the user (`"conformance list tests"`, `"deno task hosts:install"`) is written the way this process
 * was started (cli/launch.ts), so that it runs as printed.
 */
export function describeFailure(error: unknown): { line: string; exitCode: number; internal: boolean } {
  const described = describe(error);
  return { ...described, line: localizeCommands(described.line) };
}

function describe(error: unknown): { line: string; exitCode: number; internal: boolean } {
  // The reader of standard output went away (`conformance parse … | head`): nothing to say, and nowhere to.
  if (error instanceof Deno.errors.BrokenPipe) {
    return { line: "", exitCode: EXIT.brokenPipe, internal: false };
  }
  const refusal = explainRefusal(error);
  if (refusal !== null) return { line: refusal, exitCode: EXIT.usage, internal: false };
  // A message can quote what a host or an input file printed: the terminal gets it with its controls marked.
  const message = stripControls(error instanceof Error ? error.message : String(error));
  // Each problem of a list is its own line, prefixed like the first.
  if (error instanceof UsageProblems) {
    return {
      line: error.problems.map((problem) => stripControls(oneLine(problem))).join("\nconformance: "),
      exitCode: EXIT.usage,
      internal: false,
    };
  }
  if (error instanceof Error && "exitCode" in error) {
    return { line: message.split("\n")[0]!, exitCode: exitCodeOf(error), internal: false };
  }
  return { line: `internal error: ${message.split("\n")[0]}`, exitCode: EXIT.harness, internal: true };
}
