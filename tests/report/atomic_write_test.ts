import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/report/atomic_write.ts";
import { tempDir } from "./_fixtures.ts";
import { spawnDeno } from "./_process.ts";

async function entries(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
}

Deno.test("writeFileAtomic writes the file, creating its folder", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  const path = join(dir, "deep", "out", "report.json");
  await writeFileAtomic(path, "first");
  assert.equal(await Deno.readTextFile(path), "first");
  await writeFileAtomic(path, "second, longer");
  assert.equal(await Deno.readTextFile(path), "second, longer");
  assert.deepEqual(await entries(join(dir, "deep", "out")), ["report.json"], "no temporary file is left");
});

Deno.test("a writer that throws mid-way leaves the previous file intact and no temporary file", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  const path = join(dir, "report.json");
  await writeFileAtomic(path, "previous complete report");
  await assert.rejects(
    writeFileAtomic(path, async (sink) => {
      await sink.write("half of a new rep");
      throw new Error("crashed mid-way");
    }),
    /crashed mid-way/,
  );
  assert.equal(await Deno.readTextFile(path), "previous complete report");
  assert.deepEqual(await entries(dir), ["report.json"]);
});

Deno.test("a writer that throws before the first file leaves no file at all", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  await assert.rejects(
    writeFileAtomic(join(dir, "junit.xml"), () => Promise.reject(new Error("boom"))),
    /boom/,
  );
  assert.deepEqual(await entries(dir), []);
});

Deno.test("concurrent readers only ever see a whole file", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  const path = join(dir, "report.json");
  const a = `${"A".repeat(400_000)}\n`;
  const b = `${"B".repeat(600_000)}\n`;
  await Deno.writeTextFile(path, a);
  const script = new URL("./_atomic_writer_child.ts", import.meta.url).pathname;
  await using writer = spawnDeno(script, [path, "200"], [`--allow-read=${dir}`, `--allow-write=${dir}`]);
  const exited = writer.status.then((status) => status);
  let finished = false;
  void exited.then(() => finished = true);
  let reads = 0;
  const seen = new Set<string>();
  while (!finished || reads < 20) {
    const text = await Deno.readTextFile(path);
    reads++;
    assert.ok(text === a || text === b, `read ${reads} saw a partial file of ${text.length} characters`);
    seen.add(text[0]!);
  }
  const status = await exited;
  assert.equal(status.code, 0, new TextDecoder().decode((await writer.stderr.getReader().read()).value));
  assert.ok(seen.has("B"), "the reader saw the writer's new content at least once");
  assert.deepEqual(await entries(dir), ["report.json"], "no temporary file is left");
});
