import assert from "node:assert/strict";
import { join } from "node:path";
import { isAtomicTempName, sweepDeadTemporaries, writeFileAtomic } from "../../src/report/atomic_write.ts";
import { tempDir } from "./_fixtures.ts";
import { spawnDeno, waitForLine } from "./_process.ts";

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

/** What a complete checkpoint of `_checkpoint_writer_child.ts` parses to, or a failure naming the file. */
async function assertComplete(path: string): Promise<string> {
  const text = await Deno.readTextFile(path);
  let parsed: { writer?: string; results?: unknown[] };
  try {
    parsed = JSON.parse(text);
  } catch {
    assert.fail(`${path} is not a complete report (${text.length} characters)`);
  }
  assert.equal(parsed.results?.length, 2000, `${path} holds every result`);
  return parsed.writer ?? "";
}

Deno.test("a writer SIGKILLed mid-checkpoint leaves only complete files once the next write has run; a live writer's temporary stays", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  const path = join(dir, "report.json");
  await writeFileAtomic(path, JSON.stringify({ writer: "previous", results: Array(2000).fill({}) }));
  const script = new URL("./_checkpoint_writer_child.ts", import.meta.url).pathname;
  const permissions = [`--allow-read=${dir}`, `--allow-write=${dir}`];

  // The victim: stopped at the point it signals, with half a checkpoint in its temporary file, then killed.
  const killed = spawnDeno(script, [path, join(dir, "never"), "killed"], permissions);
  await waitForLine(killed, (line) => line === "mid-checkpoint");
  const beforeKill = await entries(dir);
  assert.equal(beforeKill.length, 2, `the writer has its temporary file open: ${beforeKill.join(", ")}`);
  await killed[Symbol.asyncDispose](); // SIGKILL to its group; proves the group is gone
  const left = (await entries(dir)).filter(isAtomicTempName);
  assert.equal(left.length, 1, "the SIGKILL left the half-written temporary file behind");
  assert.equal(await assertComplete(path), "previous", "the kill did not touch the report");

  // A live writer in the same folder, stopped mid-checkpoint too: its temporary file is not the sweep's.
  const release = join(dir, "release");
  await using live = spawnDeno(script, [path, release, "live"], permissions);
  await waitForLine(live, (line) => line === "mid-checkpoint");
  const liveTemp = (await entries(dir)).filter((name) => isAtomicTempName(name) && !left.includes(name));
  assert.equal(liveTemp.length, 1, "the live writer's temporary file is there");

  // The next write (the next run's first checkpoint) sweeps the dead writer's file, not the live one's.
  await writeFileAtomic(path, JSON.stringify({ writer: "next", results: Array(2000).fill({}) }));
  assert.equal(await assertComplete(path), "next");
  assert.deepEqual(
    await entries(dir),
    ["report.json", liveTemp[0]!].sort(),
    "only the dead writer's file went",
  );

  // The live writer finishes its write unharmed, and only complete files are left.
  await Deno.writeTextFile(release, "");
  assert.equal((await live.status).code, 0, "the live writer finished its write");
  await Deno.remove(release);
  assert.deepEqual(await entries(dir), ["report.json"]);
  assert.equal(await assertComplete(path), "live");
});

Deno.test("sweepDeadTemporaries leaves a temporary file this process holds, and foreign names alone", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  await Deno.writeTextFile(join(dir, ".report.json.notes.tmp"), "not ours: no pid and 8 hex digits");
  await Deno.writeTextFile(join(dir, ".report.json.4242.0badc0de.tmp"), "a dead writer's half");
  let swept: string[] = [];
  await writeFileAtomic(join(dir, "report.json"), async (sink) => {
    await sink.write("{");
    swept = await sweepDeadTemporaries(dir); // our own temporary file is locked by this write
    await sink.write("}");
  });
  assert.deepEqual(swept, [], "the dead writer's file went in writeFileAtomic's own sweep, ours is held");
  assert.deepEqual(await entries(dir), [".report.json.notes.tmp", "report.json"]);
  assert.equal(await Deno.readTextFile(join(dir, "report.json")), "{}");
});
