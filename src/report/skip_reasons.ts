/**
 * SKIPs grouped by reason, for the closing lines of a run: `9 skipped: 6 × binary absent; 3 × live tier off`.
 * A run whose tests could not apply must say why at a glance, not as a bare count beside "all as expected".
 *
 * Messages carry test-specific parts, so a reason is the message normalised: its first line, cut at the first
 * `": "` (the messages of this harness read "what happened: why, and what to do"), without parenthesised
 * asides (`(see lifecycle/tool-input)`, `(480px)`), whitespace collapsed, a trailing full stop dropped.
 *
 * @module
 */
import type { TestResult } from "../outcome.ts";

/** One reason and how many SKIPs gave it. */
export interface SkipGroup {
  readonly reason: string;
  readonly count: number;
}

/**
 * The grouping key of a SKIP message.
 *
 * @example
 * ```ts
 * import { skipReason } from "./skip_reasons.ts";
 * skipReason('binary absent: "claude" is not installed'); // "binary absent"
 * skipReason("The host sent no hostContext (see context/initialize-hostcontext)"); // "The host sent no hostContext"
 * ```
 */
export function skipReason(message: string): string {
  const line = (message.split(/\r?\n/, 1)[0] ?? "").trim();
  const colon = line.indexOf(": ");
  const head = colon > 0 ? line.slice(0, colon) : line;
  let reason = head;
  // Innermost first, so nested asides go too.
  for (let previous = ""; previous !== reason;) {
    previous = reason;
    reason = reason.replace(/\s*\([^()]*\)/g, "");
  }
  reason = reason.replace(/\s+/g, " ").replace(/[.;,]+$/, "").trim();
  return reason === "" ? "no reason given" : reason;
}

/** The SKIPs of `results` grouped by {@linkcode skipReason}, most frequent first (ties: first seen first). */
export function groupSkips(results: readonly Pick<TestResult, "status" | "message">[]): SkipGroup[] {
  const counts = new Map<string, number>();
  for (const result of results) {
    if (result.status !== "SKIP") continue;
    const reason = skipReason(result.message);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

/**
 * The one-line form: `9 skipped: 6 × binary absent; 3 × live tier off`, the `limit` most frequent reasons
 * and the rest as "N × other reasons"; `null` when nothing was skipped.
 */
export function formatSkipGroups(groups: readonly SkipGroup[], limit = 6): string | null {
  if (groups.length === 0) return null;
  const total = groups.reduce((n, group) => n + group.count, 0);
  const shown = groups.length > limit ? groups.slice(0, limit - 1) : groups;
  const rest = groups.slice(shown.length).reduce((n, group) => n + group.count, 0);
  const parts = shown.map((group) => `${group.count} × ${group.reason}`);
  if (rest > 0) parts.push(`${rest} × ${groups.length - shown.length} other reasons`);
  return `${total} skipped: ${parts.join("; ")}`;
}
