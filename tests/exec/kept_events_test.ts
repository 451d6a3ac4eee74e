/**
 * What an observation keeps of a long stream is bounded by bytes (src/exec/kept_events.ts): a real `cat`
 * child streams megabytes of claude lines through the executor, and the observation holds at most the raw
 * and event budgets plus a line, whatever the event count cap would allow; a short stream is kept whole.
 */
import assert from "node:assert/strict";
import { execute } from "../../src/exec/executor.ts";
import { MAX_KEPT_EVENT_BYTES, MAX_KEPT_RAW_BYTES } from "../../src/exec/kept_events.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import type { NormalizedEvent } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

const encoder = new TextEncoder();

/** A claude assistant text line of exactly `bytes` bytes. */
function textLine(bytes: number, tag: string): string {
  const head = `{"type":"assistant","message":{"content":[{"type":"text","text":"${tag} `;
  const tail = `"}]}}`;
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

const INIT = '{"type":"system","subtype":"init","session_id":"s","model":"m"}';
const RESULT =
  '{"type":"result","subtype":"success","is_error":false,"result":"OK","usage":{"input_tokens":1,"output_tokens":1}}';

/** Streams `lines` from a file through `cat` and the claude normaliser. */
async function observeLines(lines: readonly string[]) {
  const file = await Deno.makeTempFile({ prefix: "conformance-kept-", suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(file, `${lines.join("\n")}\n`);
    return await execute(
      { binary: "cat", args: [file], env: {}, envAllow: [], cleanupPaths: [], capabilities: NO_CAPABILITIES },
      {
        host: "cat",
        normalizer: normalizerFor("claude")({ argv: [] }),
        streamShape: { init: "required", terminal: "event" },
      },
    );
  } finally {
    await Deno.remove(file);
  }
}

/** The raw text the events hold, in bytes, each line once (the events of one line share it). */
function rawBytes(events: readonly NormalizedEvent[]): number {
  let total = 0;
  let last: string | null = null;
  for (const { raw } of events) {
    if (raw !== null && raw !== last) total += encoder.encode(raw).length;
    last = raw;
  }
  return total;
}

Deno.test("a long stream leaves the observation at most the raw and event budgets plus a line", async () => {
  const LINE = 1024;
  // 6 MiB of text lines: far under the 10 000-event count cap, far over both byte budgets.
  const count = 6 * 1024;
  const lines = [INIT, ...Array.from({ length: count }, (_, index) => textLine(LINE, `t${index}`))];
  const observation = await observeLines([...lines, "this is not json", RESULT]);

  assert.equal(observation.stdoutLines, count + 3);
  assert.equal(observation.kinds.at(-1), "terminal", "the terminal is always kept");
  assert.equal(observation.resultSeen, true);
  const kept = rawBytes(observation.events);
  assert.ok(kept <= MAX_KEPT_RAW_BYTES + 2 * LINE, `the events hold ${kept} bytes of raw lines`);
  const keptText = observation.events.filter((event) => event.kind === "text").length;
  assert.ok(
    keptText * LINE <= MAX_KEPT_EVENT_BYTES + LINE,
    `${keptText} text events of ${LINE}-byte lines kept, over the ${MAX_KEPT_EVENT_BYTES}-byte budget`,
  );
  assert.equal(
    observation.dropped.events,
    count - keptText + 2,
    "the text events past the budget, the unparsed line's and the result's usage are counted",
  );
  assert.ok(observation.dropped.rawLines > 0);
  assert.deepEqual(
    observation.events.slice(0, 3).map((event) => event.raw),
    lines.slice(0, 3),
    "the first events keep their raw lines",
  );
  assert.equal(observation.events.at(-1)?.raw, null, "past the raw budget, even the terminal's raw is gone");
});

Deno.test("the first unparsed line keeps its raw text past the raw budget: a failing check quotes it", async () => {
  const lines = Array.from({ length: 1536 }, (_, index) => textLine(1024, `t${index}`));
  const observation = await observeLines([INIT, ...lines, "first bad line", "second bad line", RESULT]);
  const unparsed = observation.events.filter((event) => event.kind === "unparsed");
  assert.deepEqual(unparsed.map((event) => event.raw), ["first bad line", null]);
  assert.equal(observation.events.at(-2)?.raw, null);
});

Deno.test("a short stream is kept exactly as normalised, every raw line with it", async () => {
  const lines = [INIT, textLine(200, "a"), "not json", textLine(300, "b"), RESULT];
  const observation = await observeLines(lines);
  assert.deepEqual(observation.kinds, ["init", "text", "unparsed", "text", "usage", "terminal"]);
  assert.deepEqual(
    observation.events.map((event) => event.raw),
    [lines[0], lines[1], lines[2], lines[3], lines[4], lines[4]],
  );
  assert.deepEqual(observation.dropped, { events: 0, rawLines: 0, stderrLines: 0, violations: 0 });
});
