/**
 * `deno task bench --only GROUP`: the group names are checked, and `--update-docs` with `--only` puts the rows
 * measured alone into the existing table (replacing the rows of the same figures, appending new ones, each
 * note dated) without touching the others or the heading of the full run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type BenchRow, GROUPS, selectedGroups, updatePerformanceRows } from "./bench.ts";

Deno.test("--only selects groups in bench order and refuses an unknown name", () => {
  assert.deepEqual(selectedGroups(undefined), Object.keys(GROUPS));
  assert.deepEqual(selectedGroups("interrupt,cli-run"), ["cli-run", "interrupt"]);
  assert.throws(
    () => selectedGroups("cli-run,streaming"),
    /Unknown bench group "streaming": name one or more of/,
  );
  assert.throws(() => selectedGroups(","), /Unknown bench group/);
});

Deno.test("rows measured alone replace their rows of the table and append new ones, dated", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-bench-doc-" });
  try {
    const doc = join(dir, "performance.md");
    const before = [
      "# Performance",
      "",
      "<!-- bench:begin -->",
      "",
      "Benchmark of 2026-11-30 (full run).",
      "",
      "| figure | measured | target | met | note |",
      "| ------ | -------- | ------ | --- | ---- |",
      "| fake tier wall | 1236 ms | ≤ 2000 ms | yes | 31 cases |",
      "| old figure \\| piped   | 1 s      | ≤ 60 s | yes | old |",
      "",
      "<!-- bench:end -->",
      "",
    ].join("\n");
    await Deno.writeTextFile(doc, before);
    const rows: BenchRow[] = [
      { figure: "old figure | piped", value: "2 s", target: "≤ 60 s", met: true, note: "new" },
      { figure: "ratio", value: "not measured", target: "≤ 3×", met: null, note: "tier not landed" },
      { figure: "second new", value: "3 s", target: "≤ 60 s", met: false, note: "slow" },
    ];
    await updatePerformanceRows(rows, "on 2026-12-01T16:00:00Z (load 1)", doc);
    const after = (await Deno.readTextFile(doc)).split("\n");
    assert.ok(after.includes("Benchmark of 2026-11-30 (full run)."), "the heading of the full run stays");
    assert.ok(after.includes("| fake tier wall | 1236 ms | ≤ 2000 ms | yes | 31 cases |"), "other rows stay");
    const table = after.filter((line) => line.startsWith("| ")).slice(2);
    assert.deepEqual(table, [
      "| fake tier wall | 1236 ms | ≤ 2000 ms | yes | 31 cases |",
      "| old figure \\| piped | 2 s | ≤ 60 s | yes | measured alone (--only) on 2026-12-01T16:00:00Z (load 1); new |",
      "| ratio | not measured | ≤ 3× | – | measured alone (--only) on 2026-12-01T16:00:00Z (load 1); tier not landed |",
      "| second new | 3 s | ≤ 60 s | no | measured alone (--only) on 2026-12-01T16:00:00Z (load 1); slow |",
    ]);
    assert.equal(after.at(-2), "<!-- bench:end -->");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
