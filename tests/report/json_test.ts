import assert from "node:assert/strict";
import { join } from "node:path";
import { isAtomicTempName, sweepDeadTemporaries } from "../../src/report/atomic_write.ts";
import { JsonReporter, serializeReport } from "../../src/report/json.ts";
import { parseReport } from "../../src/report/schema.ts";
import { collector, mixedReport, result, tempDir } from "./_fixtures.ts";
import { spawnDeno, waitForLine } from "./_process.ts";

const PLAN = {
  run: {
    harness: "0.1.0",
    suite: "2026.11.30",
    startedAt: "2026-11-30T08:00:00.000Z",
    os: "linux",
    deno: "2.9.6",
    shard: "1/1",
  },
  hosts: [{ id: "fake", kind: "cli" as const, version: null }],
  total: 2,
};

Deno.test("the json report round-trips through parseReport", async () => {
  await using temp = await tempDir();
  const report = mixedReport();
  report.run.command = "conformance run --host claude-code,codex";
  const reporter = new JsonReporter({ outDir: temp.path, out: collector(), secrets: [] });
  reporter.start({ run: PLAN.run, hosts: report.hosts, total: report.results.length });
  for (const r of report.results) reporter.result(r);
  await reporter.finish(report);
  const text = await Deno.readTextFile(join(temp.path, "report.json"));
  assert.deepEqual(parseReport(text, "report.json"), report);
  assert.ok(text.endsWith("}\n"));
});

Deno.test("without an output folder the json report goes to standard output", async () => {
  const out = collector();
  const reporter = new JsonReporter({ outDir: null, out, secrets: [] });
  const report = mixedReport();
  reporter.start({ ...PLAN, hosts: report.hosts });
  await reporter.finish(report);
  assert.deepEqual(parseReport(out.text(), "<stdout>"), report);
});

Deno.test("the json report is redacted", () => {
  const report = mixedReport();
  report.results[1]!.message = "sent sk-ant-abcdefghijklmnop1234 to the model";
  report.results[1]!.details = { env: { ANTHROPIC_API_KEY: "plain-value-123" }, note: "custom-secret-99" };
  report.run.command = "conformance run --config x.yaml # api_key=abcd1234";
  const parsed = parseReport(serializeReport(report, ["custom-secret-99"]), "r.json");
  assert.equal(parsed.results[1]!.message, "sent [REDACTED] to the model");
  assert.deepEqual(parsed.results[1]!.details, {
    env: { ANTHROPIC_API_KEY: "[REDACTED]" },
    note: "[REDACTED]",
  });
  assert.equal(parsed.run.command, "conformance run --config x.yaml # api_key=[REDACTED]");
});

Deno.test("during the run the json reporter checkpoints an incomplete report", async () => {
  await using temp = await tempDir();
  const path = join(temp.path, "report.json");
  const reporter = new JsonReporter({ outDir: temp.path, out: collector(), checkpointMs: 10, secrets: [] });
  reporter.start(PLAN);
  reporter.result(result("fake", "cli/scripted/a", "PASS"));
  let checkpoint;
  for (let tries = 0; tries < 500 && !checkpoint; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    checkpoint = await Deno.readTextFile(path).catch(() => undefined);
  }
  assert.ok(checkpoint, "a checkpoint was written");
  const partial = parseReport(checkpoint, path);
  assert.equal(partial.run.incomplete, true);
  assert.deepEqual(partial.results.map((r) => r.test), ["cli/scripted/a"]);
  const final = {
    ...partial,
    run: { ...PLAN.run, durationMs: 5 },
    results: [...partial.results, result("fake", "cli/scripted/b", "PASS")],
    summary: { ...partial.summary, passed: 2 },
  };
  reporter.result(final.results[1]!);
  await reporter.finish(final);
  const written = parseReport(await Deno.readTextFile(path), path);
  assert.equal(written.run.incomplete, undefined);
  assert.equal(written.results.length, 2);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(parseReport(await Deno.readTextFile(path), path), written, "no checkpoint after finish");
});

Deno.test("a run killed mid-way leaves a complete report of what ran, marked incomplete", async () => {
  await using temp = await tempDir();
  const path = join(temp.path, "report.json");
  const script = new URL("./_json_crash_child.ts", import.meta.url).pathname;
  await using child = spawnDeno(script, [temp.path, "30"], [`--allow-read`, `--allow-write=${temp.path}`]);
  // Every read while the child writes must parse: checkpoints are atomic.
  let reads = 0;
  let latest;
  const deadline = Date.now() + 60_000;
  while (!latest || latest.results.length < 10) {
    assert.ok(Date.now() < deadline, "the child wrote no checkpoint with 10 results within 60 s");
    const text = await Deno.readTextFile(path).catch(() => undefined);
    if (text !== undefined) {
      latest = parseReport(text, path);
      reads++;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  Deno.kill(-child.pid, "SIGKILL");
  await child.status;
  const left = parseReport(await Deno.readTextFile(path), path);
  assert.equal(left.run.incomplete, true);
  assert.ok(left.results.length >= 10, `${left.results.length} results survived`);
  assert.deepEqual(left.summary.failed, left.results.filter((r) => r.status === "FAIL").length);
  assert.match(left.results.find((r) => r.status === "FAIL")!.message, /Bearer \[REDACTED\]$/);
  assert.ok(reads > 0);
  // The kill may have caught a checkpoint mid-write: its temporary file is then the only other entry, and the
  // next write in the folder (the next run's first checkpoint) removes it.
  const names = async () => (await Array.fromAsync(Deno.readDir(temp.path))).map((e) => e.name).sort();
  const others = (await names()).filter((name) => name !== "report.json");
  assert.ok(others.length <= 1 && others.every(isAtomicTempName), `left beside the report: ${others}`);
  assert.deepEqual(await sweepDeadTemporaries(temp.path), others);
  assert.deepEqual(await names(), ["report.json"]);
});

Deno.test("a run killed before its first checkpoint leaves the previous report untouched", async () => {
  await using temp = await tempDir();
  const path = join(temp.path, "report.json");
  const previous = serializeReport(mixedReport());
  await Deno.writeTextFile(path, previous);
  const script = new URL("./_json_crash_child.ts", import.meta.url).pathname;
  await using child = spawnDeno(script, [temp.path, "600000"], [
    `--allow-read`,
    `--allow-write=${temp.path}`,
  ]);
  await waitForLine(child, (line) => line === "result 5");
  Deno.kill(-child.pid, "SIGKILL");
  await child.status;
  assert.equal(await Deno.readTextFile(path), previous);
});
