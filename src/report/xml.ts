/**
 * XML text and attribute escaping for the JUnit report. Characters XML 1.0 cannot carry at all (most C0
 * controls, lone surrogates, U+FFFE/U+FFFF) are removed, since no escape makes them legal.
 *
 * @module
 */

// The control characters are the point: XML 1.0 forbids them.
// deno-lint-ignore no-control-regex
const INVALID_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes characters that are not allowed anywhere in an XML 1.0 document. */
export function stripInvalidXml(text: string): string {
  return text.replace(INVALID_XML, "");
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
  return stripInvalidXml(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
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
  return escapeXmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

/** `<name a="1" b="2"` with escaped attribute values, in the given order; undefined values are left out. */
export function openTag(name: string, attributes: Record<string, string | number | undefined>): string {
  let out = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) out += ` ${key}="${escapeXmlAttribute(String(value))}"`;
  }
  return out;
}
