/**
 * The `github` reporter: one `::error` workflow command per result that fails the run, escaped as GitHub's
 * runner unescapes it, and the board appended to `GITHUB_STEP_SUMMARY`; end to end through the real command
 * under the harness's own permission set.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  escapeCommandData,
  escapeCommandProperty,
  GithubReporter,
  renderAnnotations,
} from "../../src/report/github.ts";
import { createReporters } from "../../src/report/create.ts";
import { ReportError } from "../../src/report/report_error.ts";
import { collector, mixedReport, report, result, tempDir } from "./_fixtures.ts";
import { runHarness } from "../robustness/_harness.ts";

/** One workflow command, parsed and unescaped as the Actions runner does (ActionCommand.TryParseV2). */
function parseCommand(line: string): { command: string; properties: Record<string, string>; data: string } {
  assert.ok(line.startsWith("::"), `not a workflow command: ${line}`);
  const end = line.indexOf("::", 2);
  assert.ok(end > 0, `no "::" ending the command: ${line}`);
  const [command = "", ...props] = line.slice(2, end).split(" ");
  const unescapeProperty = (text: string) =>
    text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",")
      .replace(/%25/g, "%");
  const unescapeData = (text: string) =>
    text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
  const properties: Record<string, string> = {};
  for (const pair of props.join(" ").split(",").filter(Boolean)) {
    const eq = pair.indexOf("=");
    properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
  }
  return { command, properties, data: unescapeData(line.slice(end + 2)) };
}

Deno.test("escaping follows the runner's rules: % \\r \\n in data, and : , in properties", () => {
  assert.equal(escapeCommandData("100%\r\nnext: a,b"), "100%25%0D%0Anext: a,b");
  assert.equal(escapeCommandProperty("100%\r\nnext: a,b"), "100%25%0D%0Anext%3A a%2Cb");
  // %25 first: an escaped sequence in the text does not unescape into something else.
  assert.equal(escapeCommandData("%0A"), "%250A");
});

Deno.test("only results that fail the run are annotated, each as one ::error line", () => {
  const text = renderAnnotations(mixedReport());
  const lines = text.trimEnd().split("\n");
  const titles = lines.map((line) => parseCommand(line).properties.title);
  assert.deepEqual(titles, [
    "conformance claude-code · cli/scripted/ordering: FAIL",
    "conformance codex · cli/behavior/plain: TIMEOUT",
    "conformance codex · cli/scripted/ordering: ERROR",
    "conformance fake · cli/behavior/plain: stale expectation",
  ]);
  for (const line of lines) assert.equal(parseCommand(line).command, "error");
  assert.equal(parseCommand(lines[0]!).data, "FAIL: tool_result before tool_call");
  assert.match(parseCommand(lines[3]!).data, /expectations list it as FAIL/);
  assert.equal(renderAnnotations(report([result("a", "cli/x", "PASS"), result("a", "cli/y", "WARN")])), "");
});

Deno.test("host text cannot forge a command, escape the terminal or leak a secret", () => {
  const hostile = report([
    result("h,x:y", "cli/t", "FAIL", {
      message:
        "50% done\r\n::warning::forged\n\x1b]0;title\x07sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 hunter2-password-value",
      title: "a: b, c",
    }),
  ]);
  const text = renderAnnotations(hostile, ["hunter2-password-value"]);
  const lines = text.trimEnd().split("\n");
  assert.equal(lines.length, 1, "a line feed in host text must not start a second command");
  for (const control of ["\x1b", "\x07", "\r"]) assert.ok(!text.includes(control), JSON.stringify(text));
  const parsed = parseCommand(lines[0]!);
  assert.deepEqual(Object.keys(parsed.properties), ["title"]);
  assert.equal(parsed.properties.title, "conformance h,x:y · cli/t: FAIL");
  assert.match(parsed.data, /^a: b, c\nFAIL: 50% done\n::warning::forged\n␛/);
  assert.doesNotMatch(parsed.data, /hunter2-password-value|sk-ant-api03/);
});

Deno.test("the board is appended to GITHUB_STEP_SUMMARY, keeping what earlier steps wrote", async () => {
  await using dir = await tempDir();
  const summary = join(dir.path, "step_summary");
  await Deno.writeTextFile(summary, "earlier step\n");
  const out = collector();
  const reporter = new GithubReporter({ out, stepSummary: summary });
  await reporter.finish(mixedReport());
  const written = await Deno.readTextFile(summary);
  assert.ok(written.startsWith("earlier step\n# Conformance board\n"), written.slice(0, 80));
  assert.match(written, /\| `cli\/scripted\/ordering` \|/);
  assert.equal(out.text().trimEnd().split("\n").length, 4);
  // No summary file set: annotations only.
  await new GithubReporter({ out: collector() }).finish(mixedReport());
});

Deno.test("github prints to standard output, so without --out it cannot share it with json", () => {
  const options = { outDir: null, stdout: collector(), stderr: collector(), isTTY: false, color: false };
  assert.throws(
    () => createReporters(["json", "github"], { ...options, secrets: [] }),
    (error) => error instanceof ReportError && /both print to standard output/.test(error.message),
  );
  const reporters = createReporters(["pretty", "github"], { ...options, secrets: [] });
  assert.deepEqual(reporters.map((r) => r.name), ["pretty", "github"]);
});

Deno.test("conformance run --reporter github: annotations on stdout, the board in the step summary", async () => {
  await using dir = await tempDir();
  const summary = join(dir.path, "summary.md");
  const expectations = join(dir.path, "fake.yaml");
  // A passing test listed as failing: a stale expectation, which fails the run.
  await Deno.writeTextFile(
    expectations,
    "schema: conformance-expectations/1\nhost: fake\ntests:\n  cli/constructability/streaming: { status: FAIL, reason: planted }\n",
  );
  const exit = await runHarness(
    [
      "run",
      "--host",
      "fake",
      "--grep",
      "^cli/constructability/streaming$",
      "--expectations",
      expectations,
      "--reporter",
      "github,json",
      "--out",
      join(dir.path, "out"),
    ],
    { env: { GITHUB_STEP_SUMMARY: summary } },
  );
  assert.equal(exit.code, 1, exit.stderr);
  const commands = exit.stdout.split("\n").filter((line) => line.startsWith("::"));
  assert.equal(commands.length, 1, exit.stdout);
  assert.equal(
    parseCommand(commands[0]!).properties.title,
    "conformance fake · cli/constructability/streaming: stale expectation",
  );
  assert.match(await Deno.readTextFile(summary), /^# Conformance board\n/);
});

Deno.test("a step summary outside the writable folders is a one-line exit-2 error naming the way out", async () => {
  await using dir = await tempDir();
  const exit = await runHarness(
    ["run", "--host", "fake", "--grep", "^cli/constructability/streaming$", "--reporter", "github"],
    { env: { GITHUB_STEP_SUMMARY: "/var/lib/conformance-not-writable/summary.md" } },
  );
  assert.equal(exit.code, 2, exit.stderr);
  const lines = exit.stderr.trim().split("\n");
  assert.match(lines.at(-1)!, /GITHUB_STEP_SUMMARY .*working folder and temp.*action\.yml/);
  assert.doesNotMatch(exit.stderr, /^\s+at /m);
  void dir;
});
