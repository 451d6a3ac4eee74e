/**
 * Expectations through `conformance run`: version conditions and several statuses decide the exit code, a
 * rotted file stops the run before any test with every problem at once, `--update-expectations` keeps a
 * file's comments and order, and refuses before any test runs when it cannot apply. The host is a `--config`
 * CLI host whose binary is a shell script with a chosen version that passes or fails as told, counting its
 * runs, so "no test ran" is a count of zero.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import { parseReport } from "../../src/report/schema.ts";
import { UsageError, UsageProblems } from "../../src/errors.ts";
import { OK_STREAM, plantCliHost } from "./_planted_host.ts";
import { runDetached } from "../robustness/_harness.ts";

const TEST = "cli/behavior/streaming";

/** A host printing `version` (none: its version check fails) whose streaming run fails while `fail` exists. */
async function plantedHost(version: string | null) {
  const planted = await plantCliHost({
    id: "agent",
    prefix: "conformance-expectations-",
    script: (dir) => [
      `if [ "$1" = "--version" ]; then ${
        version === null ? "exit 1" : `echo "agent ${version}"; exit 0`
      }; fi`,
      `n=$(cat "${dir}/runs" 2>/dev/null || echo 0); echo $((n + 1)) > "${dir}/runs"`,
      `if [ -e "${dir}/fail" ]; then echo "planted failure" >&2; exit 1; fi`,
      ...OK_STREAM.map((line) => `echo '${line}'`),
    ],
  });
  const dir = planted.dir;
  return {
    ...planted,
    expectations: join(dir, "agent.expectations.yaml"),
    failing: async (on: boolean) => on ? await Deno.writeTextFile(join(dir, "fail"), "") : undefined,
    runs: async () => Number((await Deno.readTextFile(join(dir, "runs")).catch(() => "0")).trim()),
  };
}

type Host = Awaited<ReturnType<typeof plantedHost>>;

function file(entries: string, host = "agent"): string {
  return `schema: conformance-expectations/1\nhost: ${host}\ntests:\n${entries}`;
}

async function run(host: Host, extra: string[] = []) {
  const io = memoryIo();
  const out = join(host.dir, "out");
  const code = await runCli(
    [
      "run",
      "--config",
      host.config,
      "--host",
      "agent",
      "--live",
      "--grep",
      `^${TEST}$`,
      "--reporter",
      "json,pretty",
      "--out",
      out,
      ...extra,
    ],
    io,
  );
  const report = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  return { code, io, result: report.results[0]! };
}

/** Runs expecting a refusal; returns its message after proving no test ran and nothing was reported. */
async function refused(host: Host, extra: string[]): Promise<UsageError> {
  const io = memoryIo();
  const error = await runCli(
    ["run", "--config", host.config, "--host", "agent", "--live", "--grep", `^${TEST}$`, ...extra],
    io,
  ).then(() => null, (e: unknown) => e);
  assert.ok(error instanceof UsageError, `expected a refusal, got ${error}: ${io.stdout}`);
  assert.equal(await host.runs(), 0, "a test ran");
  assert.equal(io.stdout, "", "results were reported");
  return error;
}

Deno.test("a version condition: the entry applies in range, not to a fixed newer host, and when unknown", async (t) => {
  const entry = `  ${TEST}:\n    status: FAIL\n    versions: "<0.25"\n    reason: "fails before 0.25"\n`;
  const cases: [string, string | null, boolean, number, string][] = [
    ["in range, failing: the known failure", "0.24.4", true, 0, "FAIL"],
    ["in range, passing: stale", "0.24.4", false, 1, "FAIL"],
    ["newer, fixed: not stale", "0.25.0", false, 0, "PASS"],
    ["newer, failing: unexpected", "0.25.0", true, 1, "PASS"],
    ["unknown, failing: the entry applies", null, true, 0, "FAIL"],
  ];
  for (const [name, version, failing, exit, expected] of cases) {
    await t.step(name, async () => {
      await using host = await plantedHost(version);
      await host.failing(failing);
      await Deno.writeTextFile(host.expectations, file(entry));
      const { code, io, result } = await run(host, ["--expectations", host.expectations]);
      assert.equal(code, exit, io.stdout + io.stderr);
      assert.equal(result.expected, expected);
      const note = result.details.expectationNote;
      if (version === null) {
        assert.match(String(note), /version is unknown, so the entry for versions "<0\.25"/);
      } else assert.equal(note, undefined);
    });
  }
});

