/**
 * Fuzzes the fake host's directive parser (`fake_host/script.ts`): prompts built from the directive grammar
 * with mutated verbs, keys and values, plus arbitrary text, inside and around an `@@fake` … `@@end` fence. It
 * either returns a script (known dialect, directives on lines inside the fence) or throws a `ScriptError`
 * whose message starts with `line N:` for a line N of the prompt; nothing else may escape.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { FAKE_DIALECTS, parseScript, ScriptError } from "../../fake_host/script.ts";
import { inBatches } from "./_batches.ts";

const VERBS = [
  "init",
  "text",
  "tool",
  "result",
  "turn_completed",
  "retry",
  "raw",
  "bytes",
  "stderr",
  "sleep",
  "flood",
  "stdin",
  "exit",
  "hang",
];
const KEYS = [
  "model",
  "session",
  "dialect",
  "error",
  "in",
  "out",
  "cache",
  "structured",
  "cached",
  "message",
  "attempt",
  "max",
];

const value = fc.oneof(
  fc.constantFrom(...FAKE_DIALECTS, "0", "-1", "1.5", "1e3", "{}", '{"a":1}', "[", "zz", "0a", "ff00", ""),
  fc.nat({ max: 2 ** 40 }).map(String),
  fc.string({ maxLength: 12 }),
);
const argument = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), value).map(([key, v]) => `${key}=${v}`),
  value,
  fc.json({ maxDepth: 2 }),
);
const directive = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...VERBS), fc.array(argument, { maxLength: 4 })) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.array(argument, { maxLength: 3 })) },
).map(([verb, args]) => [verb, ...args].join(" "));
const noise = fc.oneof(fc.constant(""), fc.constant("# a comment"), fc.string({ maxLength: 30 }));
const fence = fc.oneof(
  { weight: 8, arbitrary: fc.constant(["@@fake", "@@end"] as const) },
  { weight: 1, arbitrary: fc.constant(["@@fake", ""] as const) },
  { weight: 1, arbitrary: fc.constant(["", "@@end"] as const) },
);
const prompt = fc.tuple(
  fc.array(noise, { maxLength: 2 }),
  fence,
  fc.array(fc.oneof({ weight: 5, arbitrary: directive }, { weight: 1, arbitrary: noise }), { maxLength: 8 }),
  fc.array(noise, { maxLength: 2 }),
  fc.boolean(),
).map(([before, [open, close], body, after, indent]) => {
  const pad = indent ? "  " : "";
  return [...before, open, ...body.map((line) => pad + line), close, ...after].join("\n");
});

Deno.test("fuzz: the directive parser returns a script or a ScriptError naming a line", async (t) => {
  await inBatches(
    t,
    fc.property(fc.oneof({ weight: 9, arbitrary: prompt }, { weight: 1, arbitrary: fc.string() }), (text) => {
      const lineCount = text.split("\n").length;
      let script;
      try {
        script = parseScript(text);
      } catch (error) {
        assert.ok(error instanceof ScriptError, `not a ScriptError: ${error}`);
        assert.match(error.message, /^line \d+: \S/);
        assert.ok(error.line >= 1 && error.line <= lineCount, `line ${error.line} of ${lineCount}`);
        return;
      }
      assert.ok((FAKE_DIALECTS as readonly string[]).includes(script.dialect));
      for (const parsed of script.directives) {
        assert.ok(VERBS.includes(parsed.verb), `unknown verb ${parsed.verb}`);
        assert.ok(parsed.line === 0 || (parsed.line >= 1 && parsed.line <= lineCount));
      }
    }),
  );
});
