/**
 * Durations for people, the same in every report: the terminal's lines and summary, report.html.
 *
 * @module
 */

/**
 * `12ms`, `3.4s`, `2m05s`.
 *
 * @example
 * ```ts
 * import { formatDuration } from "./duration.ts";
 * formatDuration(78_563); // "1m19s"
 * ```
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, "0")}s`;
}
