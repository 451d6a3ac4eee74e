import assert from "node:assert/strict";
import { join } from "node:path";
import { buildBoard } from "../../src/report/board.ts";
import { serializeReport } from "../../src/report/json.ts";
import { ReportError } from "../../src/report/report_error.ts";
import { parseReport } from "../../src/report/schema.ts";
import { report, result, tempDir } from "./_fixtures.ts";

async function writeReports(dir: string) {
  const shard1 = report([
    result("codex", "cli/a", "PASS"),
    result("gemini", "cli/a", "SKIP", { message: "absent" }),
  ], {
    shard: "1/2",
  });
  const shard2 = report([result("codex", "cli/b", "FAIL", { message: "broken" })], { shard: "2/2" });
  const old = report([result("codex", "cli/a", "PASS"), result("codex", "cli/b", "PASS")]);
  const paths = { shard1: join(dir, "s1.json"), shard2: join(dir, "s2.json"), old: join(dir, "old.json") };
  await Deno.writeTextFile(paths.shard1, serializeReport(shard1));
  await Deno.writeTextFile(paths.shard2, serializeReport(shard2));
  await Deno.writeTextFile(paths.old, serializeReport(old));
  return paths;
}

Deno.test("buildBoard merges report files into one markdown board, with the diff", async () => {
  await using temp = await tempDir();
  const paths = await writeReports(temp.path);
  const built = await buildBoard({ reports: [paths.shard1, paths.shard2], diff: paths.old });
  assert.equal(built.report.results.length, 3);
  assert.equal(built.report.run.shard, "1/1");
  assert.equal(built.written, undefined);
  assert.match(built.text, /^\| `cli\/a` \| ✓ \| –\[\^1\] \|$/m);
  assert.match(built.text, /^\| `cli\/b` \| \*\*✗\*\*\[\^2\] \| {2}\|$/m);
  assert.match(built.text, /^### New failures \(1\)$/m);
  assert.match(built.text, /^\| codex \| cli\/b \| PASS \| FAIL \| broken \|$/m);
  // gemini is not in the old report: one line for the host, none for its results.
  assert.deepEqual(built.diff?.added, []);
  assert.deepEqual(built.diff?.addedHosts, [{ host: "gemini", results: 1, passed: 0 }]);
  assert.match(built.text, /^- Host added: gemini \(1 result, 0 passed\)$/m);
  assert.deepEqual(built.diff?.regressions.map((c) => `${c.host} ${c.test} ${c.from}→${c.to}`), [
    "codex cli/b PASS→FAIL",
  ]);
});

/** A report as written before INFO existed: its summary has no `info` key. */
function preInfoReport(results: Parameters<typeof report>[0]): string {
  const value = JSON.parse(serializeReport(report(results)));
  delete value.summary.info;
  return JSON.stringify(value);
}

Deno.test("a report written before INFO existed still merges, boards and diffs; INFO shows as i", async () => {
  await using temp = await tempDir();
  const old = join(temp.path, "old.json");
  const now = join(temp.path, "now.json");
  const other = join(temp.path, "other.json");
  await Deno.writeTextFile(
    old,
    preInfoReport([result("web", "apps/security/csp-no-unsafe-eval", "SKIP", { message: "MAY" })]),
  );
  await Deno.writeTextFile(
    now,
    serializeReport(report([
      result("web", "apps/security/csp-no-unsafe-eval", "INFO", { message: "'unsafe-eval' is allowed" }),
    ])),
  );
  await Deno.writeTextFile(other, preInfoReport([result("codex", "cli/a", "PASS")]));
  assert.ok(!("info" in JSON.parse(await Deno.readTextFile(old)).summary), "the old shape is what is read");
  assert.equal(parseReport(await Deno.readTextFile(old), old).summary.info, 0);

  const built = await buildBoard({ reports: [now, other], diff: old });
  assert.deepEqual(built.report.summary, {
    passed: 1,
    failed: 0,
    warned: 0,
    info: 1,
    skipped: 0,
    timedOut: 0,
    errored: 0,
    flaky: 0,
  });
  assert.match(built.text, /^\| `apps\/security\/csp-no-unsafe-eval` \| i\[\^1\] \| {2}\|$/m);
  assert.match(built.text, /^\[\^1\]: 'unsafe-eval' is allowed$/m);
  assert.deepEqual(built.diff?.changed.map((c) => `${c.from} → ${c.to}`), ["SKIP → INFO"]);
  assert.deepEqual(built.diff?.newFailures, []);

  const merged = await buildBoard({ reports: [old, other] });
  assert.equal(merged.report.summary.info, 0);
});

Deno.test("buildBoard writes --out by its extension: markdown, merged JSON, HTML, JUnit", async () => {
  await using temp = await tempDir();
  const paths = await writeReports(temp.path);
  const reports = [paths.shard1, paths.shard2];
  const md = join(temp.path, "out", "board.md");
  await buildBoard({ reports, out: md });
  assert.match(await Deno.readTextFile(md), /^# Conformance board/);
  const json = join(temp.path, "merged.json");
  const built = await buildBoard({ reports, out: json });
  assert.equal(built.written, json);
  assert.deepEqual(parseReport(await Deno.readTextFile(json), json), built.report);
  const html = join(temp.path, "board.html");
  await buildBoard({ reports, out: html });
  assert.match(await Deno.readTextFile(html), /^<!DOCTYPE html>/);
  const folder = join(temp.path, "out");
  assert.equal((await buildBoard({ reports, out: folder })).written, join(folder, "board.md"));
  const xml = join(temp.path, "junit.xml");
  await buildBoard({ reports, out: xml });
  assert.match(await Deno.readTextFile(xml), /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
});

async function boardError(options: Parameters<typeof buildBoard>[0]): Promise<string> {
  try {
    await buildBoard(options);
  } catch (error) {
    assert.ok(error instanceof ReportError, String(error));
    assert.equal(error.exitCode, 2);
    assert.ok(!error.message.includes("\n"));
    return error.message;
  }
  assert.fail("buildBoard accepted bad input");
}

Deno.test("buildBoard says clearly what is wrong with its input", async () => {
  await using temp = await tempDir();
  const paths = await writeReports(temp.path);
  assert.match(await boardError({ reports: [] }), /^No report given/);
  const missing = join(temp.path, "nope.json");
  assert.equal(
    await boardError({ reports: [missing] }),
    `Report "${missing}" not found: pass a report.json written by "conformance run --reporter json --out DIR"`,
  );
  const broken = join(temp.path, "broken.json");
  await Deno.writeTextFile(broken, '{"schema": "conformance-report/1", "run": {');
  assert.match(
    await boardError({ reports: [paths.shard1, broken] }),
    /^Report ".*broken\.json" is not valid JSON/,
  );
  assert.match(await boardError({ reports: [paths.shard1, paths.shard1] }), /is given twice/);
  assert.match(await boardError({ reports: [paths.shard1], diff: missing }), /nope\.json" not found/);
});

Deno.test("buildBoard refuses reports of different suite revisions", async () => {
  await using temp = await tempDir();
  const a = join(temp.path, "a.json");
  const b = join(temp.path, "b.json");
  await Deno.writeTextFile(a, serializeReport(report([result("codex", "cli/a", "PASS")], { suite: "r1" })));
  await Deno.writeTextFile(b, serializeReport(report([result("gemini", "cli/a", "PASS")], { suite: "r2" })));
  assert.match(
    await boardError({ reports: [a, b] }),
    /^Reports ".*a\.json" \(suite r1\) and ".*b\.json" \(suite r2\) come from different suite revisions/,
  );
});

Deno.test("with --diff, the JSON board carries the diff (readable again) and the HTML shows it", async () => {
  await using temp = await tempDir();
  const paths = await writeReports(temp.path);
  const reports = [paths.shard1, paths.shard2];
  const json = join(temp.path, "board.json");
  const built = await buildBoard({ reports, diff: paths.old, out: json });
  const read = parseReport(await Deno.readTextFile(json), json);
  assert.deepEqual(read.diff?.regressions, [
    { host: "codex", test: "cli/b", from: "PASS", to: "FAIL", message: "broken" },
  ]);
  assert.deepEqual(read.diff?.addedHosts, built.diff?.addedHosts);
  // Without --diff there is none; merging a board drops it.
  const plain = join(temp.path, "plain.json");
  await buildBoard({ reports, out: plain });
  assert.equal(parseReport(await Deno.readTextFile(plain), plain).diff, undefined);
  assert.equal((await buildBoard({ reports: [json] })).report.diff, undefined);
  const html = join(temp.path, "board.html");
  await buildBoard({ reports, diff: paths.old, out: html });
  const page = await Deno.readTextFile(html);
  assert.match(page, /<section id="diff"><h2>Changes since the previous report<\/h2>/);
  assert.match(page, /<strong>1 regression<\/strong>/);
  assert.ok(page.indexOf('<section id="diff">') < page.indexOf("<fieldset>"), "the changes come first");
});

Deno.test("--out naming an input is refused and the input is left as it was", async () => {
  await using temp = await tempDir();
  const paths = await writeReports(temp.path);
  const before = await Deno.readTextFile(paths.old);
  assert.equal(
    await boardError({ reports: [paths.shard1], diff: paths.old, out: paths.old }),
    `--out "${paths.old}" is the input "${paths.old}": the board would overwrite it; write the board to another file`,
  );
  assert.match(
    await boardError({ reports: [paths.shard1, paths.shard2], out: paths.shard2 }),
    /is the input/,
  );
  // The same file by another name: a relative path, a symlink, a hard link.
  const link = join(temp.path, "link.json");
  await Deno.symlink(paths.old, link);
  assert.match(await boardError({ reports: [paths.shard1], diff: paths.old, out: link }), /is the input/);
  const hard = join(temp.path, "hard.json");
  await Deno.link(paths.old, hard);
  assert.match(await boardError({ reports: [hard], out: paths.old }), /is the input/);
  assert.equal(await Deno.readTextFile(paths.old), before);
});

Deno.test("--out with an unknown extension or none is refused before anything is written", async () => {
  await using temp = await tempDir();
  const paths = await writeReports(temp.path);
  const txt = join(temp.path, "board.txt");
  assert.equal(
    await boardError({ reports: [paths.shard1], out: txt }),
    `--out "${txt}" has an unknown extension ".txt": end it in .md, .html, .json or .xml, or name an ` +
      "existing folder (the board goes to board.md in it)",
  );
  const bare = join(temp.path, "board");
  assert.match(await boardError({ reports: [paths.shard1], out: bare }), /has no extension/);
  for (const path of [txt, bare]) await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  assert.equal(
    (await buildBoard({ reports: [paths.shard1], out: join(temp.path, "b.markdown") })).written,
    join(temp.path, "b.markdown"),
  );
});