Deno.test("several statuses: a flaky host's PASS and FAIL are both as expected", async () => {
  await using host = await plantedHost("1.0");
  await Deno.writeTextFile(
    host.expectations,
    file(`  ${TEST}:\n    status: [PASS, FAIL]\n    reason: flaky\n`),
  );
  const passing = await run(host, ["--expectations", host.expectations]);
  assert.equal(passing.code, 0, passing.io.stdout);
  assert.deepEqual(passing.result.expectedAny, ["PASS", "FAIL"]);
  await host.failing(true);
  const failing = await run(host, ["--expectations", host.expectations]);
  assert.equal(failing.code, 0, failing.io.stdout);
  assert.equal(failing.result.status, "FAIL");
  // Without PASS in the list, a PASS is stale, and the line names every listed status.
  await Deno.remove(join(host.dir, "fail"));
  await Deno.writeTextFile(
    host.expectations,
    file(`  ${TEST}:\n    status: [FAIL, TIMEOUT]\n    reason: r\n`),
  );
  const stale = await run(host, ["--expectations", host.expectations]);
  assert.equal(stale.code, 1, stale.io.stdout);
  assert.match(stale.io.stdout, /STALE expectation: listed as FAIL or TIMEOUT/);
});

Deno.test("a rotted expectations folder stops the run before any test, every problem at once", async () => {
  await using host = await plantedHost("1.0");
  const dir = join(host.dir, "expectations");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "a.yaml"), file("", "agnet"));
  await Deno.writeTextFile(
    join(dir, "b.yaml"),
    file(
      `  cli/behavior/streeming:\n    status: FAIL\n    reason: r\n  nowhere/at/all:\n    status: FAIL\n    reason: r\n`,
    ),
  );
  const error = await refused(host, ["--expectations", dir]);
  assert.ok(error instanceof UsageProblems);
  assert.equal(error.problems.length, 3, error.message);
  assert.match(error.problems[0]!, /"[^"]*a\.yaml": unknown host "agnet": did you mean "agent"\?/);
  assert.match(
    error.problems[1]!,
    /"[^"]*b\.yaml": entry "cli\/behavior\/streeming" .* did you mean "cli\/behavior\/streaming"\?/,
  );
  assert.match(
    error.problems[2]!,
    /"[^"]*b\.yaml": entry "nowhere\/at\/all" is not a test of host "agent"\. Run/,
  );
  // An entry for a test of the host that this run does not select (--grep) is fine.
  await Deno.remove(join(dir, "a.yaml"));
  await Deno.writeTextFile(
    join(dir, "b.yaml"),
    file(`  cli/constructability/streaming:\n    status: FAIL\n    reason: r\n`),
  );
  const { code, io } = await run(host, ["--expectations", dir]);
  assert.equal(code, 0, io.stdout + io.stderr);
});

const COMMENTED = `# Known failures of agent.
schema: conformance-expectations/1
host: agent
tests:
  # Kept: this run does not select it (--grep).
  cli/constructability/streaming:
    status: FAIL
    reason: "not selected" # why it fails
  cli/behavior/streaming:
    status: FAIL
    reason: "the reason a person wrote"
# The end.
`;

Deno.test("--update-expectations keeps comments, order and an unchanged entry's reason", async () => {
  await using host = await plantedHost("1.0");
  await host.failing(true);
  await Deno.writeTextFile(host.expectations, COMMENTED);
  const unchanged = await run(host, ["--expectations", host.expectations, "--update-expectations"]);
  assert.equal(unchanged.code, 0, unchanged.io.stderr);
  assert.match(unchanged.io.stderr, /already match this run/);
  assert.equal(await Deno.readTextFile(host.expectations), COMMENTED);
  // Now it passes: its entry is stale and goes, the one --grep did not select stays as written.
  await Deno.remove(join(host.dir, "fail"));
  const stale = await run(host, ["--expectations", host.expectations, "--update-expectations"]);
  assert.equal(stale.code, 0, stale.io.stderr);
  assert.match(stale.io.stderr, /wrote expectations .*agent\.expectations\.yaml/);
  assert.equal(
    await Deno.readTextFile(host.expectations),
    COMMENTED.replace(
      `  cli/behavior/streaming:\n    status: FAIL\n    reason: "the reason a person wrote"\n`,
      "",
    ),
  );
});

