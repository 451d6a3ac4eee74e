/**
 * The optimised claude normaliser gives byte-identical events (same keys, same order, same values) to the
 * reference version it replaced, on every recorded line and on generated claude-shaped lines: escaped quotes,
 * keys in other orders, unicode, whitespace, a `"type"` string inside content, missing and wrongly typed fields,
 * and lines that are not JSON at all.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { claudeNormalizer, mayBeJson } from "../../src/normalize/claude.ts";
import { referenceClaudeNormalizer } from "./_claude_reference.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url);

/** Both normalisers' output over `lines`, printed as `conformance parse` prints events. */
function both(lines: readonly string[]): [string, string] {
  const fresh = claudeNormalizer({ argv: [] });
  const reference = referenceClaudeNormalizer({ argv: [] });
  const print = (normalizer: typeof fresh) =>
    lines.map((line) => normalizer.line(line).map((event) => JSON.stringify(event)).join("\n")).join("\n");
  return [print(fresh), print(reference)];
}

Deno.test("every recorded line of every CLI fixture normalises exactly as before", () => {
  let count = 0;
  for (const host of Deno.readDirSync(FIXTURES)) {
    if (!host.isDirectory) continue;
    for (const fixture of Deno.readDirSync(new URL(`${host.name}/`, FIXTURES))) {
      if (!fixture.isDirectory) continue;
      const file = new URL(`${host.name}/${fixture.name}/stdout.jsonl`, FIXTURES);
      let text: string;
      try {
        text = Deno.readTextFileSync(file);
      } catch {
        continue;
      }
      const lines = text.split("\n");
      count += lines.length;
      const [fresh, reference] = both(lines);
      assert.equal(fresh, reference, `${host.name}/${fixture.name}`);
    }
  }
  assert.ok(count > 20, `expected recorded lines under ${FIXTURES.pathname}, found ${count}`);
});

const tricky = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom('"', '\\"', "\\", '"type":"result"', '{"type":"assistant"}', "\u2028", "\ud800", "\n", "é"),
);
const scalar = fc.oneof(
  tricky,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const anyJson = fc.oneof(scalar, fc.jsonValue({ maxDepth: 3 }));
const kind = fc.constantFrom(
  "system",
  "assistant",
  "user",
  "result",
  "stream_event",
  "prompt_suggestion",
  "other",
);
const subtype = fc.constantFrom(
  "init",
  "api_retry",
  "status",
  "success",
  "error_max_turns",
  "error_during_execution",
  "hook_started",
  "nope",
);
const block = fc.record({
  type: fc.oneof(fc.constantFrom("text", "tool_use", "tool_result", "thinking"), tricky),
  text: anyJson,
  id: anyJson,
  name: anyJson,
  input: anyJson,
  tool_use_id: anyJson,
  content: anyJson,
  is_error: fc.oneof(fc.boolean(), anyJson),
}, { requiredKeys: ["type"] });
const message = fc.record({
  content: fc.oneof(fc.array(fc.oneof(block, anyJson), { maxLength: 4 }), anyJson),
  role: tricky,
});
const usage = fc.record({
  input_tokens: scalar,
  output_tokens: scalar,
  cache_read_input_tokens: scalar,
  cache_creation_input_tokens: scalar,
});
/** A claude-shaped line: every field the normaliser reads, each maybe missing or of another type. */
const claudeObject = fc.record({
  type: fc.oneof(kind, anyJson),
  subtype: fc.oneof(subtype, anyJson),
  session_id: anyJson,
  model: anyJson,
  cwd: anyJson,
  claude_code_version: anyJson,
  attempt: scalar,
  max_retries: scalar,
  retry_delay_ms: scalar,
  error: anyJson,
  message: fc.oneof(message, anyJson),
  usage: fc.oneof(usage, anyJson),
  total_cost_usd: scalar,
  is_error: fc.oneof(fc.boolean(), anyJson),
  terminal_reason: anyJson,
  result: anyJson,
  structured_output: anyJson,
  noise: anyJson,
}, { requiredKeys: [] });

/** `object` as a line: keys shuffled, with JSON whitespace sprinkled in, or cut short (no longer JSON). */
const line = fc.tuple(
  claudeObject,
  fc.array(fc.nat(), { maxLength: 20 }),
  fc.constantFrom("", " ", "\t", "\r", " \t "),
  fc.oneof(fc.constant(-1), fc.nat()),
).map(([object, order, space, cut]) => {
  const entries = Object.entries(object);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = (order[i % Math.max(1, order.length)] ?? 0) % (i + 1);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  const text = space + "{" +
    entries.map(([key, value]) => `${JSON.stringify(key)}${space}:${space}${JSON.stringify(value)}`).join(
      `,${space}`,
    ) + "}" + space;
  return cut < 0 ? text : text.slice(0, cut % (text.length + 1));
});

Deno.test("generated claude-shaped lines normalise exactly as before, keys in any order", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(line, tricky), { minLength: 1, maxLength: 6 }), (lines) => {
      const [fresh, reference] = both(lines);
      assert.equal(fresh, reference);
    }),
    { numRuns: 600 },
  );
});

Deno.test("mayBeJson lets through exactly the lines whose first non-blank character can start JSON", () => {
  const reference = /^[ \t\r\n]*[{["\-0-9tfn]/;
  fc.assert(
    fc.property(
      fc.tuple(
        fc.constantFrom("", " ", "\t\r\n "),
        fc.oneof(tricky, fc.jsonValue().map((v) => JSON.stringify(v))),
      ),
      ([blank, rest]) => {
        assert.equal(mayBeJson(blank + rest), reference.test(blank + rest));
      },
    ),
    { numRuns: 2000 },
  );
  for (const text of ["", " ", "x", " {", "\v{", "\u00a0{", "-", "t", "N"]) {
    assert.equal(mayBeJson(text), reference.test(text), JSON.stringify(text));
  }
});
