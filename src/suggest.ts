/**
 * "Did you mean …?" for mistyped hosts, flags and subcommands.
 *
 * @module
 */

/** Levenshtein edit distance between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The closest candidate to `input`, or `undefined` when none is close enough to be a typo.
 *
 * @example
 * ```ts
 * import { closest } from "./suggest.ts";
 * closest("gemeni", ["gemini", "codex"]); // "gemini"
 * closest("claude", [{ name: "claude-code", aliases: ["claude"] }]); // "claude-code"
 * ```
 */
export function closest(input: string, candidates: Iterable<Candidate>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const { name, aliases = [] } = typeof candidate === "string" ? { name: candidate } : candidate;
    for (const word of [name, ...aliases]) {
      const distance = editDistance(input.toLowerCase(), word.toLowerCase());
      if (distance < bestDistance) [best, bestDistance] = [name, distance];
    }
  }
  const limit = Math.max(2, Math.floor(input.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/**
 * What a user may have meant: a name, or a name with the other words people use for it (a CLI host's
 * binary: `claude` for `claude-code`). A close alias suggests the name.
 */
export type Candidate = string | { readonly name: string; readonly aliases?: readonly string[] };

/**
 * The tail of an error message: `: did you mean "x"? <then>` when a candidate is close, else `. <then>`.
 *
 * @example
 * ```ts
 * import { didYouMean } from "./suggest.ts";
 * `Unknown host "gemeni"${didYouMean("gemeni", ["gemini"], 'Run "conformance list hosts"')}`;
 * // Unknown host "gemeni": did you mean "gemini"? Run "conformance list hosts"
 * ```
 */
export function didYouMean(
  input: string,
  candidates: Iterable<Candidate>,
  then: string,
  format: (match: string) => string = (match) => match,
): string {
  const match = closest(input, candidates);
  return match === undefined ? `. ${then}` : `: did you mean "${format(match)}"? ${then}`;
}
