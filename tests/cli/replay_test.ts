/**
 * Every failure is replayable, through the real `conformance` command: a planted failure (a config-file CLI
 * host whose stream breaks the contract, expected to PASS) prints a rerun command that, run as printed by a
 * POSIX shell, reruns exactly that test and fails the same way; `--rerun-failed` on its report runs only it;
 * its saved stream replays through `conformance parse` to the events the run saw.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseReport } from "../../src/report/schema.ts";
import { runDetached, runHarness } from "../robustness/_harness.ts";

const dir = Deno.makeTempDirSync({ prefix: "conformance-replay-" });
const host = join(dir, "broken-agent.sh");
// An init, a line that is not JSON, a word on stderr, exit 3: cli/behavior/streaming FAILs on it.
Deno.writeTextFileSync(
  host,
  [
    "#!/bin/sh",
    `echo '{"type":"system","subtype":"init","model":"m","session_id":"s"}'`,
    "echo 'not json at all'",
    "echo 'stderr word' >&2",
    "exit 3",
    "",
  ].join("\n"),
);
Deno.chmodSync(host, 0o755);
const config = join(dir, "replay.yaml");
Deno.writeTextFileSync(
  config,
  [
    "hosts:",
    "  - id: broken-agent",
    "    kind: cli",
    `    binary: ${JSON.stringify(host)}`,
    "    dialect: claude",
    "    paths:",
    '      streaming: ["-p", "{prompt}"]',
    "",
  ].join("\n"),
);
const TEST = "cli/behavior/streaming";

function conformance(args: readonly string[]) {
  return runHarness(args, { alsoRun: [host] });
}

/** Runs a printed command line through `sh`, exactly as printed. */
async function runPrinted(line: string) {
  return await runDetached("sh", ["-c", line], { env: { NO_COLOR: "1" } });
}

Deno.test("a planted failure prints a rerun line that reruns exactly it, and it fails again", async () => {
  const out = join(dir, "first");
  const first = await conformance([
    "run",
    "--config",
    config,
    "--host",
    "broken-agent",
    "--live",
    "--out",
    out,
    "--reporter",
    "pretty",
    "--reporter",
    "json",
  ]);
  assert.equal(first.code, 1, first.stderr);
  const report = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  assert.ok(report.results.length > 5, "the first run runs the whole catalogue of the host");
  const failed = report.results.filter((result) => result.status === "FAIL");
  assert.deepEqual(failed.map((result) => result.test), [TEST]);

  const lines = first.stdout.split("\n").map((line) => line.trim()).filter((line) =>
    line.startsWith("rerun: ")
  );
  assert.equal(lines.length, 1, first.stdout);
  const line = lines[0]!.slice("rerun: ".length);
  // Started as `deno run … main.ts`, the line starts the same way, with the set the config's host needs.
  assert.ok(
    line.endsWith(
      `main.ts run --host broken-agent --grep '^cli/behavior/streaming$' --config ${config} --live`,
    ),
    line,
  );
  assert.match(
    line,
    new RegExp(`^(npx -y deno@[\\d.]+|\\S*deno) run --no-prompt .*--allow-run=\\S*,${host} `),
  );

  const again = await runPrinted(line);
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stdout, /^1 result: 0 passed, 1 failed/m);
  assert.match(again.stdout, /✗ FAIL +broken-agent +cli\/behavior\/streaming .*exit code 3, expected 0/);
});

Deno.test("--rerun-failed runs only the report's unexpected result; the saved stream replays", async () => {
  const out = join(dir, "second");
  const base = ["--config", config, "--live", "--reporter", "json", "--reporter", "pretty"];
  const first = await conformance(["run", "--host", "broken-agent", ...base, "--out", out]);
  assert.equal(first.code, 1, first.stderr);
  const report = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  const failed = report.results.find((result) => result.test === TEST)!;
  assert.equal(failed.title, "The host follows the stream contract on the streaming path");
  assert.deepEqual(failed.details.artifacts, ["streams/broken-agent/behavior-streaming"]);
  assert.match(
    first.stdout,
    new RegExp(`artifacts: ${join(out, "streams/broken-agent/behavior-streaming")}`),
  );

  // The saved stream, in the layout of tests/fixtures/cli/<host>/<case>/.
  const saved = join(out, "streams/broken-agent/behavior-streaming");
  const meta = JSON.parse(await Deno.readTextFile(join(saved, "meta.json")));
  assert.equal(meta.exitCode, 3);
  assert.equal(meta.dialect, "claude");
  assert.equal(meta.truncated, false);
  assert.ok(meta.env.includes("PATH") && meta.env.every((name: string) => /^[A-Z_][A-Z0-9_]*$/.test(name)));
  assert.deepEqual(JSON.parse(await Deno.readTextFile(join(saved, "argv.json"))).slice(0, 1), ["-p"]);
  assert.equal(await Deno.readTextFile(join(saved, "stderr.txt")), "stderr word\n");
  const parsed = await conformance(["parse", saved]);
  assert.equal(parsed.code, 0, parsed.stderr);
  const events = parsed.stdout.trimEnd().split("\n").map((text) => JSON.parse(text));
  assert.deepEqual(events.map((event) => event.kind), failed.details.kinds);

  const rerunOut = join(dir, "rerun");
  // No --config, no --live: the report's run.rerunFlags bring them back.
  assert.deepEqual(report.run.rerunFlags, ["--config", config, "--live"]);
  const rerun = await conformance([
    "run",
    "--rerun-failed",
    join(out, "report.json"),
    "--reporter",
    "json",
    "--out",
    rerunOut,
  ]);
  assert.equal(rerun.code, 1, rerun.stderr);
  const rerunReport = parseReport(await Deno.readTextFile(join(rerunOut, "report.json")), "rerun.json");
  assert.deepEqual(rerunReport.results.map((result) => [result.host, result.test, result.status]), [
    ["broken-agent", TEST, "FAIL"],
  ]);

  // The rerun's own report has the same one unexpected result; a report without any has nothing to rerun.
  const passing = join(dir, "passing.json");
  const clean = { ...rerunReport, results: [{ ...rerunReport.results[0]!, expected: "FAIL" as const }] };
  await Deno.writeTextFile(passing, JSON.stringify(clean));
  const nothing = await conformance(["run", "--rerun-failed", passing, ...base]);
  assert.equal(nothing.code, 0, nothing.stderr);
  assert.match(nothing.stderr, /has no unexpected result and no interrupted test: nothing to rerun/);
});

Deno.test("--rerun-failed refuses a missing file, a non-report and --host with one line, exit 2", async () => {
  const notReport = join(dir, "not-a-report.json");
  await Deno.writeTextFile(notReport, '{"hello": 1}\n');
  for (
    const [args, message] of [
      [["--rerun-failed", join(dir, "absent.json")], /report ".*absent\.json" does not exist/],
      [["--rerun-failed", notReport], /has schema null, expected "conformance-report\/1"/],
      [["--rerun-failed", notReport, "--host", "fake"], /takes its hosts from the report: drop --host/],
    ] as const
  ) {
    const exit = await conformance(["run", ...args]);
    assert.equal(exit.code, 2, exit.stderr);
    assert.match(exit.stderr, message);
    assert.equal(exit.stderr.trimEnd().split("\n").length, 1, exit.stderr);
  }
});

Deno.test({
  name: "replay: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
