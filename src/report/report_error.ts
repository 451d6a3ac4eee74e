/**
 * The error the report layer throws for input the user gave it: a report file that does not parse, reports
 * that cannot be merged, a reporter that needs an output folder.
 *
 * @module
 */

/**
 * A problem with the reports a user passed in, not a harness bug: the CLI shows the message on one line and
 * exits with its `exitCode`, the usage code 2.
 *
 * @example
 * ```ts
 * import { ReportError } from "./report_error.ts";
 * try {
 *   throw new ReportError('Report "a.json" is not valid JSON', "a.json");
 * } catch (error) {
 *   if (error instanceof ReportError) console.error(error.message);
 * }
 * ```
 */
export class ReportError extends Error {
  /** The file (or reporter name) the problem is about, when there is one. */
  readonly source: string | undefined;
  /** The usage exit code (2): the input was wrong, not the harness. */
  readonly exitCode: number = 2;

  /**
   * Makes the error.
   * @param message One line: what is wrong, quoting the offending value, and what to do.
   * @param source The file (or reporter name) it is about.
   */
  constructor(message: string, source?: string) {
    super(message);
    this.name = "ReportError";
    this.source = source;
  }
}
