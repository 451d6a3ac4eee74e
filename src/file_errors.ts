/**
 * Error details about a user's file (config, expectations), always one line with a place. The `yaml` package
 * puts `at line L, column C` in its syntax errors, but an alias to an undefined anchor (`*name`) throws a bare
 * `ReferenceError`; its place is then found in the text. Schema messages can quote the file's own text (an
 * unknown key with a newline in it), so line breaks are escaped.
 *
 * @module
 */

/**
 * The first line of `error`'s message, with `at line L, column C` added when the parser gave no position.
 *
 * @example
 * ```ts
 * import { yamlErrorDetail } from "./file_errors.ts";
 * yamlErrorDetail(new ReferenceError("Unresolved alias (the anchor must be set before the alias): a"), "x: *a");
 * // "Unresolved alias (the anchor must be set before the alias): a at line 1, column 4"
 * ```
 */
export function yamlErrorDetail(error: unknown, text: string): string {
  const first = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
  if (/\bat line \d+, column \d+/.test(first)) return first.replace(/:$/, "");
  const alias = /Unresolved alias[^:]*: (.+)$/.exec(first)?.[1];
  const index = alias === undefined ? -1 : text.indexOf(`*${alias}`);
  return `${first} ${positionOf(text, Math.max(0, index))}`;
}

function positionOf(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  const column = index - (before.lastIndexOf("\n") + 1) + 1;
  return `at line ${line}, column ${column}`;
}

/**
 * `text` on one line: line breaks and other control characters escaped as in JSON.
 *
 * @example
 * ```ts
 * import { oneLine } from "./file_errors.ts";
 * oneLine('Unrecognized key: "a\nb"'); // 'Unrecognized key: "a\\nb"'
 * ```
 */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
}
