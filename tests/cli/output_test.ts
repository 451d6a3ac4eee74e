/**
 * What the terminal gets from a run: a summary and the files written even when only file reporters are chosen,
 * colour as FORCE_COLOR, NO_COLOR and TERM=dumb say, and JUnit times that are wall times. Run on the real
 * harness as a subprocess (under `script` when a terminal is needed).
 */
import assert from "node:assert/strict";
import { colorAllowed } from "../../cli/io.ts";
import { shellQuote } from "../../cli/rerun.ts";
import { ReporterGroup } from "../../src/report/create.ts";
import { JunitReporter } from "../../src/report/junit.ts";
import type { RunReport } from "../../src/report/schema.ts";
import type { TestResult } from "../../src/outcome.ts";
import { conformanceArgv, runDetached, runHarness } from "../robustness/_harness.ts";

const TWO_TESTS = ["--host", "fake", "--grep", "^cli/scripted/(ordering|abort-from-callback)$"];
const ESC = "\x1b[";

/** Runs the harness on a pseudo-terminal (`script`), with `env` over the test's own. */
function onTerminal(args: string[], env: Record<string, string>) {
  const argv = conformanceArgv(args);
  const command = [argv.binary, ...argv.args].map(shellQuote).join(" ");
  return runDetached("script", ["-qec", command, "/dev/null"], { env });
}

