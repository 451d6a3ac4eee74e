/**
 * Secrets in traces: a reference-host run with `--trace on` and fake credentials planted in the harness's
 * environment keeps a Playwright trace, and no entry of that trace (a zip of JSON, HTML and resources)
 * contains them. Entries are read with a small zip reader over `node:zlib`, so the test needs no `unzip`.
 */
import assert from "node:assert/strict";
import { inflateRawSync } from "node:zlib";
import { join } from "node:path";
import { spawnHarness } from "./_harness.ts";

const PLANTED = {
  ANTHROPIC_API_KEY: `sk-ant-api03-${crypto.randomUUID().replaceAll("-", "")}`,
  OPENAI_API_KEY: `sk-proj-${crypto.randomUUID().replaceAll("-", "")}`,
  GH_TOKEN: `ghp_${crypto.randomUUID().replaceAll("-", "")}`,
};

/** Every file of a zip archive, by name, decompressed (stored and deflated entries). */
function unzip(bytes: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  assert.ok(end >= 0, "the trace is a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    assert.equal(view.getUint32(at, true), 0x02014b50, "central directory entry");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(dataAt, dataAt + size);
    files.set(name, method === 0 ? data : new Uint8Array(inflateRawSync(data)));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...await filesUnder(path));
    else found.push(path);
  }
  return found;
}

Deno.test({
  name: "a Playwright trace of a reference run carries none of the planted credentials",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const out = await Deno.makeTempDir({ prefix: "conformance-trace-" });
  try {
    await using harness = spawnHarness(
      [
        "run",
        "--host",
        "reference",
        "--grep",
        "apps/visibility/",
        "--trace",
        "on",
        "--reporter",
        "json",
        "--out",
        out,
      ],
      { env: PLANTED },
    );
    const exit = await harness.done;
    assert.equal(exit.code, 0, exit.stderr);
    const files = await filesUnder(out);
    const traces = files.filter((file) => file.endsWith(".zip"));
    assert.ok(traces.length > 0, `--trace on keeps a trace: ${files.join(", ")}`);
    let entries = 0;
    for (const trace of traces) {
      for (const [name, content] of unzip(await Deno.readFile(trace))) {
        entries++;
        const text = new TextDecoder().decode(content);
        for (const [variable, value] of Object.entries(PLANTED)) {
          assert.ok(!text.includes(value), `${variable} appears in ${trace} entry ${name}`);
        }
      }
    }
    assert.ok(entries > 0, "the trace has entries");
    for (const file of files.filter((file) => !file.endsWith(".zip"))) {
      const text = await Deno.readTextFile(file);
      for (const [variable, value] of Object.entries(PLANTED)) {
        assert.ok(!text.includes(value), `${variable} appears in ${file}`);
      }
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
