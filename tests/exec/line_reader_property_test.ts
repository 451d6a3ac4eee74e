/**
 * The line reader against a plain model of its contract: all bytes joined, cut at every 0x0A, each line
 * decoded alone (a leading BOM dropped, bad bytes replaced and flagged), over-long lines reduced to a preview.
 * However the bytes are chunked — multi-byte characters, BOMs and newlines split across chunks — the reader
 * must give exactly the model's lines.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { forEachLine, type Line, readLines } from "../../src/exec/line_reader.ts";

const encoder = new TextEncoder();

/** The contract, written the slow and obvious way. */
function model(bytes: Uint8Array, max: number): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const line = bytes.subarray(start, end);
    if (line.length > max) {
      const text = new TextDecoder().decode(line.subarray(0, 200));
      lines.push({ text, bytes: line.length, tooLong: true, invalidUtf8: false });
    } else {
      let text: string;
      let invalidUtf8 = false;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(line);
      } catch {
        text = new TextDecoder().decode(line);
        invalidUtf8 = true;
      }
      lines.push({ text, bytes: line.length, tooLong: false, invalidUtf8 });
    }
    start = end + 1;
  }
  return lines;
}

async function read(chunks: Uint8Array[], max: number): Promise<Line[]> {
  const lines: Line[] = [];
  for await (const line of readLines(ReadableStream.from(chunks), { maxLineBytes: max })) lines.push(line);
  return lines;
}

/**
 * The lines forEachLine hands over from a byte stream (as a child's pipes are), which it reads into two
 * buffers in turn: a line held over a chunk must survive its buffer being read into again.
 */
async function readEach(chunks: Uint8Array[], max: number): Promise<Line[]> {
  const lines: Line[] = [];
  let next = 0;
  const stream = new ReadableStream({
    type: "bytes",
    pull(controller) {
      while (next < chunks.length && chunks[next]!.length === 0) next++; // a byte stream enqueues no empty chunk
      if (next === chunks.length) {
        controller.close();
        return controller.byobRequest?.respond(0); // a pending BYOB read ends as done only so
      }
      controller.enqueue(chunks[next++]!.slice());
    },
  });
  await forEachLine(stream, (line) => lines.push(line), { maxLineBytes: max });
  return lines;
}

/** Pieces that stress the reader: multi-byte characters, BOMs, bad bytes, `\r`, U+2028, JSON-ish text. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => encoder.encode(s)) },
  { weight: 3, arbitrary: fc.constantFrom("\n", "\n\n", "\r\n").map((s) => encoder.encode(s)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("\ufeff", "é", "€", "😀", "\u2028", '{"type":"x"}').map((s) =>
      encoder.encode(s)
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom([0xff], [0xc3], [0x80], [0xed, 0xa0, 0x80], [0xef, 0xbb]).map((b) =>
      Uint8Array.from(b)
    ),
  },
);

const input = fc.tuple(
  fc.array(piece, { maxLength: 40 }),
  fc.array(fc.nat({ max: 60 }), { maxLength: 12 }),
  fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(8 * 1024 * 1024)),
);

Deno.test("any bytes, chunked anywhere, give the model's lines, from any stream or a byte stream", async () => {
  await fc.assert(
    fc.asyncProperty(input, async ([pieces, cuts, max]) => {
      const whole = new Uint8Array(pieces.reduce((sum, p) => sum + p.length, 0));
      let offset = 0;
      for (const p of pieces) {
        whole.set(p, offset);
        offset += p.length;
      }
      const chunks: Uint8Array[] = [];
      let at = 0;
      for (const cut of cuts) {
        chunks.push(whole.slice(at, Math.min(whole.length, at + cut)));
        at = Math.min(whole.length, at + cut);
      }
      chunks.push(whole.slice(at));
      const expected = model(whole, max);
      assert.deepEqual(await read(chunks, max), expected);
      assert.deepEqual(await readEach(chunks, max), expected);
    }),
    { numRuns: 800 },
  );
});

Deno.test("a BOM starting any line is dropped as decoding that line alone drops it, a second one kept", async () => {
  const bytes = encoder.encode("\ufeffa\n\ufeff\ufeffb\nc\ufeff\n\ufeff");
  const lines = await read([bytes], 100);
  assert.deepEqual(lines.map((line) => line.text), ["a", "\ufeffb", "c\ufeff", ""]);
  assert.deepEqual(lines, model(bytes, 100));
});

Deno.test("the next chunk is already being read while a line is handled", async () => {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(encoder.encode(`line ${pulls}\n`));
      if (pulls === 3) controller.close();
    },
  }, { highWaterMark: 0 });
  const lines = readLines(stream);
  const first = await lines.next();
  assert.equal(first.value?.text, "line 1");
  // The stream is pulled only on demand: a second pull means a read is in flight while "line 1" is handled.
  assert.equal(pulls, 2);
  const rest: string[] = [];
  for await (const line of lines) rest.push(line.text);
  assert.deepEqual(rest, ["line 2", "line 3"]);
});

Deno.test("an error of the stream reaches the reader once, with no unhandled rejection", async () => {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (++pulls === 1) controller.enqueue(encoder.encode("one\n"));
      else controller.error(new Error("pipe broke"));
    },
  }, { highWaterMark: 0 });
  const seen: string[] = [];
  await assert.rejects(async () => {
    for await (const line of readLines(stream)) {
      seen.push(line.text);
      await new Promise((resolve) => setTimeout(resolve, 10)); // the failed read settles meanwhile
    }
  }, /pipe broke/);
  assert.deepEqual(seen, ["one"]);
});

Deno.test("a line kept after reading does not keep the rest of its chunk alive", async () => {
  // 800 chunks of 64 KiB, one short line kept from each: 51 MB if a line held its chunk's text.
  const filler = encoder.encode(`${"x".repeat(99)}\n`.repeat(655));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ === 800) return controller.close();
      controller.enqueue(filler.slice());
    },
  });
  const kept: string[] = [];
  const before = Deno.memoryUsage().heapUsed;
  let seen = 0;
  await forEachLine(stream, (line) => {
    if (seen++ % 655 === 0) kept.push(line.text);
  });
  const grownMb = (Deno.memoryUsage().heapUsed - before) / 1024 / 1024;
  assert.equal(kept.length, 800);
  assert.ok(grownMb < 24, `the heap grew ${grownMb.toFixed(1)} MB keeping 800 lines of 99 bytes`);
});
