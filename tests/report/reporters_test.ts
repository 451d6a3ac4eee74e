/**
 * The list of reporters (`REPORTERS`) is the one place a reporter is named: `--reporter`'s choices and help,
 * the file each writes, who prints to standard output and the reporter table of docs/reports.md all agree
 * with it and with the modules it names.
 */
import assert from "node:assert/strict";
import { createReporters, ReporterGroup, reporterModule } from "../../src/report/create.ts";
import { REPORTER_NAMES, REPORTERS } from "../../src/report/reporters.ts";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import { collector, mixedReport, tempDir } from "./_fixtures.ts";

async function drive(names: readonly string[], outDir: string | null) {
  const stdout = collector();
  const stderr = collector();
  const group = new ReporterGroup(
    createReporters(names, { outDir, stdout, stderr, isTTY: false, color: false, secrets: [] }),
  );
  const report = mixedReport();
  group.start({ run: report.run, hosts: report.hosts, total: report.results.length });
  for (const result of report.results) {
    group.testStarted(result.host, result.test);
    group.result(result);
  }
  await group.finish(report);
  return { stdout: stdout.text(), stderr: stderr.text() };
}

Deno.test("each row's help line names the file its module writes, and says when it needs --out", () => {
  for (const row of REPORTERS) {
    const module = reporterModule(row.name);
    if (module.file !== undefined) {
      assert.ok(
        row.about.startsWith(`${module.file},`),
        `${row.name}: "${row.about}" names ${module.file} first`,
      );
    } else {
      assert.doesNotMatch(row.about, /^[\w-]+\.\w+,/, `${row.name} writes no file under --out`);
    }
    assert.equal(row.about.includes("needs --out"), module.needsOut === true, `${row.name}: "needs --out"`);
  }
});

Deno.test("with --out each reporter writes exactly the file its module names", async () => {
  for (const name of REPORTER_NAMES) {
    await using temp = await tempDir();
    await drive([name], temp.path);
    const written = (await Array.fromAsync(Deno.readDir(temp.path))).map((entry) => entry.name);
    const file = reporterModule(name).file;
    assert.deepEqual(written, file === undefined ? [] : [file], name);
  }
});

Deno.test("without --out a reporter that prints to stdout does, and pretty moves to stderr beside it", async () => {
  for (const name of REPORTER_NAMES) {
    const module = reporterModule(name);
    if (module.needsOut) {
      assert.throws(() => createReporters([name], { ...emptyContext(), outDir: null }), /add --out DIR/);
      continue;
    }
    const { stdout, stderr } = await drive(["pretty", name], null);
    if (name === "pretty") continue;
    assert.equal(stdout !== "", module.printsToStdout, `${name} on stdout`);
    assert.equal(/11 results: /.test(stderr), module.printsToStdout, `pretty beside ${name} on stderr`);
  }
});

Deno.test("run --help lists every reporter with its line, the first as the default", async () => {
  const io = memoryIo();
  assert.equal(await runCli(["run", "--help"], io), 0);
  for (const [index, row] of REPORTERS.entries()) {
    const line = `${row.name.padEnd(10)}${row.about}${index === 0 ? " (default)" : ""}`;
    assert.ok(io.stdout.includes(line), `run --help lacks "${line}"`);
  }
});

Deno.test("docs/reports.md's reporter table has one row per reporter, in the list's order", async () => {
  const text = await Deno.readTextFile(new URL("../../docs/reports.md", import.meta.url));
  const head = text.indexOf("| reporter ");
  assert.ok(head >= 0, "docs/reports.md has a table headed by | reporter |");
  const table = text.slice(head).split("\n\n", 1)[0]!.split("\n").slice(2);
  const named = table.map((line) => line.match(/^\| `([\w-]+)`/)?.[1]);
  assert.deepEqual(named, [...REPORTER_NAMES]);
});

function emptyContext() {
  return { stdout: collector(), stderr: collector(), isTTY: false, color: false, secrets: [] };
}
