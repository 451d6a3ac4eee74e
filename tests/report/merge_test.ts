import assert from "node:assert/strict";
import { mergeReports, type SourcedReport } from "../../src/report/merge.ts";
import { ReportError } from "../../src/report/report_error.ts";
import { parseReport } from "../../src/report/schema.ts";
import { serializeReport } from "../../src/report/json.ts";
import { inShard } from "../../src/shard.ts";
import { mixedReport, report, result } from "./_fixtures.ts";
import type { TestResult } from "../../src/outcome.ts";

const key = (r: TestResult) => `${r.host} ${r.test}`;

function wholeRun() {
  const statuses = ["PASS", "FAIL", "WARN", "SKIP", "TIMEOUT", "ERROR"] as const;
  const results = ["claude-code", "codex", "gemini"].flatMap((host, h) =>
    Array.from({ length: 25 }, (_, t) => result(host, `cli/scripted/case-${t}`, statuses[(h + t) % 6]!))
  );
  return report(results);
}

function shardsOf(whole: ReturnType<typeof wholeRun>, count: number): SourcedReport[] {
  return Array.from({ length: count }, (_, i) => {
    const shard = { index: i + 1, count };
    const results = whole.results.filter((r) => inShard(shard, r.host, r.test));
    const hosts = whole.hosts.filter((h) => results.some((r) => r.host === h.id));
    const part = report(results, {
      hosts,
      shard: `${i + 1}/${count}`,
      startedAt: `2026-11-30T08:0${i}:00.000Z`,
      durationMs: 30_000,
    });
    return { source: `shard-${i + 1}/report.json`, report: part };
  });
}

Deno.test("merging all N shard reports gives exactly the unsharded result set", () => {
  const whole = wholeRun();
  for (const count of [1, 2, 3, 5, 8]) {
    const merged = mergeReports(shardsOf(whole, count));
    assert.deepEqual(merged.results.map(key).sort(), whole.results.map(key).sort(), `${count} shards`);
    assert.deepEqual(merged.summary, whole.summary);
    assert.equal(merged.run.shard, "1/1");
    assert.equal(merged.run.incomplete, undefined);
    assert.deepEqual(merged.hosts.map((h) => h.id).sort(), ["claude-code", "codex", "gemini"]);
    // The merge is itself a valid report.
    assert.deepEqual(parseReport(serializeReport(merged), "merged.json"), merged);
  }
});

Deno.test("the merged run spans from the first start to the last end", () => {
  const merged = mergeReports(shardsOf(wholeRun(), 3));
  assert.equal(merged.run.startedAt, "2026-11-30T08:00:00.000Z");
  assert.equal(merged.run.durationMs, 2 * 60_000 + 30_000);
});

Deno.test("a merge missing a shard lists the shards present and is incomplete", () => {
  const shards = shardsOf(wholeRun(), 4);
  const merged = mergeReports([shards[2]!, shards[0]!]);
  assert.equal(merged.run.shard, "1/4,3/4");
  assert.equal(merged.run.incomplete, true);
  assert.deepEqual(parseReport(serializeReport(merged), "partial.json").run.shard, "1/4,3/4");
});

Deno.test("host reports merge into one, hosts in order of first appearance", () => {
  const a = report([result("codex", "cli/a", "PASS"), result("codex", "cli/b", "FAIL", { message: "x" })]);
  const b = report([result("gemini", "cli/a", "SKIP", { message: "binary absent" })], {
    hosts: [{ id: "gemini", kind: "cli", version: "0.4.0", testOnly: false }],
  });
  const merged = mergeReports([{ source: "a.json", report: a }, { source: "b.json", report: b }]);
  assert.deepEqual(merged.hosts, [
    { id: "codex", kind: "cli", version: null },
    { id: "gemini", kind: "cli", version: "0.4.0", testOnly: false },
  ]);
  assert.deepEqual(merged.results.map(key), ["codex cli/a", "codex cli/b", "gemini cli/a"]);
  assert.deepEqual(merged.summary, {
    passed: 1,
    failed: 1,
    warned: 0,
    info: 0,
    skipped: 1,
    timedOut: 0,
    errored: 0,
    flaky: 0,
  });
});

Deno.test("an incomplete input makes the merge incomplete", () => {
  const a = mixedReport();
  a.run.incomplete = true;
  const b = report([result("gemini", "cli/a", "PASS")]);
  assert.equal(mergeReports([{ source: "a", report: a }, { source: "b", report: b }]).run.incomplete, true);
});

function mergeError(inputs: SourcedReport[]): string {
  try {
    mergeReports(inputs);
  } catch (error) {
    assert.ok(error instanceof ReportError);
    assert.ok(!error.message.includes("\n"));
    return error.message;
  }
  assert.fail("the merge was accepted");
}

Deno.test("reports of different suite revisions do not merge; the error names both revisions and files", () => {
  const message = mergeError([
    {
      source: "old/report.json",
      report: report([result("codex", "cli/a", "PASS")], { suite: "2026.10.01" }),
    },
    {
      source: "new/report.json",
      report: report([result("gemini", "cli/a", "PASS")], { suite: "2026.11.30" }),
    },
  ]);
  assert.equal(
    message,
    'Reports "old/report.json" (suite 2026.10.01) and "new/report.json" (suite 2026.11.30) come from ' +
      "different suite revisions: merge only reports of the same conformance version, or re-run the older one",
  );
});

Deno.test("a (host, test) pair in two reports is an error naming both files", () => {
  const message = mergeError([
    { source: "a.json", report: report([result("codex", "cli/a", "PASS")]) },
    {
      source: "b.json",
      report: report([result("codex", "cli/b", "PASS"), result("codex", "cli/a", "FAIL")]),
    },
  ]);
  assert.match(message, /^Host "codex" test "cli\/a" appears in both "a.json" and "b.json": pass each/);
  assert.equal(
    mergeError([{ source: "x.json", report: mixedReport() }, { source: "x.json", report: mixedReport() }]),
    'Report "x.json" is given twice: pass each shard or host report once',
  );
});

Deno.test("no input, or one host of two kinds, is an error", () => {
  assert.match(mergeError([]), /No report to merge/);
  const web = report([result("reference", "apps/a/b", "PASS")], {
    hosts: [{ id: "reference", kind: "web", version: null }],
  });
  const cli = report([result("reference", "cli/a", "PASS")]);
  assert.match(
    mergeError([{ source: "w.json", report: web }, { source: "c.json", report: cli }]),
    /^Host "reference" is a web host in "w.json" but a cli host in "c.json"/,
  );
});
