/**
 * `conformance board` as a CI gate, through the real command under the harness's permission set:
 * `--fail-on-regression` exits 1 on a result that got worse and 0 otherwise, and a bad `--out` or a
 * `--fail-on-regression` without `--diff` is a one-line exit-2 error that writes nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serializeReport } from "../../src/report/json.ts";
import { report, result, tempDir } from "../report/_fixtures.ts";
import { runHarness } from "../robustness/_harness.ts";

async function plant(dir: string) {
  const base = join(dir, "base.json");
  const worse = join(dir, "worse.json");
  const better = join(dir, "better.json");
  await Deno.writeTextFile(
    base,
    serializeReport(report([result("h", "cli/a", "PASS"), result("h", "cli/b", "FAIL")])),
  );
  await Deno.writeTextFile(
    worse,
    serializeReport(
      report([result("h", "cli/a", "FAIL", { message: "broke" }), result("h", "cli/b", "FAIL")]),
    ),
  );
  await Deno.writeTextFile(
    better,
    serializeReport(report([result("h", "cli/a", "PASS"), result("h", "cli/b", "PASS")])),
  );
  return { base, worse, better };
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.doesNotMatch(stderr, /^\s+at /m);
  return lines[0]!;
}

Deno.test("board --fail-on-regression exits 1 when a result got worse, 0 when none did", async () => {
  await using temp = await tempDir();
  const files = await plant(temp.path);
  const out = join(temp.path, "board.md");
  const worse = await runHarness([
    "board",
    files.worse,
    "--diff",
    files.base,
    "--fail-on-regression",
    "--out",
    out,
  ]);
  assert.equal(worse.code, 1, worse.stderr);
  assert.match(worse.stderr, /^conformance: 1 regression since .*base\.json: h · cli\/a PASS → FAIL$/m);
  // The board is still written, with the verdict in it.
  assert.match(await Deno.readTextFile(out), /^\*\*1 regression\*\* \(a result got worse\)/m);
  const better = await runHarness(["board", files.better, "--diff", files.base, "--fail-on-regression"]);
  assert.equal(better.code, 0, better.stderr);
  assert.match(better.stdout, /^No regressions: no result got worse\.$/m);
  // Without the flag a regression is reported, not gated.
  assert.equal((await runHarness(["board", files.worse, "--diff", files.base])).code, 0);
});

Deno.test("board refuses a bad --out, or --fail-on-regression without --diff, in one line with exit 2", async () => {
  await using temp = await tempDir();
  const files = await plant(temp.path);
  const before = await Deno.readTextFile(files.base);
  const overwrite = await runHarness(["board", files.worse, "--diff", files.base, "--out", files.base]);
  assert.equal(overwrite.code, 2);
  assert.match(oneLine(overwrite.stderr), /--out ".*base\.json" is the input ".*base\.json"/);
  assert.equal(await Deno.readTextFile(files.base), before);
  const unknown = await runHarness(["board", files.worse, "--out", join(temp.path, "board.txt")]);
  assert.equal(unknown.code, 2);
  assert.match(oneLine(unknown.stderr), /unknown extension "\.txt"/);
  const noDiff = await runHarness(["board", files.worse, "--fail-on-regression"]);
  assert.equal(noDiff.code, 2);
  assert.match(oneLine(noDiff.stderr), /"--fail-on-regression" needs "--diff OLD\.json"/);
});
