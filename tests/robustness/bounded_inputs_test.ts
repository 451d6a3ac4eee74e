/**
 * Endless and oversized inputs: every file the harness reads (config, expectations, reports, recordings) is
 * read with a size limit, `parse` with a line limit, and past either the real command exits 2 at once with one
 * line naming the file, in bounded memory. `/dev/zero` reports size 0 to `stat` and never ends; it is reached
 * through a link in temp, as the harness's permission set reads only the working folder and temp.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnHarness } from "./_harness.ts";

/** Well past what a bounded read needs (16 MiB + the runtime), far below an unbounded one within the wait. */
const PEAK_RSS_LIMIT = 400 * 1024 * 1024;
const WAIT_MS = 15_000;

async function zeroLink(): Promise<{ dir: string; zero: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "bounded-inputs-" });
  const zero = join(dir, "zero.yaml");
  await Deno.symlink("/dev/zero", zero);
  return { dir, zero, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** Runs the harness; one that has not exited after {@linkcode WAIT_MS} is killed and the test fails. */
async function runBounded(args: string[]): Promise<{ code: number; stderr: string; peak: number }> {
  await using harness = spawnHarness(args, { sampleMs: 25 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), WAIT_MS));
  try {
    const exit = await Promise.race([harness.done, late]);
    assert.notEqual(exit, "late", `conformance ${args.join(" ")} still ran after ${WAIT_MS} ms`);
    const { code, stderr } = exit as Awaited<typeof harness.done>;
    return { code, stderr, peak: harness.peakRssBytes() };
  } finally {
    clearTimeout(timer);
  }
}

function assertRefused(
  result: { code: number; stderr: string; peak: number },
  message: RegExp,
): void {
  assert.equal(result.code, 2, result.stderr);
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0]!, message);
  assert.ok(result.peak < PEAK_RSS_LIMIT, `peak RSS ${result.peak} bytes`);
}

Deno.test("--config /dev/zero exits 2 at the size limit", async () => {
  await using link = await zeroLink();
  const result = await runBounded(["list", "hosts", "--config", link.zero]);
  assertRefused(result, /^conformance: Config file ".*zero\.yaml" is larger than 16 MiB.*--config/);
});

Deno.test("--expectations /dev/zero exits 2 at the size limit", async () => {
  await using link = await zeroLink();
  const result = await runBounded(["run", "--host", "fake", "--expectations", link.zero]);
  assertRefused(
    result,
    /^conformance: Expectations file ".*zero\.yaml" is larger than 16 MiB.*--expectations/,
  );
});

Deno.test("board /dev/zero exits 2 at the size limit", async () => {
  await using link = await zeroLink();
  const result = await runBounded(["board", link.zero]);
  assertRefused(result, /^conformance: Report ".*zero\.yaml" is larger than 64 MiB/);
});

Deno.test("run --rerun-failed /dev/zero exits 2 at the size limit", async () => {
  await using link = await zeroLink();
  const result = await runBounded(["run", "--rerun-failed", link.zero]);
  assertRefused(result, /^conformance: --rerun-failed: report ".*zero\.yaml" is larger than 64 MiB/);
});

Deno.test("parse of an endless line exits 2 at the line limit", async () => {
  await using link = await zeroLink();
  const result = await runBounded(["parse", "--host", "claude-code", link.zero]);
  assertRefused(result, /^conformance: Stream file ".*zero\.yaml": line 1 is longer than 8 MiB/);
});

Deno.test("parse reads a recorded run's side files with the size limit", async () => {
  await using link = await zeroLink();
  const run = join(link.dir, "run");
  await Deno.mkdir(run);
  await Deno.writeTextFile(join(run, "stdout.jsonl"), "");
  await Deno.symlink("/dev/zero", join(run, "stderr.txt"));
  const result = await runBounded(["parse", "--host", "claude-code", run]);
  assertRefused(result, /^conformance: Recorded run ".*run": stderr\.txt is larger than 16 MiB/);
});

Deno.test("parse of a recorded run whose meta.json names an unknown dialect exits 2 with a suggestion", async () => {
  await using link = await zeroLink();
  const run = join(link.dir, "run");
  await Deno.mkdir(run);
  await Deno.writeTextFile(join(run, "stdout.jsonl"), "");
  await Deno.writeTextFile(
    join(run, "meta.json"),
    JSON.stringify({ host: "claude-code", dialect: "claudee" }),
  );
  const result = await runBounded(["parse", run]);
  assertRefused(result, /unknown dialect "claudee": did you mean "claude"\? Dialects are claude, /);
});

Deno.test("a config host with an unknown dialect fails config validation with a suggestion", async () => {
  await using link = await zeroLink();
  const config = join(link.dir, "conformance.yaml");
  await Deno.writeTextFile(
    config,
    'hosts:\n  - id: mine\n    kind: cli\n    binary: deno\n    dialect: codexx\n    paths: { streaming: ["{prompt}"] }\n',
  );
  const result = await runBounded(["parse", "--config", config, "--host", "mine", join(link.dir, "none")]);
  assertRefused(result, /hosts\.0\.dialect: unknown dialect "codexx": did you mean "codex"\?/);
});
