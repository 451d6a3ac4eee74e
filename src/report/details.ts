/**
 * A result's details as a person reads them in a report (report.html's raw details, JUnit's body): each fact
 * once. An observation's `stderr` is its `hostStderr` plus a `[result]` marker line; where that is all it is,
 * only `hostStderr` is shown.
 *
 * @module
 */

/**
 * `details` without the keys in `omit` (what the report shows elsewhere) and without `stderr` where it only
 * repeats `hostStderr`.
 *
 * @example
 * ```ts
 * import { shownDetails } from "./details.ts";
 * shownDetails({ hostStderr: ["a"], stderr: ["a", "[result] failed"], exitCode: 1 });
 * // { hostStderr: ["a"], exitCode: 1 }
 * ```
 */
export function shownDetails(
  details: Readonly<Record<string, unknown>>,
  omit: readonly string[] = [],
): Record<string, unknown> {
  const shown = Object.fromEntries(Object.entries(details).filter(([key]) => !omit.includes(key)));
  const { stderr, hostStderr } = shown;
  if (
    Array.isArray(stderr) && Array.isArray(hostStderr) && hostStderr.every((line, i) => stderr[i] === line)
  ) {
    const extra = stderr.slice(hostStderr.length);
    if (extra.every((line) => typeof line === "string" && line.startsWith("[result] "))) delete shown.stderr;
  }
  return shown;
}
