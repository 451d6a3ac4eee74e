/**
 * Terminal-safe text: what a host controls (result messages, stderr, unparsed lines, its version line) is
 * shown on the user's terminal and in HTML, where an escape sequence could retitle the window, clear the
 * screen, forge a hyperlink (OSC 8) or hide text. {@linkcode stripControls} removes every such sequence and
 * control character and leaves a visible mark where one was:
 *
 * - an escape sequence (CSI `ESC [ … final`, OSC `ESC ] … BEL` or `ESC ] … ESC \`, any other `ESC x`, and
 *   the 8-bit forms introduced by U+009B CSI and U+009D OSC) becomes one `␛`, its parameters and payload
 *   dropped: an OSC 8 hyperlink keeps its visible text and loses its target;
 * - a lone ESC and every other C1 control (U+0080–U+009F) becomes `␛` too;
 * - every other C0 control and DEL becomes its Unicode control picture (`\x07` → `␇`, `\r` → `␍`,
 *   DEL → `␡`), except `\n` and `\t` unless the field is one line (`\r\n` counts as `\n`).
 *
 * @module
 */

/** The mark left where an escape sequence or a C1 control was. */
export const ESCAPE_MARK = "␛";

// The control characters are the point of these patterns.
// deno-lint-ignore no-control-regex
const MAYBE_CONTROL = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/;

const CONTROL = new RegExp(
  [
    // OSC: ESC ] or U+009D, up to BEL, ST (ESC \ or U+009C) or the end of the text.
    String.raw`(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|(?=\x1b)|$)`,
    // CSI: ESC [ or U+009B, parameter and intermediate bytes, one final byte.
    String.raw`(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?`,
    // DCS, SOS, PM and APC strings, up to ST.
    String.raw`(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c|(?=\x1b)|$)`,
    // Any other two-byte escape (with intermediates), or a lone ESC at the end.
    String.raw`\x1b[\x20-\x2f]*[\x30-\x7e]?`,
    // Any other C0, DEL or C1 control.
    String.raw`[\x00-\x1f\x7f-\x9f]`,
  ].join("|"),
  "g",
);

/** Options of {@linkcode stripControls}. */
export interface StripControlsOptions {
  /** Mark `\n` and `\t` too (a one-line field such as a version or a terminal line); default false. */
  readonly singleLine?: boolean;
}

/**
 * Replaces every escape sequence and control character in `text` with a visible mark (see the module doc).
 * Idempotent: the marks are printable.
 *
 * @param text Text a host controls, about to be printed or written to HTML, markdown or XML.
 * @param options `singleLine` marks line feeds and tabs as well.
 * @example
 * ```ts
 * import { stripControls } from "./sanitize.ts";
 * stripControls("\x1b]0;pwned\x07ok\x1b[2J\r"); // "␛ok␛␍"
 * stripControls("a\n\tb", { singleLine: true }); // "a␊␉b"
 * ```
 */
export function stripControls(text: string, options: StripControlsOptions = {}): string {
  const singleLine = options.singleLine ?? false;
  if (!MAYBE_CONTROL.test(text) && !(singleLine && /[\n\t]/.test(text))) return text;
  return (singleLine ? text : text.replace(/\r\n/g, "\n")).replace(CONTROL, (match) => {
    if (match.length > 1 || match === "\x1b") return ESCAPE_MARK;
    const code = match.charCodeAt(0);
    if (!singleLine && (match === "\n" || match === "\t")) return match;
    if (code === 0x7f) return "\u2421";
    if (code >= 0x80) return ESCAPE_MARK;
    return String.fromCharCode(0x2400 + code);
  });
}
