/**
 * `--reporter ctrf` writes a Common Test Report Format document that the `ctrf` package (the format's
 * reference implementation) validates, with statuses that agree with the run's exit code.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { validate } from "ctrf";
import { CTRF_FILE, ctrfReport } from "../../src/report/ctrf.ts";
import { createReporters, ReporterGroup } from "../../src/report/create.ts";
import { parseReport } from "../../src/report/schema.ts";
import { judge } from "../../src/report/verdict.ts";
import { runHarness } from "../robustness/_harness.ts";
import { collector, mixedReport, report, result, tempDir } from "./_fixtures.ts";

function assertValid(document: unknown): void {
  const verdict = validate(document);
  assert.deepEqual(verdict.errors, [], "the ctrf package finds the document valid");
  assert.equal(verdict.valid, true);
}

Deno.test("conformance run --reporter ctrf: a document the ctrf package validates, failing what the run fails", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "out");
  const expectations = join(dir.path, "fake.yaml");
  // A passing test listed as failing: a stale expectation, which fails the run.
  await Deno.writeTextFile(
    expectations,
    "schema: conformance-expectations/1\nhost: fake\ntests:\n  cli/constructability/streaming: { status: FAIL, reason: planted }\n",
  );
  const exit = await runHarness([
    "run",
    "--host",
    "fake",
    "--grep",
    "^cli/constructability/",
    "--expectations",
    expectations,
    "--reporter",
    "ctrf",
    "--out",
    out,
  ]);
  assert.equal(exit.code, 1, exit.stderr);
  assert.match(exit.stderr, new RegExp(`conformance: wrote ${join(out, CTRF_FILE)}\\n`));
  const document = JSON.parse(await Deno.readTextFile(join(out, CTRF_FILE)));
  assertValid(document);
  // report.json is always written with --out: the same run, in the harness's own terms.
  const run = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
  const tests = document.results.tests as { name: string; status: string; rawStatus: string }[];
  assert.equal(tests.length, run.results.length);
  assert.ok(tests.length > 1, "more than the planted test ran");
  for (const each of run.results) {
    const test = tests.find((test) => test.name === `${each.host}: ${each.test}`);
    assert.ok(test, `${each.test} is in the document`);
    assert.equal(test.rawStatus, each.status);
    assert.equal(
      test.status === "failed",
      !judge(each).matched,
      `${each.test}: failed iff the run fails on it`,
    );
  }
  assert.deepEqual(
    tests.filter((test) => test.status === "failed").map((test) => test.name),
    ["fake: cli/constructability/streaming"],
  );
  assert.equal(document.results.summary.failed, 1);
  assert.equal(document.results.summary.tests, run.results.length);
});

Deno.test("each standing maps to one CTRF status; interrupted tests are skipped; all of it validates", () => {
  const mixed = mixedReport();
  const planted = {
    ...mixed,
    run: {
      ...mixed.run,
      incomplete: true,
      interrupted: [
        { host: "codex", test: "cli/scripted/late", started: true },
        { host: "codex", test: "cli/scripted/later", started: false },
      ],
    },
  };
  const document = ctrfReport(planted);
  assertValid(document);
  const status = new Map(document.results.tests.map((test) => [test.name, test.status]));
  assert.equal(status.get("claude-code: cli/behavior/plain"), "passed");
  assert.equal(status.get("claude-code: cli/scripted/ordering"), "failed", "an unexpected FAIL");
  assert.equal(status.get("claude-code: cli/scripted/retry"), "passed", "a WARN fails nothing");
  assert.equal(status.get("claude-code: cli/scripted/optional"), "passed", "an INFO fails nothing");
  assert.equal(status.get("claude-code: cli/capabilities/images-positive"), "skipped");
  assert.equal(status.get("codex: cli/behavior/plain"), "failed", "an unexpected TIMEOUT");
  assert.equal(status.get("codex: cli/scripted/ordering"), "failed", "an unexpected ERROR");
  assert.equal(status.get("codex: cli/scripted/retry"), "other", "a known FAIL, as listed");
  assert.equal(status.get("fake: cli/behavior/plain"), "failed", "a stale expectation");
  assert.equal(status.get("codex: cli/scripted/late"), "skipped");
  assert.equal(status.get("codex: cli/scripted/later"), "skipped");
  const { summary } = document.results;
  assert.deepEqual(
    [summary.tests, summary.passed, summary.failed, summary.skipped, summary.other],
    [13, 3, 4, 5, 1],
  );
  assert.equal(summary.stop - summary.start, planted.run.durationMs);
  assert.deepEqual(document.results.tests.find((test) => test.name === "codex: cli/scripted/retry")!.suite, [
    "codex",
    "cli",
    "scripted",
  ]);
});

Deno.test("the ctrf document redacts secrets and keeps retries, flakiness and artifacts", () => {
  const secret = "sk-ctrf-test-0123456789abcdef";
  const document = ctrfReport(
    report([
      result("amp", "apps/csp/blocked", "PASS", {
        flaky: true,
        attempts: 2,
        message: `matched on retry; key ${secret}`,
        title: `title with ${secret}`,
        details: { artifacts: ["amp-trace.zip", "shots/amp.png"] },
      }),
    ]),
    [secret],
  );
  assertValid(document);
  assert.ok(!JSON.stringify(document).includes(secret), "the secret is redacted everywhere");
  const [test] = document.results.tests;
  assert.equal(test!.flaky, true);
  assert.equal(test!.retries, 1);
  assert.deepEqual(test!.attachments, [
    { name: "amp-trace.zip", contentType: "application/zip", path: "amp-trace.zip" },
    { name: "amp.png", contentType: "image/png", path: "shots/amp.png" },
  ]);
  assert.equal(document.results.summary.flaky, 1);
});

Deno.test("without --out the ctrf document goes to standard output", async () => {
  const stdout = collector();
  const group = new ReporterGroup(
    createReporters(["ctrf"], {
      outDir: null,
      stdout,
      stderr: collector(),
      isTTY: false,
      color: false,
      secrets: [],
    }),
  );
  await group.finish(mixedReport());
  assertValid(JSON.parse(stdout.text()));
});
