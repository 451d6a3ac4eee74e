import assert from "node:assert/strict";
import { DEFAULT_MAX_LINE_BYTES, type Line, readLines } from "../../src/exec/line_reader.ts";

const encoder = new TextEncoder();

async function linesOf(chunks: Uint8Array[], maxLineBytes?: number): Promise<Line[]> {
  const lines: Line[] = [];
  const options = maxLineBytes === undefined ? {} : { maxLineBytes };
  for await (const line of readLines(ReadableStream.from(chunks), options)) lines.push(line);
  return lines;
}

Deno.test("lines split on \\n only, across chunk boundaries, keeping \\r and U+2028", async () => {
  const lines = await linesOf([encoder.encode("a\r\nb\u2028c\nd"), encoder.encode("e\n\nf")]);
  assert.deepEqual(lines.map((line) => line.text), ["a\r", "b\u2028c", "de", "", "f"]);
  assert.ok(lines.every((line) => !line.tooLong && !line.invalidUtf8));
  assert.equal(lines[1]?.bytes, encoder.encode("b\u2028c").length);
});

Deno.test("a line over the default 8 MiB limit is reported once with a preview, and reading goes on", async () => {
  const big = new Uint8Array(DEFAULT_MAX_LINE_BYTES + 10).fill(0x78);
  const chunks: Uint8Array[] = [encoder.encode("first\n")];
  for (let offset = 0; offset < big.length; offset += 1 << 20) {
    chunks.push(big.subarray(offset, offset + (1 << 20)));
  }
  chunks.push(encoder.encode("\nlast\n"));
  const lines = await linesOf(chunks);
  assert.deepEqual(lines.map((line) => line.tooLong), [false, true, false]);
  assert.equal(lines[1]?.bytes, big.length);
  assert.equal(lines[1]?.text, "x".repeat(200));
  assert.equal(lines[2]?.text, "last");
});

Deno.test("an over-long line within a single chunk and one cut by EOF are both flagged", async () => {
  const lines = await linesOf([encoder.encode("0123456789\nok\n0123456789")], 5);
  assert.deepEqual(lines.map((line) => [line.text, line.tooLong]), [["0123456789", true], ["ok", false], [
    "0123456789",
    true,
  ]]);
});

Deno.test("invalid UTF-8 is replaced with U+FFFD and flagged", async () => {
  const lines = await linesOf([Uint8Array.from([0x63, 0x61, 0x66, 0xff, 0x0a, 0x6f, 0x6b, 0x0a])]);
  assert.equal(lines[0]?.text, "caf\uFFFD");
  assert.equal(lines[0]?.invalidUtf8, true);
  assert.equal(lines[1]?.invalidUtf8, false);
});

Deno.test("aborting the signal ends a pending read as EOF", async () => {
  const controller = new AbortController();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(encoder.encode("one\n"));
    },
  });
  const seen: string[] = [];
  const reading = (async () => {
    for await (const line of readLines(stream, { signal: controller.signal })) seen.push(line.text);
  })();
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort();
  await reading;
  assert.deepEqual(seen, ["one"]);
});