Deno.test("--update-expectations refuses before any test runs when it cannot apply", async (t) => {
  await t.step("a sharded run", async () => {
    await using host = await plantedHost("1.0");
    await Deno.writeTextFile(host.expectations, COMMENTED);
    const error = await refused(host, [
      "--expectations",
      host.expectations,
      "--update-expectations",
      "--shard",
      "1/2",
    ]);
    assert.match(error.message, /cannot apply: a shard's run would rewrite the file/);
  });
  await t.step("a file that lists another host", async () => {
    await using host = await plantedHost("1.0");
    await Deno.writeTextFile(host.expectations, file("", "fake"));
    const error = await refused(host, ["--expectations", host.expectations, "--update-expectations"]);
    assert.match(
      error.message,
      /cannot apply: ".*agent\.expectations\.yaml" lists host "fake", not "agent"$/,
    );
  });
  await t.step("one file for several hosts", async () => {
    await using host = await plantedHost("1.0");
    await Deno.writeTextFile(host.expectations, COMMENTED);
    const error = await refused(host, [
      "--host",
      "fake",
      "--expectations",
      host.expectations,
      "--update-expectations",
    ]);
    assert.match(error.message, /it is one file but the run has 2 hosts \(agent, fake\): give a folder/);
  });
  await t.step("an unparsable file", async () => {
    await using host = await plantedHost("1.0");
    await Deno.writeTextFile(host.expectations, "schema: [unclosed\n");
    const error = await refused(host, ["--expectations", host.expectations, "--update-expectations"]);
    assert.match(error.message, /is not valid YAML/);
  });
  await t.step("a file in a folder listing another host than its name says", async () => {
    await using host = await plantedHost("1.0");
    const dir = join(host.dir, "expectations");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "agent.yaml"), file("", "fake"));
    const error = await refused(host, ["--expectations", dir, "--update-expectations"]);
    assert.match(error.message, /"[^"]*agent\.yaml" lists host "fake", not "agent", which it would write/);
  });
});

/** `conformance run …` as a user starts it, allowed to write only under `writable`. */
function conformance(args: string[], writable: string) {
  const root = decodeURIComponent(new URL("../../", import.meta.url).pathname);
  return runDetached(
    Deno.execPath(),
    [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${writable}`,
      "--allow-env",
      "--allow-sys",
      "--allow-run",
      "--allow-net=127.0.0.1,localhost,[::1]",
      "main.ts",
      "run",
      ...args,
    ],
    { cwd: root },
  );
}

Deno.test("from the command line: exit 2, one line per problem, and an unwritable target refused first", async () => {
  await using host = await plantedHost("1.0");
  const base = ["--config", host.config, "--host", "agent", "--live", "--grep", `^${TEST}$`];
  await Deno.writeTextFile(
    host.expectations,
    file(
      `  cli/behavior/streeming:\n    status: FAIL\n    reason: r\n  cli/constructability/streamin:\n    status: FAIL\n    reason: r\n`,
    ),
  );
  const rotted = await conformance([...base, "--expectations", host.expectations], host.dir);
  assert.equal(rotted.code, 2, rotted.stderr);
  assert.equal(rotted.stdout, "");
  const lines = rotted.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 2, rotted.stderr);
  assert.ok(lines.every((line) => line.startsWith("conformance: Expectations file ")), rotted.stderr);
  assert.match(lines[0]!, /did you mean "cli\/behavior\/streaming"\?/);
  assert.match(lines[1]!, /did you mean "cli\/constructability\/streaming"\?/);

  await Deno.writeTextFile(host.expectations, COMMENTED);
  const elsewhere = await Deno.makeTempDir({ prefix: "conformance-elsewhere-" });
  try {
    const unwritable = await conformance(
      [...base, "--expectations", host.expectations, "--update-expectations"],
      elsewhere,
    );
    assert.equal(unwritable.code, 2, unwritable.stderr);
    assert.equal(unwritable.stdout, "");
    assert.match(
      unwritable.stderr,
      /^conformance: --update-expectations ".*" cannot apply: it is outside the folders this run may write\n$/,
    );
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
  }
  assert.equal(await host.runs(), 0, "a test ran");
  assert.equal(await Deno.readTextFile(host.expectations), COMMENTED);
});

Deno.test("--update-expectations into a folder that does not exist yet writes <host>.yaml, which then holds", async () => {
  await using host = await plantedHost("1.0");
  await host.failing(true);
  const dir = join(host.dir, "expectations");
  const first = await run(host, ["--expectations", dir, "--update-expectations"]);
  assert.equal(first.code, 0, first.io.stderr);
  const written = await Deno.readTextFile(join(dir, "agent.yaml"));
  assert.match(written, /^host: agent$/m);
  assert.match(written, /^ {2}cli\/behavior\/streaming:\n {4}status: FAIL\n {4}reason: /m);
  const next = await run(host, ["--expectations", dir]);
  assert.equal(next.code, 0, next.io.stdout);
  assert.equal(next.result.expected, "FAIL");
});
