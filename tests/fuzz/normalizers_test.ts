/**
 * Fuzzes every normaliser in `src/normalize/mod.ts`: arbitrary text, arbitrary JSON, and recorded lines of
 * every CLI (tests/fixtures/cli) mutated field by field, truncated, or with their `type` swapped, fed in short
 * sequences to a fresh normaliser, then `end()` with arbitrary exit facts. No input may throw, and every event
 * must be well-formed: a known kind, its raw line a string, serialisable to JSON.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { NORMALIZERS } from "../../src/normalize/mod.ts";
import type { DraftEvent } from "../../src/normalize/events.ts";
import { inBatches } from "./_batches.ts";

const KINDS = new Set([
  "init",
  "text",
  "tool_call",
  "tool_result",
  "usage",
  "retry",
  "error",
  "terminal",
  "unparsed",
]);
const FIXTURES = decodeURIComponent(new URL("../fixtures/cli/", import.meta.url).pathname);

/** Every recorded stdout line of every CLI that parses as a JSON object. */
function recordedObjects(): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const host of Deno.readDirSync(FIXTURES)) {
    if (!host.isDirectory) continue;
    for (const fixture of Deno.readDirSync(`${FIXTURES}${host.name}`)) {
      let text: string;
      try {
        text = Deno.readTextFileSync(`${FIXTURES}${host.name}/${fixture.name}/stdout.jsonl`);
      } catch {
        continue;
      }
      for (const line of text.split("\n")) {
        try {
          const value = JSON.parse(line);
          if (typeof value === "object" && value !== null && !Array.isArray(value)) objects.push(value);
        } catch {
          // Recorded noise lines are fuzz input too, through the arbitrary-text arbitrary.
        }
      }
    }
  }
  return objects;
}

const CORPUS = recordedObjects();
const TYPES = [
  ...new Set(CORPUS.map((object) => object.type).filter((t): t is string => typeof t === "string")),
];

/** Every path to a value inside a JSON value (objects and arrays), depth-first. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => paths(child, [...prefix, key]))];
}

/** A copy of `root` with the value at `path` replaced; only the containers along the path are copied. */
function setAt(root: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const container = root as Record<string | number, unknown>;
  const copy = Array.isArray(root)
    ? [...root] as unknown as Record<string | number, unknown>
    : { ...container };
  const [key, ...rest] = path;
  copy[key!] = setAt(container[key!], rest, replacement);
  return copy;
}

const PATHS = CORPUS.map((object) => paths(object));

/** A recorded line with one value anywhere inside it replaced (or the `type` swapped), as text. */
const mutatedRecorded = fc.tuple(
  fc.nat(CORPUS.length - 1),
  fc.nat(),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...TYPES), fc.constant(undefined)),
).map(([index, pick, replacement]) => {
  const all = PATHS[index]!;
  return JSON.stringify(setAt(CORPUS[index], all[pick % all.length]!, replacement)) ?? "null";
});

/** A recorded line cut short at a random byte. */
const truncatedRecorded = fc.tuple(fc.constantFrom(...CORPUS), fc.nat()).map(([object, cut]) => {
  const text = JSON.stringify(object);
  return text.slice(0, cut % (text.length + 1));
});

const line = fc.oneof(
  { weight: 4, arbitrary: mutatedRecorded },
  { weight: 1, arbitrary: truncatedRecorded },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 80 }) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constantFrom(...TYPES), subtype: fc.string(), item: fc.jsonValue() })
      .map((value) => JSON.stringify(value)),
  },
).map((text) => text.replaceAll("\n", " "));

const end = fc.record({
  exitCode: fc.option(fc.integer({ min: -1, max: 255 })),
  signal: fc.option(fc.constantFrom("SIGTERM", "SIGKILL", "SIGINT")),
  stderrTail: fc.string({ maxLength: 200 }),
});

/** Checks what `line(input)` (or, with `atEof`, `end()`) returned. */
function checkEvents(events: unknown, input: string, atEof = false): void {
  assert.ok(Array.isArray(events), `the normaliser returned ${typeof events} for ${JSON.stringify(input)}`);
  for (const event of events as DraftEvent[]) {
    assert.ok(KINDS.has(event.kind), `unknown event kind ${JSON.stringify(event.kind)} for ${input}`);
    if (atEof) {
      assert.ok(event.raw === null || typeof event.raw === "string", `bad raw at EOF: ${event.raw}`);
    } else {
      assert.equal(event.raw, input, `an event of line ${JSON.stringify(input)} does not carry it as raw`);
    }
    JSON.stringify(event); // must be serialisable: reports carry events
  }
}

/** Lines fed to one fresh normaliser per run: they are stateful (init seen, open tool calls, retries). */
const LINES_PER_RUN = 4;

assert.ok(
  CORPUS.length > 50,
  `only ${CORPUS.length} recorded lines under ${FIXTURES}: the fixtures are missing`,
);

for (const [dialect, factory] of Object.entries(NORMALIZERS)) {
  Deno.test(`fuzz: the ${dialect} normaliser takes any line without throwing`, async (t) => {
    await inBatches(
      t,
      fc.property(fc.tuple(line, line, line, line), end, (lines, stop) => {
        const normalizer = factory({ argv: [] });
        for (const input of lines) checkEvents(normalizer.line(input), input);
        checkEvents(normalizer.end(stop), `end(${JSON.stringify(stop)})`, true);
      }),
      { inputsPerRun: LINES_PER_RUN },
    );
  });
}
