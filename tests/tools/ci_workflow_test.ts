/**
 * The example workflow (docs/examples/conformance.yml), its commands run here as written: each shard job's
 * action step goes through tools/action/fetch.sh against a stand-in release on loopback whose "binary" runs
 * this checkout's `conformance` under the harness's permission set, with `--host fake` and two shards; the
 * reports are laid out as download-artifact lays them out; then the board job's merge and gate steps run
 * with bash as GitHub runs them. Without a baseline the gate passes; with a baseline in which a test PASSes
 * and the new report FAILs it fails; with the reverse (a fix) it passes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { summarize } from "../../src/outcome.ts";
import { permissionFlags } from "../../src/permissions.ts";
import { serializeReport } from "../../src/report/json.ts";
import { parseReport, type RunReport } from "../../src/report/schema.ts";
import { fetchScript, ROOT, serveRelease, workDir } from "./_release.ts";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  if?: string;
}
interface Workflow {
  env: Record<string, string | number>;
  jobs: Record<string, { steps: Step[]; strategy?: { matrix: { shard: number[] } } }>;
}

const WORKFLOW = parse(await Deno.readTextFile(join(ROOT, "docs/examples/conformance.yml"))) as Workflow;
const SHARDS = 2;

/** Replaces `${{ … }}` by the values given; an expression not in the table fails the test. */
function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    const value = values[expression];
    assert.ok(value !== undefined, `the test has no value for \${{ ${expression} }} in: ${text}`);
    return value;
  });
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** The stand-in release binary: this checkout's `conformance`, under the binary's own permission set. */
const SHIM = [
  "#!/bin/sh",
  `exec ${
    [
      Deno.execPath(),
      "run",
      "--quiet",
      "--config",
      join(ROOT, "deno.json"),
      ...permissionFlags(),
      join(ROOT, "main.ts"),
    ]
      .map(quote).join(" ")
  } "$@"`,
  "",
].join("\n");

function step(job: string, find: (step: Step) => boolean, what: string): Step {
  const found = WORKFLOW.jobs[job]?.steps.find(find);
  assert.ok(found, `the ${job} job has no step that ${what}`);
  return found;
}

