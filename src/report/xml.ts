/**
 * XML text and attribute escaping for the JUnit report. Characters XML 1.0 cannot carry at all (most C0
 * controls, lone surrogates, U+FFFE/U+FFFF) are removed, since no escape makes them legal; escape sequences
 * and the controls XML would allow (C1) are marked first by `stripControls` (src/report/sanitize.ts).
 *
 * @module
 */
import { stripControls } from "./sanitize.ts";

// The control characters are the point: XML 1.0 forbids them.
// deno-lint-ignore no-control-regex
const INVALID_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// A quick test first: nearly all text is plain printable characters and needs no scan for invalid ones.
// deno-lint-ignore no-control-regex
const MAYBE_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

const HAS_TEXT_SPECIAL = /[&<>]/;
const TEXT_SPECIAL = /[&<>]/g;
const HAS_ATTRIBUTE_SPECIAL = /[&<>"'\n\r\t]/;
const ATTRIBUTE_SPECIAL = /[&<>"'\n\r\t]/g;
const ENTITY: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  // Character references keep line breaks and tabs through attribute-value normalisation.
  "\n": "&#10;",
  "\r": "&#13;",
  "\t": "&#9;",
};

/** Removes characters that are not allowed anywhere in an XML 1.0 document. */
export function stripInvalidXml(text: string): string {
  const clean = stripControls(text);
  return MAYBE_INVALID.test(clean) ? clean.replace(INVALID_XML, "") : clean;
}

/**
 * Escapes element content.
 *
 * @example
 * ```ts
 * import { escapeXmlText } from "./xml.ts";
 * escapeXmlText("a < b & c"); // "a &lt; b &amp; c"
 * ```
 */
export function escapeXmlText(text: string): string {
  const clean = stripInvalidXml(text);
  return HAS_TEXT_SPECIAL.test(clean) ? clean.replace(TEXT_SPECIAL, (char) => ENTITY[char]!) : clean;
}

/**
 * Escapes an attribute value (for double quotes); line breaks and tabs become character references so that
 * attribute normalisation keeps them.
 *
 * @example
 * ```ts
 * import { escapeXmlAttribute } from "./xml.ts";
 * escapeXmlAttribute('say "hi"\n'); // "say &quot;hi&quot;&#10;"
 * ```
 */
export function escapeXmlAttribute(text: string): string {
  const clean = stripInvalidXml(text);
  return HAS_ATTRIBUTE_SPECIAL.test(clean)
    ? clean.replace(ATTRIBUTE_SPECIAL, (char) => ENTITY[char]!)
    : clean;
}

/** `<name a="1" b="2"` with escaped attribute values, in the given order; undefined values are left out. */
export function openTag(name: string, attributes: Record<string, string | number | undefined>): string {
  let out = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) out += ` ${key}="${escapeXmlAttribute(String(value))}"`;
  }
  return out;
}
