/**
 * The errors that reach the top of the `conformance` command. Each carries its exit code; `main.ts` maps them
 * in one place and prints the message as one line, never a stack trace.
 *
 * @module
 */

/** Exit codes of the `conformance` command (README, "Exit codes"). */
export const EXIT = {
  /** Every result as expected. */
  ok: 0,
  /** An unexpected result (or a stale expectation). */
  unexpected: 1,
  /** The command line or a configuration file is wrong. */
  usage: 2,
  /** The harness itself failed. */
  harness: 3,
  /** Interrupted by SIGINT. */
  interrupted: 130,
  /** Standard output was closed by its reader (piped into `head`, say): quiet, as SIGPIPE ends a Unix tool. */
  brokenPipe: 141,
  /** Terminated by SIGTERM. */
  terminated: 143,
} as const;

/** A mistake in the command line or in a file the user gave: exit 2. */
export class UsageError extends Error {
  readonly exitCode: number = EXIT.usage;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Several mistakes found at once (every problem of every expectations file): exit 2, one line per problem.
 *
 * @example
 * ```ts
 * import { UsageProblems } from "./errors.ts";
 * throw new UsageProblems(['Unknown host "gemeni"', 'Unknown test "cli/x/y"']);
 * ```
 */
export class UsageProblems extends UsageError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "UsageProblems";
    this.problems = problems;
  }
}

/** The harness cannot go on (a browser that will not start, a broken install): exit 3. */
export class HarnessError extends Error {
  readonly exitCode: number = EXIT.harness;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "HarnessError";
  }
}

/** The exit code an error maps to: its own `exitCode` when it has one, else 3 (harness error). */
export function exitCodeOf(error: unknown): number {
  if (error instanceof Error && "exitCode" in error && typeof error.exitCode === "number") {
    return error.exitCode;
  }
  return EXIT.harness;
}
