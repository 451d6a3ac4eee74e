/**
 * `--retries N`: a planted one-off failure becomes a visible flaky result, a consistent failure stays a
 * failure. The host is a `--config` CLI host whose binary is a shell script that fails its first runs, counted
 * in a file in a temporary folder: a real subprocess failing by chance, as a real host would.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import { parseReport } from "../../src/report/schema.ts";
import { UsageError } from "../../src/errors.ts";
import { parseRunOptions } from "../../cli/run_options.ts";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { OK_STREAM, plantCliHost } from "./_planted_host.ts";

/** A folder with `flaky-agent.yaml` and a host script that fails its first `fails` streaming runs. */
async function plantedHost(fails: number) {
  const counter = (dir: string) => join(dir, "runs");
  const planted = await plantCliHost({
    id: "flaky-agent",
    prefix: "conformance-retries-",
    script: (dir) => [
      'if [ "$1" = "--version" ]; then echo "flaky-agent 1.0"; exit 0; fi',
      `n=$(cat "${counter(dir)}" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "${counter(dir)}"`,
      `if [ "$n" -le ${fails} ]; then echo "transient: connection reset" >&2; exit 1; fi`,
      ...OK_STREAM.map((line) => `echo '${line}'`),
    ],
  });
  return { ...planted, runs: async () => Number((await Deno.readTextFile(counter(planted.dir))).trim()) };
}

async function run(host: { dir: string; config: string }, extra: string[]) {
  const io = memoryIo();
  const out = join(host.dir, "out");
  const code = await runCli([
    "run",
    "--config",
    host.config,
    "--host",
    "flaky-agent",
    "--live",
    "--grep",
    "^cli/behavior/streaming$",
    "--reporter",
    "json,pretty,junit,markdown,html",
    "--out",
    out,
    ...extra,
  ], io);
  const report = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  const file = (name: string) => Deno.readTextFile(join(out, name));
  return {
    code,
    io,
    report,
    junit: await file("junit.xml"),
    board: await file("board.md"),
    html: await file("report.html"),
  };
}

Deno.test("--retries 2 turns a planted one-off failure into a visible flaky result, in every report", async () => {
  await using host = await plantedHost(1);
  const { code, io, report, junit, board, html } = await run(host, ["--retries", "2"]);
  assert.equal(code, 0, io.stdout + io.stderr);
  assert.equal(await host.runs(), 2, "one failed run, one passing retry, no more");
  const [result] = report.results;
  assert.equal(result?.status, "PASS");
  assert.equal(result?.flaky, true);
  assert.equal(result?.attempts, 2);
  assert.deepEqual(
    (result?.details.attemptResults as { status: string }[]).map((attempt) => attempt.status),
    ["FAIL", "PASS"],
  );
  assert.equal(report.summary.flaky, 1);
  assert.equal(report.summary.passed, 1);
  assert.match(io.stdout, /FLAKY: passed on attempt 2, after FAIL/);
  assert.match(io.stdout, /^1 result: .*· all as expected · 1 flaky · /m);
  assert.match(junit, /<property name="flaky" value="true"\/>/);
  assert.match(junit, /<property name="attempts" value="2"\/>/);
  assert.match(board, /^\| `cli\/behavior\/streaming`.* \| ✓\[\^1\] \|$/m);
  assert.match(board, /^\[\^1\]: flaky: as expected only on attempt 2 \(--retries\)$/m);
  assert.match(html, /FLAKY: as expected only on attempt 2/);
  assert.match(html, /, 1 flaky · /);
});

Deno.test("--retries 2 leaves a consistent failure a failure, after 3 attempts", async () => {
  await using host = await plantedHost(99);
  const { code, report, io } = await run(host, ["--retries", "2"]);
  assert.equal(code, 1, io.stdout);
  assert.equal(await host.runs(), 3);
  const [result] = report.results;
  assert.equal(result?.status, "FAIL");
  assert.equal(result?.flaky, undefined);
  assert.equal(result?.attempts, 3);
  assert.equal(report.summary.flaky, 0);
  assert.match(io.stdout, /UNEXPECTED.*after 3 attempts/);
});

Deno.test("without --retries the one-off failure fails the run, and the test ran once", async () => {
  await using host = await plantedHost(1);
  const { code, report } = await run(host, []);
  assert.equal(code, 1);
  assert.equal(await host.runs(), 1);
  assert.equal(report.results[0]?.status, "FAIL");
  assert.equal(report.results[0]?.attempts, undefined);
});

Deno.test("--retries takes a whole number from 0 to 10", () => {
  assert.equal((parseRunOptions(["--retries", "3"]) as { retries: number }).retries, 3);
  assert.equal((parseRunOptions([]) as { retries: number }).retries, 0);
  for (const bad of ["-1", "x", "1.5", "11"]) {
    assert.throws(() => parseRunOptions(["--retries", bad]), UsageError, bad);
  }
});

Deno.test({
  name:
    "--retries on an MCP Apps host reruns its failed test alone, and a consistent failure stays a failure",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-retries-apps-" });
  try {
    // No expectations for the variant, so the failure it is built to show is unexpected and retried.
    await Deno.mkdir(join(dir, "expectations"));
    await Deno.writeTextFile(
      join(dir, "expectations", "fake.yaml"),
      "schema: conformance-expectations/1\nhost: fake\ntests: {}\n",
    );
    const io = memoryIo();
    const code = await runCli([
      "run",
      "--host",
      "reference:double-tool-input",
      "--grep",
      "^apps/lifecycle/tool-input(-once)?$",
      "--retries",
      "1",
      "--expectations",
      join(dir, "expectations"),
      "--reporter",
      "json",
      "--out",
      dir,
    ], io);
    const report = parseReport(await Deno.readTextFile(join(dir, "report.json")), "report.json");
    assert.equal(code, 1, io.stderr);
    const byTest = new Map(report.results.map((result) => [result.test, result]));
    assert.equal(byTest.get("apps/lifecycle/tool-input")?.attempts, undefined, "a passing test is not rerun");
    const once = byTest.get("apps/lifecycle/tool-input-once");
    assert.equal(once?.status, "FAIL");
    assert.equal(once?.attempts, 2);
    assert.deepEqual((once?.details.attemptResults as { status: string }[]).map((a) => a.status), [
      "FAIL",
      "FAIL",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
