/**
 * A failing CLI test's saved stream: recorded from the executor's callbacks while the test runs, written in
 * the fixture layout, and replayed by the same normaliser to the very events the run saw; capped, saying so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HOSTS } from "../../../hosts/registry.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import { parseStream } from "../../../src/normalize/parse.ts";
import { runCase } from "../../../suite/cli/scripted.ts";
import { SCRIPTED_CASES } from "../../../suite/cli/scripted_cases.ts";
import { sharedRun } from "../../../suite/cli/capability_run.ts";
import {
  MAX_SAVED_STDOUT_BYTES,
  recordStreams,
  saveRecordings,
  startRecording,
  StreamRecording,
} from "../../../suite/cli/stream_record.ts";

const fake = HOSTS.find((host): host is CliHostEntry => host.kind === "cli" && host.id === "fake")!;

for (const name of ["ordering", "result-error", "exit-before-terminal", "malformed-json"]) {
  Deno.test(`a saved "${name}" run replays to the events the executor saw`, async () => {
    const row = SCRIPTED_CASES.find((candidate) => candidate.name === name)!;
    const recordings: StreamRecording[] = [];
    const observation = await recordStreams(
      recordings,
      () => runCase(fake, row, 1.5, new AbortController().signal),
    );
    assert.equal(recordings.length, 1);
    const out = await Deno.makeTempDir({ prefix: "conformance-streams-" });
    try {
      const folders = await saveRecordings(out, { host: "fake", test: `cli/scripted/${name}` }, recordings);
      assert.deepEqual(folders, [`streams/fake/scripted-${name}`]);
      const dir = join(out, folders[0]!);
      const meta = JSON.parse(await Deno.readTextFile(join(dir, "meta.json")));
      const argv = JSON.parse(await Deno.readTextFile(join(dir, "argv.json")));
      assert.equal(meta.exitCode, observation.exitCode);
      assert.equal(meta.test, `cli/scripted/${name}`);
      assert.ok(meta.env.includes("CI") && !meta.env.some((entry: string) => entry.includes("=")));
      const replayed = parseStream(
        { name: "fake", dialect: meta.dialect },
        await Deno.readTextFile(join(dir, "stdout.jsonl")),
        {
          argv,
          exitCode: meta.exitCode,
          signal: meta.signal,
          stderr: await Deno.readTextFile(join(dir, "stderr.txt")),
        },
      );
      assert.deepEqual(replayed, observation.events);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
}

Deno.test("outside a recorded test nothing is recorded; a flood is capped and meta.json says so", async () => {
  const invocation = fake.runner.build("streaming", { prompt: "P" });
  assert.equal(startRecording(invocation, "claude"), null);
  assert.equal(
    await recordStreams([], () => Promise.resolve(startRecording(invocation, "claude")?.dialect)),
    "claude",
  );
  const recording = new StreamRecording(invocation, "claude");
  const line = "x".repeat(1023);
  const lines = (MAX_SAVED_STDOUT_BYTES / 1024) + 500;
  for (let index = 0; index < lines; index++) recording.stdoutLine(line);
  recording.stdoutLine("short");
  assert.equal(recording.stdoutText.split("\n").length - 1, MAX_SAVED_STDOUT_BYTES / 1024);
  assert.equal(
    recording.dropped.stdoutLines,
    501,
    "past the cap nothing is kept: the saved stream is a prefix",
  );
  const out = await Deno.makeTempDir({ prefix: "conformance-streams-" });
  try {
    const [folder] = await saveRecordings(out, { host: "fake", test: "cli/behavior/streaming" }, [recording]);
    const meta = JSON.parse(await Deno.readTextFile(join(out, folder!, "meta.json")));
    assert.equal(meta.truncated.stdoutLinesDropped, 501);
    assert.match(meta.truncated.why, /only the first 1048576 bytes of stdout/);
    const saved = await Deno.stat(join(out, folder!, "stdout.jsonl"));
    assert.ok(saved.size <= MAX_SAVED_STDOUT_BYTES);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a secret redacted in one place of a saved run is redacted where it stands bare too", async () => {
  const token = "tok3n-1a2b3c4d5e6f";
  const cookie = "s3ss10n-9z8y7x6w5v";
  const built = fake.runner.build("streaming", { prompt: "P" });
  const recording = new StreamRecording({ ...built, args: ["--auth", "Bearer", token, cookie] }, "claude");
  recording.stdoutLine(`{"type":"system","note":"Cookie: sid=${cookie}"}`);
  recording.stdoutLine(`{"echo":"${token}"}`);
  const out = await Deno.makeTempDir({ prefix: "conformance-streams-" });
  try {
    const [folder] = await saveRecordings(out, { host: "fake", test: "cli/behavior/streaming" }, [recording]);
    for (const file of ["argv.json", "stdout.jsonl", "meta.json"]) {
      const text = await Deno.readTextFile(join(out, folder!, file));
      assert.ok(!text.includes(token) && !text.includes(cookie), `${file}: ${text}`);
    }
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(out, folder!, "argv.json"))), [
      "--auth",
      "Bearer",
      "[REDACTED]",
      "[REDACTED]",
    ]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a host run two tests share is among the recordings of each test that judges it", async () => {
  const scope = {};
  const row = SCRIPTED_CASES.find((candidate) => candidate.name === "ordering")!;
  const job = () => runCase(fake, row, 1.5, new AbortController().signal);
  const first: StreamRecording[] = [];
  const second: StreamRecording[] = [];
  // The first test starts the shared run; the second judges the same one, started while the first waits.
  const [a, b] = await Promise.all([
    recordStreams(first, () => sharedRun(scope, "ordering", job)),
    recordStreams(second, () => sharedRun(scope, "ordering", job)),
  ]);
  assert.equal(a, b, "one run, judged twice");
  assert.equal(first.length, 1);
  assert.deepEqual(second, first, "the second test keeps the run it judged, though the first started it");
});
