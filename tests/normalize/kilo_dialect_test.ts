/**
 * Kilo Code is a fork of opencode, and its host reuses the `opencode` normaliser: these tests prove on the
 * recordings (tests/fixtures/cli/kilo/ beside tests/fixtures/cli/opencode/, both from the pinned binaries)
 * that its `run --format json` lines are opencode's, kind by kind and key by key, and that the normaliser
 * reads them as it reads opencode's.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../hosts/registry.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import type { NormalizedEvent } from "../../src/normalize/events.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url);
const CASES = [
  "no-credentials",
  "unreachable-endpoint",
  "mock-ok",
  "mock-http-500",
  "mock-malformed",
  "mock-disconnect",
];

type Line = Record<string, unknown> & { type: string; part?: Record<string, unknown> };

function lines(host: string, kase: string): Line[] {
  const text = Deno.readTextFileSync(new URL(`${host}/${kase}/stdout.jsonl`, FIXTURES));
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Line);
}

function runner(id: string): HostRunner {
  const entry = HOSTS.find((candidate) => candidate.id === id);
  assert.ok(entry?.kind === "cli", `host ${id} is not registered`);
  return entry.runner;
}

/** One kilo recording through the registry's kilo runner (its dialect's normaliser). */
function normalise(kase: string): NormalizedEvent[] {
  const dir = new URL(`kilo/${kase}/`, FIXTURES);
  const meta = JSON.parse(Deno.readTextFileSync(new URL("meta.json", dir)));
  return parseStream(runner("kilo"), Deno.readTextFileSync(new URL("stdout.jsonl", dir)), {
    argv: JSON.parse(Deno.readTextFileSync(new URL("argv.json", dir))),
    exitCode: meta.exitCode,
    signal: meta.signal,
    stderr: Deno.readTextFileSync(new URL("stderr.txt", dir)),
  });
}

/** Per line kind: the top-level keys and the `part` keys seen in one host's recordings. */
function shapes(host: string): Map<string, { keys: Set<string>; part: Set<string> }> {
  const out = new Map<string, { keys: Set<string>; part: Set<string> }>();
  for (const kase of CASES) {
    for (const line of lines(host, kase)) {
      const shape = out.get(line.type) ?? { keys: new Set(), part: new Set() };
      Object.keys(line).forEach((key) => shape.keys.add(key));
      Object.keys(line.part ?? {}).forEach((key) => shape.part.add(key));
      out.set(line.type, shape);
    }
  }
  return out;
}

Deno.test("kilo's host speaks the opencode dialect, with opencode's stream shape", () => {
  const kilo = runner("kilo");
  const opencode = runner("opencode");
  assert.equal(kilo.dialect, "opencode");
  assert.deepEqual(kilo.streamShape, opencode.streamShape);
});

/** Where kilo's line shapes differ from opencode's recordings, each one seen on kilo's own recordings. */
const KNOWN_PART_DIFFERENCES: Readonly<Record<string, { added: string[]; missing: string[] }>> = {
  // kilo adds generation metrics and step timing to step_finish; the mock setup switches snapshots off.
  step_finish: { added: ["metrics", "time"], missing: ["snapshot"] },
  step_start: { added: [], missing: ["snapshot"] },
};

Deno.test("kilo's line kinds and keys are opencode's, apart from the part keys listed here", () => {
  const kilo = shapes("kilo");
  const opencode = shapes("opencode");
  assert.ok(kilo.size > 0, "kilo recorded no line at all");
  for (const [type, shape] of kilo) {
    const theirs = opencode.get(type);
    // opencode's recordings never fail with an `error` line; kilo's do (its normaliser case is checked below).
    if (!theirs) {
      assert.equal(type, "error", `kilo line kind "${type}" never appears in opencode's recordings`);
      continue;
    }
    assert.deepEqual([...shape.keys].sort(), [...theirs.keys].sort(), `top-level keys of "${type}"`);
    const added = [...shape.part].filter((key) => !theirs.part.has(key)).sort();
    const missing = [...theirs.part].filter((key) => !shape.part.has(key)).sort();
    assert.deepEqual({ added, missing }, KNOWN_PART_DIFFERENCES[type] ?? { added: [], missing: [] }, type);
  }
});

Deno.test("kilo's error lines (a string or opencode's error object) become the error terminal's reason", () => {
  for (
    const [kase, message] of [
      ["mock-malformed", "run ended without an assistant message; the model returned no output"],
      ["mock-disconnect", "Connection reset by server"],
    ] as const
  ) {
    const events = normalise(kase);
    assert.ok(events.some((event) => event.kind === "error" && event.message === message), kase);
    const terminal = events.at(-1);
    assert.equal(terminal?.kind, "terminal", kase);
    if (terminal?.kind === "terminal") {
      assert.equal(terminal.status, "error", kase);
      assert.equal(terminal.reason, message, kase);
    }
  }
});

Deno.test("kilo mock-ok reads as opencode's: synthetic init with the session, OK, step usage, EOF success", () => {
  const events = normalise("mock-ok");
  const first = lines("kilo", "mock-ok")[0]!;
  const init = events[0];
  assert.equal(init?.kind, "init");
  assert.equal(init?.synthetic, true);
  if (init?.kind === "init") {
    assert.equal(init.sessionId, first.sessionID);
    assert.equal(init.model, "mock/mock-model");
  }
  assert.ok(events.some((event) => event.kind === "text" && event.text === "OK"));
  const usage = events.filter((event) => event.kind === "usage");
  assert.ok(usage.length > 0 && usage.every((event) => event.kind === "usage" && event.scope === "step"));
  const terminal = events.at(-1);
  assert.equal(terminal?.kind, "terminal");
  assert.equal(terminal?.synthetic, true);
  if (terminal?.kind === "terminal") assert.equal(terminal.status, "success");
});
