/**
 * Quoting what a host printed inside a message, once: a tool result, a stderr line, a reply. A host's output is
 * often JSON that itself carries JSON (`{"error":"Path \"/x\" …"}`); quoted with `JSON.stringify` it came out
 * escaped two or three times and cut in the middle of a word, and every report escaped it again. Here the JSON
 * layers are unwrapped to the text a person would read, the whitespace is made one line, the text is cut at a
 * word boundary with a visible mark, and it is set in typographic quotes (“…”), which no report format escapes,
 * so the quote reads the same in the terminal, the HTML page, JUnit and the markdown board.
 *
 * @module
 */

/** The mark left where text was cut. */
export const CUT_MARK = "…";

/**
 * `text` cut to at most `max` characters (the mark included) at the last word boundary that keeps at least
 * two thirds of it, else mid-word; the mark says it was cut. Text that fits comes back as it is.
 *
 * @example
 * ```ts
 * import { cutAtWord } from "./quote.ts";
 * cutAtWord("Path not in workspace: Attempted path", 24); // "Path not in workspace:…"
 * cutAtWord("short", 24); // "short"
 * ```
 */
export function cutAtWord(text: string, max: number): string {
  // Code points, not UTF-16 units: a cut never splits a character.
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = chars.slice(0, Math.max(1, max - CUT_MARK.length)).join("");
  const boundary = room.search(/\s\S*$/);
  const cut = boundary >= (room.length * 2) / 3 ? room.slice(0, boundary) : room;
  return `${cut.trimEnd()}${CUT_MARK}`;
}

/**
 * What a host printed, as a person reads it: a JSON string unwrapped (several layers too), a JSON object whose
 * values are all plain shown as `key: value; …`, any other JSON compact, and every run of whitespace made one
 * space. Lines of a list are joined with ` ⏎ `.
 *
 * @example
 * ```ts
 * import { readableHostText } from "./quote.ts";
 * readableHostText('{"error":"denied"}'); // "error: denied"
 * readableHostText(JSON.stringify('{"error":"denied"}')); // "error: denied"
 * ```
 */
export function readableHostText(text: string | readonly string[]): string {
  if (typeof text !== "string") return text.map((line) => readableHostText(line)).join(" ⏎ ");
  let value: unknown = text;
  // Each layer of JSON quoting is one more level of escaping; three is more than any host has been seen to use.
  for (let layer = 0; layer < 4 && typeof value === "string"; layer++) {
    const trimmed = value.trim();
    if (!/^["{[]/.test(trimmed)) break;
    try {
      value = JSON.parse(trimmed);
    } catch {
      break;
    }
  }
  return oneLine(typeof value === "string" ? value : plain(value));
}

/** A parsed JSON value for a message: flat objects as `key: value; …`, the rest compact JSON. */
function plain(value: unknown): string {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length > 0 && entries.every(([, item]) => item === null || typeof item !== "object")) {
      return entries.map(([key, item]) => `${key}: ${readableHostText(String(item))}`).join("; ");
    }
  }
  return JSON.stringify(value) ?? String(value);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Host output quoted once inside a message: {@linkcode readableHostText}, cut at a word boundary to `max`
 * characters, in typographic quotes. An empty text is `“”`.
 *
 * @example
 * ```ts
 * import { quoteHostText } from "./quote.ts";
 * quoteHostText('{"error":"Path not in workspace: Attempted path \\"/tmp/x\\" resolves outside"}', 60);
 * // '“error: Path not in workspace: Attempted path "/tmp/x"…”'
 * ```
 */
export function quoteHostText(text: string | readonly string[], max = 160): string {
  return `“${cutAtWord(readableHostText(text), max)}”`;
}
