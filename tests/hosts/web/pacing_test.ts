import assert from "node:assert/strict";
import { DEFAULT_PACE_MS, paceFromEnv, Pacer } from "../../../hosts/web/pacing.ts";

Deno.test("the pacer keeps interactions at least its gap apart and counts them", async () => {
  const pacer = new Pacer(150);
  const started = Date.now();
  for (let i = 0; i < 4; i++) await pacer.step();
  assert.equal(pacer.count, 4);
  assert.ok(Date.now() - started >= 3 * 150, "three gaps between four interactions");
});

Deno.test("an aborted run does not wait for the pacer", async () => {
  const pacer = new Pacer(60_000);
  await pacer.step();
  const abort = new AbortController();
  abort.abort();
  const started = Date.now();
  await pacer.step(abort.signal);
  assert.ok(Date.now() - started < 30_000);
});

Deno.test("CONFORMANCE_PACE_MS sets the gap; a bad value says what to give", () => {
  const saved = Deno.env.get("CONFORMANCE_PACE_MS");
  try {
    Deno.env.delete("CONFORMANCE_PACE_MS");
    assert.equal(paceFromEnv(), DEFAULT_PACE_MS);
    Deno.env.set("CONFORMANCE_PACE_MS", "250");
    assert.equal(paceFromEnv(), 250);
    Deno.env.set("CONFORMANCE_PACE_MS", "fast");
    assert.throws(() => paceFromEnv(), /Invalid CONFORMANCE_PACE_MS "fast": give whole milliseconds/);
  } finally {
    if (saved === undefined) Deno.env.delete("CONFORMANCE_PACE_MS");
    else Deno.env.set("CONFORMANCE_PACE_MS", saved);
  }
  assert.throws(() => new Pacer(-1), /Invalid pacing gap -1/);
});
