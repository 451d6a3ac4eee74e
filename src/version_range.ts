/**
 * Version conditions of expectation entries: a small subset of semver ranges, enough to say "this bug is in
 * versions before 0.25". A range is one or more comparators joined by commas, all of which must hold
 * (`">=0.20, <0.25"`); a comparator is `<`, `<=`, `>`, `>=` or `=` and a version of one to three numbers
 * (`0.25` means `0.25.0`). A bare version means `=`. Pre-release tags are not compared.
 *
 * A host's version is what it printed for its version check (`gemini 0.61.0`, `2.1.3 (Claude Code)`): the
 * first `N[.N[.N]]` in that text is its version.
 *
 * @module
 */

/** A version as numbers: major, minor, patch. */
export type VersionNumbers = readonly [number, number, number];

/** A parsed range: the original text and a test for one version. */
export interface VersionRange {
  readonly text: string;
  matches(version: VersionNumbers): boolean;
}

const COMPARATOR = /^(<=|>=|<|>|=)?\s*v?(\d+(?:\.\d+){0,2})$/;

/**
 * Parses a range such as `"<0.25"` or `">=1.2, <2"`.
 *
 * @throws {SyntaxError} naming the comparator that is not one of `<`, `<=`, `>`, `>=`, `=` and a version
 * @example
 * ```ts
 * import { parseVersionRange } from "./version_range.ts";
 * parseVersionRange(">=0.20, <0.25").matches([0, 24, 4]); // true
 * ```
 */
export function parseVersionRange(text: string): VersionRange {
  const parts = text.split(",").map((part) => part.trim());
  const tests = parts.map((part) => {
    const match = COMPARATOR.exec(part);
    if (match === null) {
      throw new SyntaxError(
        `Version condition "${part}" is not a comparator (<, <=, >, >=, =) and a version such as 0.25 or 1.2.3`,
      );
    }
    const operator = match[1] ?? "=";
    const bound = numbers(match[2]!);
    return (version: VersionNumbers) => {
      const order = compareVersions(version, bound);
      switch (operator) {
        case "<":
          return order < 0;
        case "<=":
          return order <= 0;
        case ">":
          return order > 0;
        case ">=":
          return order >= 0;
        default:
          return order === 0;
      }
    };
  });
  return { text, matches: (version) => tests.every((test) => test(version)) };
}

/**
 * The version in a host's version text: its first `N[.N[.N]]`, or `null` when it has none.
 *
 * @example
 * ```ts
 * import { versionOf } from "./version_range.ts";
 * versionOf("codex-cli 0.46.0"); // [0, 46, 0]
 * versionOf(null); // null
 * ```
 */
export function versionOf(text: string | null | undefined): VersionNumbers | null {
  const match = /(?<![\w.])v?(\d+(?:\.\d+){0,2})/.exec(text ?? "");
  return match === null ? null : numbers(match[1]!);
}

function numbers(text: string): VersionNumbers {
  const [major = 0, minor = 0, patch = 0] = text.split(".").map(Number);
  return [major, minor, patch];
}

function compareVersions(a: VersionNumbers, b: VersionNumbers): number {
  for (let index = 0; index < 3; index++) {
    if (a[index] !== b[index]) return a[index]! - b[index]!;
  }
  return 0;
}