/** Runs a `run:` script as GitHub runs it on Linux (bash -eo pipefail). */
async function runStep(script: string, cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command("bash", {
    args: ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
    cwd,
    clearEnv: true,
    env: { HOME: cwd, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** A copy of `report` with one result's status changed (the summary recounted). */
function withStatus(report: RunReport, test: string, status: "PASS" | "FAIL"): RunReport {
  const results = report.results.map((r) =>
    r.test === test ? { ...r, status, message: status === "FAIL" ? "planted regression" : "" } : r
  );
  assert.ok(results.some((r) => r.test === test), test);
  return { ...report, results, summary: summarize(results) };
}

Deno.test("the example workflow: two shard jobs merge into one board, and a planted regression fails the gate", async () => {
  await using release = await serveRelease(SHIM);
  await using work = await workDir();
  const bin = join(work.path, "tool-cache");
  const githubPath = join(work.path, "github_path");
  const summary = join(work.path, "step_summary");
  await Deno.writeTextFile(summary, "");
  const shardJob = WORKFLOW.jobs.shard!;
  assert.deepEqual(shardJob.strategy?.matrix.shard, [1, 2, 3], "the matrix lists one entry per shard");
  assert.equal(Number(WORKFLOW.env.SHARDS), shardJob.strategy?.matrix.shard.length);
  const action = step("shard", (s) => /\/conformance@/.test(s.uses ?? ""), "uses the action");
  const upload = step("shard", (s) => s.uses?.startsWith("actions/upload-artifact@") ?? false, "uploads");

  // The shard jobs, with the fake host and two shards.
  for (let shard = 1; shard <= SHARDS; shard++) {
    const values = { "matrix.shard": String(shard), "env.SHARDS": String(SHARDS), "env.HOSTS": "fake" };
    const ran = await fetchScript(join(work.path, "bin-unused"), [], {
      CONFORMANCE_BASE_URL: release.baseUrl,
      CONFORMANCE_VERSION: "v9.9.9",
      CONFORMANCE_INSTALL_DIR: bin,
      RUNNER_OS: "Linux",
      RUNNER_ARCH: "X64",
      GITHUB_PATH: githubPath,
      GITHUB_STEP_SUMMARY: summary,
      CONFORMANCE_ARGS: substitute(action.with!.args!, values),
    }, work.path);
    assert.equal(ran.code, 0, `shard ${shard}: ${ran.stderr}`);
    // What upload-artifact uploads, laid out as download-artifact with a pattern lays it out.
    const artifact = join(work.path, "shards", substitute(upload.with!.name!, values));
    await Deno.mkdir(artifact, { recursive: true });
    await Deno.copyFile(
      join(work.path, substitute(upload.with!.path!, values)),
      join(artifact, "report.json"),
    );
  }
  assert.match(await Deno.readTextFile(summary), /^# Conformance board\n/, "the github reporter's summary");
  assert.ok((await Deno.readTextFile(githubPath)).includes(bin));

  const merge = step("board", (s) => s.name === "Merge the shards into one board", "merges");
  const gate = step("board", (s) => s.name === "Fail on a regression", "gates");
  const env = {
    PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    SHARDS: String(SHARDS),
    GITHUB_STEP_SUMMARY: summary,
  };
  const shardReports = [1, 2].map((i) => join(work.path, "shards", `conformance-shard-${i}`, "report.json"));
  const read = async (path: string) => parseReport(await Deno.readTextFile(path), path);

  // No baseline yet (the first run of the default branch): one board, no gate.
  const first = await runStep(merge.run!, work.path, env);
  assert.equal(first.code, 0, first.stderr);
  const board = await read(join(work.path, "board", "board.json"));
  const shards = await Promise.all(shardReports.map(read));
  assert.equal(board.run.shard, "1/1", "the two shards make the whole run");
  assert.equal(board.results.length, shards[0]!.results.length + shards[1]!.results.length);
  assert.ok(shards.every((s) => s.results.length > 0));
  assert.equal(board.diff, undefined);
  assert.match(await Deno.readTextFile(join(work.path, "board", "board.html")), /^<!DOCTYPE html>/);
  assert.equal((await runStep(gate.run!, work.path, env)).code, 0);

  // That board becomes the baseline; the new run of shard 1 FAILs a test the baseline PASSes.
  await Deno.mkdir(join(work.path, "baseline"));
  await Deno.rename(join(work.path, "board", "board.json"), join(work.path, "baseline", "board.json"));
  const victim = shards[0]!.results.find((r) => r.status === "PASS")!.test;
  await Deno.writeTextFile(shardReports[0]!, serializeReport(withStatus(shards[0]!, victim, "FAIL")));
  const regressed = await runStep(merge.run!, work.path, env);
  assert.equal(regressed.code, 0, `the merge writes the boards whatever they say: ${regressed.stderr}`);
  const diffed = await read(join(work.path, "board", "board.json"));
  assert.deepEqual(diffed.diff?.regressions.map((c) => `${c.test} ${c.from}→${c.to}`), [
    `${victim} PASS→FAIL`,
  ]);
  assert.match(await Deno.readTextFile(join(work.path, "board", "board.md")), /\*\*1 regression\*\*/);
  const failed = await runStep(gate.run!, work.path, env);
  assert.equal(failed.code, 1, failed.stderr);
  assert.match(
    failed.stderr,
    new RegExp(`1 regression since baseline/board\\.json: fake · ${victim} PASS → FAIL`),
  );

  // The reverse, a fix: the baseline FAILs the test and the new run PASSes it. No regression.
  await Deno.writeTextFile(
    join(work.path, "baseline", "board.json"),
    serializeReport(withStatus(board, victim, "FAIL")),
  );
  await Deno.writeTextFile(shardReports[0]!, serializeReport(shards[0]!));
  assert.equal((await runStep(merge.run!, work.path, env)).code, 0);
  const fixed = await runStep(gate.run!, work.path, env);
  assert.equal(fixed.code, 0, fixed.stderr);

  // A shard that left no report stops the merge instead of boarding half a run.
  await Deno.remove(join(work.path, "shards", "conformance-shard-2"), { recursive: true });
  const missing = await runStep(merge.run!, work.path, env);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /::error title=conformance::expected 2 shard reports/);
});
