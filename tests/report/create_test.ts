import assert from "node:assert/strict";
import { join } from "node:path";
import { createReporters, ReporterGroup, wantsColor } from "../../src/report/create.ts";
import { ReportError } from "../../src/report/report_error.ts";
import type { Reporter } from "../../src/report/reporter.ts";
import { REPORTER_NAMES } from "../../src/report/reporters.ts";
import { parseReport } from "../../src/report/schema.ts";
import { collector, mixedReport, tempDir } from "./_fixtures.ts";

function options(outDir: string | null) {
  const stdout = collector();
  const stderr = collector();
  return { stdout, stderr, options: { outDir, stdout, stderr, isTTY: false, color: false, secrets: [] } };
}

function drive(reporters: Reporter[]) {
  const group = new ReporterGroup(reporters);
  const report = mixedReport();
  group.start({ run: report.run, hosts: report.hosts, total: report.results.length });
  for (const r of report.results) {
    group.testStarted(r.host, r.test);
    group.result(r);
  }
  return group.finish(report);
}

Deno.test("every format writes its file into the output folder", async () => {
  await using temp = await tempDir();
  const { stdout, options: o } = options(temp.path);
  const reporters = createReporters(["pretty", "json", "junit", "markdown", "html", "json"], o);
  assert.deepEqual(reporters.map((r) => r.name), ["pretty", "json", "junit", "markdown", "html"]);
  await drive(reporters);
  const files = (await Array.fromAsync(Deno.readDir(temp.path))).map((e) => e.name).sort();
  assert.deepEqual(files, ["board.md", "junit.xml", "report.html", "report.json"]);
  assert.deepEqual(parseReport(await Deno.readTextFile(join(temp.path, "report.json")), "r"), mixedReport());
  assert.match(stdout.text(), /11 results: /, "pretty goes to standard output");
});

Deno.test("without --out one format prints to standard output and pretty moves to standard error", async () => {
  const { stdout, stderr, options: o } = options(null);
  await drive(createReporters(["pretty", "json"], o));
  assert.deepEqual(parseReport(stdout.text(), "<stdout>"), mixedReport());
  assert.match(stderr.text(), /11 results: /);
});

Deno.test("two formats printing to standard output, or an unknown name, are errors", () => {
  const { options: o } = options(null);
  assert.throws(
    () => createReporters(["json", "junit"], o),
    (error) =>
      error instanceof ReportError && error.message ===
        'Reporters "json" and "junit" would both print to standard output: add --out DIR to write them as files',
  );
  assert.throws(
    () => createReporters(["pretty", "xml"], o),
    (error) =>
      error instanceof ReportError &&
      // Every name, the built-in ones first; a reporter added to the list joins them without a test edit.
      error.message === `Unknown reporter "xml": use one of ${REPORTER_NAMES.join(", ")}` &&
      error.message.startsWith(
        'Unknown reporter "xml": use one of pretty, json, junit, markdown, html, github',
      ),
  );
});

Deno.test("a reporter group finishes every reporter even when one fails", async () => {
  const finished: string[] = [];
  const reporter = (name: "json" | "junit", fail: boolean): Reporter => ({
    name,
    start() {},
    testStarted() {},
    result() {},
    finish() {
      finished.push(name);
      return fail ? Promise.reject(new Error(`${name} failed`)) : Promise.resolve();
    },
  });
  await assert.rejects(drive([reporter("json", true), reporter("junit", false)]), /json failed/);
  assert.deepEqual(finished, ["json", "junit"]);
});

Deno.test("colour needs a terminal and no NO_COLOR", () => {
  assert.equal(wantsColor(true, undefined), true);
  assert.equal(wantsColor(true, ""), true);
  assert.equal(wantsColor(true, "1"), false);
  assert.equal(wantsColor(false, undefined), false);
});

Deno.test("html without an output folder is refused: a whole page printed into a terminal helps no one", async () => {
  const { options: o } = options(null);
  assert.throws(
    () => createReporters(["pretty", "html"], o),
    (error: unknown) => error instanceof ReportError && /add --out DIR/.test(error.message),
  );
  const { runCommand } = await import("../../cli/run.ts");
  const { memoryIo } = await import("../../cli/io.ts");
  await assert.rejects(
    () => runCommand(["--host", "fake", "--reporter", "html"], memoryIo()),
    /Reporter "html" writes report\.html into a folder: add --out DIR/,
  );
});
