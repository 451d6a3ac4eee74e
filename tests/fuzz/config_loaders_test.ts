/**
 * Fuzzes the config and expectations loaders (`parseConfig`, `parseExpectations`): documents generated near
 * their schemas (right keys, wrong types, missing and extra fields), serialised as YAML or JSON, then
 * optionally damaged by a byte edit. Each either loads or throws a `UsageError` that quotes the file and says
 * where: `line L, column C` for a syntax error, the field path for a schema error.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { stringify } from "yaml";
import { parseConfig } from "../../src/config.ts";
import { UsageError } from "../../src/errors.ts";
import { parseExpectations } from "../../src/expectations.ts";
import { inBatches } from "./_batches.ts";

const anyScalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: anyScalar }, {
    weight: 1,
    arbitrary: fc.constant(undefined),
  });

const cliHost = fc.record({
  id: maybe(fc.constantFrom("my-agent", "x", "Bad Id", "a:b", "")),
  kind: maybe(fc.constantFrom("cli", "web", "desktop")),
  binary: maybe(fc.constantFrom("my-agent", "/bin/true", "")),
  dialect: maybe(fc.constantFrom("claude", "codex", "")),
  streamShape: maybe(fc.record({
    init: maybe(fc.constantFrom("required", "synthetic", "none", "x")),
    terminal: maybe(fc.constantFrom("event", "eof", "x")),
  })),
  capabilities: maybe(fc.dictionary(fc.constantFrom("streaming", "permissionSkip", "bogus"), anyScalar)),
  env: maybe(fc.dictionary(fc.string({ maxLength: 6 }), anyScalar, { maxKeys: 2 })),
  envAllow: maybe(fc.array(anyScalar, { maxLength: 3 })),
  paths: maybe(
    fc.dictionary(fc.constantFrom("streaming", "version-check"), fc.array(anyScalar, { maxLength: 3 })),
  ),
  url: maybe(fc.constantFrom("https://example.test/", "not a url")),
  prompt: maybe(fc.record({ selector: maybe(fc.constantFrom("textarea", "")) })),
  conversation: maybe(fc.record({ selector: maybe(fc.constantFrom("main", "")) })),
}, { requiredKeys: [] });

const configDocument = fc.record({
  hosts: maybe(fc.array(cliHost, { maxLength: 2 })),
  goldenPaths: maybe(fc.array(
    fc.record({
      name: maybe(fc.constantFrom("plan-step", "Bad Name")),
      mode: maybe(fc.constantFrom("streaming", "blocking-json", "x")),
      prompt: maybe(fc.constantFrom("Reply with exactly: OK", "")),
      options: maybe(fc.record({ model: maybe(fc.string({ maxLength: 5 })) }, { requiredKeys: [] })),
    }, { requiredKeys: [] }),
    { maxLength: 1 },
  )),
  extra: fc.option(anyScalar, { nil: undefined }),
}, { requiredKeys: [] });

const expectationsDocument = fc.record({
  schema: maybe(fc.constantFrom("conformance-expectations/1", "conformance-expectations/2")),
  host: maybe(fc.constantFrom("gemini", "fake", "")),
  tests: maybe(fc.dictionary(
    fc.constantFrom("cli/behavior/streaming", "apps/x/y", ""),
    maybe(fc.record({
      status: maybe(fc.constantFrom("PASS", "FAIL", "WARN", "SKIP", "TIMEOUT", "ERROR", "BROKEN")),
      reason: maybe(fc.constantFrom("known", "", "  ")),
    }, { requiredKeys: [] })),
  )),
}, { requiredKeys: [] });

/** One byte edit: delete, insert or replace a character at a position, or cut the text there. */
const edit = fc.tuple(
  fc.constantFrom("delete", "insert", "replace", "cut"),
  fc.nat(),
  fc.constantFrom(
    ":",
    "-",
    " ",
    "\n",
    "\t",
    "[",
    "{",
    "}",
    '"',
    "'",
    "&a",
    "*a",
    "!!binary",
    "%",
    "#",
    "? ",
    "|",
  ),
);

function damaged(text: string, [kind, at, with_]: [string, number, string]): string {
  const i = at % (text.length + 1);
  if (kind === "delete") return text.slice(0, i) + text.slice(i + 1);
  if (kind === "insert") return text.slice(0, i) + with_ + text.slice(i);
  if (kind === "replace") return text.slice(0, i) + with_ + text.slice(i + 1);
  return text.slice(0, i);
}

/** Distinct documents generated per schema; each input edits one of them, so generation stays cheap. */
const POOL = 2_000;

/**
 * Document texts: a pool of generated documents, each serialised as YAML and as JSON once, then per input up
 * to three byte edits of one of them; a tenth of the inputs are arbitrary strings.
 */
function documentText<T>(document: fc.Arbitrary<T>): fc.Arbitrary<string> {
  const texts = fc.sample(document, { numRuns: POOL, seed: 42 }).flatMap((value) => {
    const clean = JSON.parse(JSON.stringify(value));
    return [stringify(clean), JSON.stringify(clean, null, 1)];
  });
  const edited = fc.tuple(fc.nat(texts.length - 1), fc.array(edit, { maxLength: 3 }))
    .map(([index, changes]) => changes.reduce(damaged, texts[index]!));
  return fc.oneof({ weight: 9, arbitrary: edited }, { weight: 1, arbitrary: fc.string() });
}

function checkLoad(load: () => unknown, source: string, what: string): void {
  try {
    load();
  } catch (error) {
    assert.ok(error instanceof UsageError, `${what} threw ${error}, not a UsageError`);
    // Every problem is reported at once, one line each: each line must stand on its own.
    for (const line of error.message.split("\n")) {
      assert.ok(line.includes(`"${source}"`), `a line does not quote the file: ${line}`);
      if (line.includes("not valid YAML")) {
        assert.match(line, /line \d+, column \d+/, `a syntax error without its position`);
      } else {
        assert.match(line, /malformed at \S+|twice|duplicate/, `an error without its place: ${line}`);
      }
    }
  }
}

Deno.test("fuzz: the config loader loads or says where the file is wrong", async (t) => {
  await inBatches(
    t,
    fc.property(documentText(configDocument), (text) => {
      checkLoad(() => parseConfig(text, "fuzz.yaml"), "fuzz.yaml", "parseConfig");
    }),
  );
});

Deno.test("fuzz: the expectations loader loads or says where the file is wrong", async (t) => {
  await inBatches(
    t,
    fc.property(documentText(expectationsDocument), (text) => {
      checkLoad(
        () => parseExpectations(text, "fuzz.expectations.yaml"),
        "fuzz.expectations.yaml",
        "parseExpectations",
      );
    }),
  );
});