Deno.test("only file reporters: the terminal still gets the summary and one wrote line per file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-files-" });
  try {
    const exit = await runHarness([...TWO_TESTS, "--reporter", "json,junit,markdown", "--out", dir]);
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stdout, "");
    const lines = exit.stderr.trimEnd().split("\n");
    assert.match(lines[0]!, /^2 results: 2 passed, 0 failed, .* · all as expected · \d+(ms|\.\ds)$/);
    assert.deepEqual(lines.slice(1), [
      `conformance: wrote ${dir}/report.json`,
      `conformance: wrote ${dir}/junit.xml`,
      `conformance: wrote ${dir}/board.md`,
    ]);
    for (const file of ["report.json", "junit.xml", "board.md"]) {
      assert.ok((await Deno.stat(`${dir}/${file}`)).isFile);
    }

    // json to standard output: the summary goes to standard error, the report stays clean JSON.
    const printed = await runHarness([...TWO_TESTS, "--reporter", "json"]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(JSON.parse(printed.stdout).results.length, 2);
    assert.match(printed.stderr, /^2 results: .* all as expected/);
    assert.doesNotMatch(printed.stderr, /wrote/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("one result reads as one: 1 result, not 1 results", async () => {
  const exit = await runHarness(["--host", "fake", "--grep", "^cli/scripted/ordering$"]);
  assert.equal(exit.code, 0, exit.stderr);
  assert.match(exit.stdout, /^1 result: 1 passed,/m);
});

Deno.test("FORCE_COLOR colours a pipe; FORCE_COLOR=0, NO_COLOR and TERM=dumb turn a terminal plain", async () => {
  const forced = await runHarness(TWO_TESTS, { env: { NO_COLOR: "", FORCE_COLOR: "1" } });
  assert.equal(forced.code, 0, forced.stderr);
  assert.ok(forced.stdout.includes(`${ESC}32m`), `green in a pipe with FORCE_COLOR=1:\n${forced.stdout}`);
  const piped = await runHarness(TWO_TESTS, { env: { NO_COLOR: "", FORCE_COLOR: "" } });
  assert.ok(!piped.stdout.includes(ESC), "a pipe stays plain without FORCE_COLOR");

  const terminal = await onTerminal(TWO_TESTS, { NO_COLOR: "", FORCE_COLOR: "", TERM: "xterm-256color" });
  assert.equal(terminal.code, 0, terminal.stdout);
  assert.ok(terminal.stdout.includes(`${ESC}32m`), "a terminal gets colour");
  assert.ok(terminal.stdout.includes(`${ESC}2K`), "and the live progress line");

  const dumb = await onTerminal(TWO_TESTS, { NO_COLOR: "", FORCE_COLOR: "", TERM: "dumb" });
  assert.equal(dumb.code, 0, dumb.stdout);
  assert.ok(
    !dumb.stdout.includes("\x1b"),
    `TERM=dumb: no escape sequence at all:\n${JSON.stringify(dumb.stdout)}`,
  );
  assert.match(dumb.stdout, /PASS +fake +cli\/scripted\/ordering/, "one line per result instead");
  for (const env of [{ FORCE_COLOR: "0", NO_COLOR: "" }, { FORCE_COLOR: "", NO_COLOR: "1" }]) {
    const plain = await onTerminal(TWO_TESTS, { ...env, TERM: "xterm-256color" });
    assert.equal(plain.code, 0, plain.stdout);
    assert.ok(!plain.stdout.includes(`${ESC}32m`), `no colour with ${JSON.stringify(env)}`);
  }
});

Deno.test("colorAllowed: FORCE_COLOR wins, then NO_COLOR and TERM=dumb, then whether it is a terminal", () => {
  const env = (vars: Record<string, string>) => new Map(Object.entries(vars));
  assert.equal(colorAllowed(true, env({})), true);
  assert.equal(colorAllowed(false, env({})), false);
  assert.equal(colorAllowed(false, env({ FORCE_COLOR: "1" })), true);
  assert.equal(colorAllowed(false, env({ FORCE_COLOR: "3", NO_COLOR: "1", TERM: "dumb" })), true);
  assert.equal(colorAllowed(true, env({ FORCE_COLOR: "0" })), false);
  assert.equal(colorAllowed(true, env({ FORCE_COLOR: "false" })), false);
  assert.equal(colorAllowed(true, env({ FORCE_COLOR: "" })), true);
  assert.equal(colorAllowed(true, env({ NO_COLOR: "1" })), false);
  assert.equal(colorAllowed(true, env({ NO_COLOR: "" })), true);
  assert.equal(colorAllowed(true, env({ TERM: "dumb" })), false);
});

Deno.test("JUnit: the testsuites time is the run's wall time, as report.json says", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-junit-" });
  try {
    const exit = await runHarness([
      "--host",
      "fake,fake-minimal",
      "--grep",
      "^cli/(scripted/ordering|behavior/streaming)$",
      "--reporter",
      "json,junit",
      "--out",
      dir,
    ]);
    assert.equal(exit.code, 0, exit.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`)) as RunReport;
    const xml = await Deno.readTextFile(`${dir}/junit.xml`);
    const total = /<testsuites [^>]*time="([\d.]+)"/.exec(xml)?.[1];
    assert.equal(total, (report.run.durationMs / 1000).toFixed(3));
    const suites = [...xml.matchAll(/<testsuite [^>]*time="([\d.]+)"/g)].map((match) => Number(match[1]));
    assert.equal(suites.length, 2);
    for (const time of suites) assert.ok(time <= report.run.durationMs / 1000, `${time} within the run`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("JUnit: a testsuite's time is its host's wall time, not the sum of tests that ran side by side", async () => {
  const written: string[] = [];
  // Driven as a run drives its reporters.
  const reporter = new ReporterGroup([
    new JunitReporter({ outDir: null, out: { write: (text) => void written.push(text) } }),
  ]);
  const result = (host: string, test: string): TestResult => ({
    host,
    test,
    status: "PASS",
    expected: "PASS",
    message: "",
    durationMs: 1000,
    details: {},
  });
  const results = [result("a", "cli/x/one"), result("a", "cli/x/two"), result("b", "cli/x/one")];
  const run = {
    harness: "0",
    suite: "s",
    startedAt: new Date().toISOString(),
    os: "linux",
    deno: "2",
    shard: "1/1",
  };
  reporter.start({ run, hosts: [], total: 3 });
  // Host a's two one-second tests ran side by side, within about 1.05 s; host b's ran alone.
  reporter.testStarted("a", "cli/x/one");
  reporter.testStarted("a", "cli/x/two");
  reporter.testStarted("b", "cli/x/one");
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const each of results) reporter.result(each);
  await reporter.finish({
    schema: "conformance-report/1",
    run: { ...run, durationMs: 1100 },
    hosts: [{ id: "a", kind: "cli", version: null }, { id: "b", kind: "cli", version: null }],
    results,
    summary: { passed: 3, failed: 0, warned: 0, info: 0, skipped: 0, timedOut: 0, errored: 0, flaky: 0 },
  } as RunReport);
  const xml = written.join("");
  assert.match(xml, /<testsuites [^>]*time="1\.100"/);
  const times = [...xml.matchAll(/<testsuite name="(\w)"[^>]*time="([\d.]+)"/g)].map((
    m,
  ) => [m[1], Number(m[2])]);
  assert.equal(times.length, 2);
  for (const [host, time] of times) {
    assert.ok((time as number) >= 0.04 && (time as number) < 1, `${host}: ${time} s is the wall time seen`);
  }
});
