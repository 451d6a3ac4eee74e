/**
 * The capability board: host × flag with "argv" and "behaviour" side by side, from report JSON built here with
 * the ids of `cli/capabilities/` and `cli/capability-behavior/`. Each case pins one rule of the cell semantics
 * (src/report/capability_board.ts), in the data and in the markdown and HTML renderings.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { TestResult } from "../../src/outcome.ts";
import { capabilityBoard, type CapabilityHalf } from "../../src/report/capability_board.ts";
import { HtmlReporter, renderHtml } from "../../src/report/html.ts";
import { renderBoardMarkdown } from "../../src/report/markdown.ts";
import { parseReport } from "../../src/report/schema.ts";
import { serializeReport } from "../../src/report/json.ts";
import { launchChromium, NO_CHROMIUM } from "./_chromium.ts";
import { collector, report, result, tempDir } from "./_fixtures.ts";

const argv = (
  host: string,
  flag: string,
  claimed: boolean,
  ...rest: Parameters<typeof result> extends [string, string, ...infer R] ? R : never
) => result(host, `cli/capabilities/${flag}-${claimed ? "positive" : "negative"}`, ...rest);
const behavior = (
  host: string,
  flag: string,
  direction: "positive" | "negative",
  ...rest: Parameters<typeof result> extends [string, string, ...infer R] ? R : never
) => result(host, `cli/capability-behavior/${flag}-${direction}`, ...rest);

/** A report that went through JSON and back, as `conformance board` reads one. */
function roundTripped(results: TestResult[]) {
  return parseReport(serializeReport(report(results)), "test.json");
}

function cellOf(
  board: ReturnType<typeof capabilityBoard>,
  host: string,
  flag: string,
): { argv?: CapabilityHalf; behavior?: CapabilityHalf } {
  const row = board.rows.find((row) => row.host.id === host);
  assert.ok(row, `a row for ${host}`);
  const cell = row.cells[board.flags.indexOf(flag)];
  assert.ok(cell, `a cell for ${flag}`);
  return cell;
}

/** The capability table of a markdown board, as rows of trimmed cells. */
function capabilityTable(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.indexOf("## Capabilities: argv and behaviour");
  assert.ok(start >= 0, "the board has a capability section");
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("| ")) break;
    rows.push(line.slice(2, -2).split(" | ").map((cell) => cell.trim()));
  }
  return rows;
}

Deno.test("a claimed flag is ✓ in behaviour only when both directions pass; unclaimed shows the negative", () => {
  const board = capabilityBoard(roundTripped([
    argv("codex", "permissionSkip", true, "PASS"),
    behavior("codex", "permissionSkip", "positive", "PASS"),
    behavior("codex", "permissionSkip", "negative", "PASS"),
    argv("codex", "toolAllowlist", false, "PASS"),
    behavior("codex", "toolAllowlist", "negative", "PASS"),
    argv("pi", "permissionSkip", true, "PASS"),
    behavior("pi", "permissionSkip", "positive", "PASS"),
    behavior("pi", "permissionSkip", "negative", "FAIL", { message: "ran the tool without asking" }),
  ]));
  assert.deepEqual(board.flags, ["permissionSkip", "toolAllowlist"]);
  const codex = cellOf(board, "codex", "permissionSkip");
  assert.equal(codex.argv?.mark, "✓");
  assert.equal(codex.behavior?.mark, "✓");
  assert.equal(codex.behavior?.results.length, 2);
  const allowlist = cellOf(board, "codex", "toolAllowlist");
  assert.equal(allowlist.argv?.mark, "○");
  assert.equal(allowlist.behavior?.mark, "○");
  assert.equal(allowlist.behavior?.claimed, false);
  // The positive passing does not hide the negative failing.
  const pi = cellOf(board, "pi", "permissionSkip");
  assert.equal(pi.behavior?.mark, "✗");
  assert.equal(pi.behavior?.verdict, "unexpected");
  assert.equal(pi.behavior?.shown.test, "cli/capability-behavior/permissionSkip-negative");
  assert.match(
    pi.behavior?.note ?? "",
    /permissionSkip-negative: unexpected FAIL \(expected PASS\): ran the tool/,
  );
  assert.deepEqual(board.gaps, [{ host: "pi", flag: "permissionSkip" }]);
});

Deno.test("a host not claiming a flag shows the negative's result, a known finding shown as one", () => {
  const board = capabilityBoard(roundTripped([
    argv("qwen", "workspaceSandboxed", false, "PASS"),
    behavior("qwen", "workspaceSandboxed", "negative", "FAIL", {
      expected: "FAIL",
      message: "wrote /tmp/outside without a sandbox flag: it sandboxes by default",
    }),
  ]));
  const cell = cellOf(board, "qwen", "workspaceSandboxed");
  assert.equal(cell.argv?.mark, "○");
  assert.equal(cell.behavior?.mark, "✗", "an expected failure is a finding, shown, not hidden");
  assert.equal(cell.behavior?.verdict, "expected");
  assert.match(cell.behavior?.note ?? "", /FAIL, a known finding \(expected FAIL in hosts\/expectations\)/);
  assert.deepEqual(board.gaps, [], "not claimed in argv, so no argv-but-not-working gap");
});

Deno.test("SKIP is not observed, never a pass; a direction that did not run makes the half not observed", () => {
  const board = capabilityBoard(roundTripped([
    argv("gemini", "structuredOutput", true, "PASS"),
    behavior("gemini", "structuredOutput", "positive", "SKIP", { message: "no schema flag at 0.9" }),
    behavior("gemini", "structuredOutput", "negative", "PASS"),
    argv("gemini", "agentSelect", true, "PASS"),
    behavior("gemini", "agentSelect", "negative", "PASS"),
    argv("gemini", "streaming", true, "SKIP", { message: "binary absent" }),
  ]));
  const skipped = cellOf(board, "gemini", "structuredOutput").behavior;
  assert.equal(skipped?.mark, "?");
  assert.match(skipped?.note ?? "", /structuredOutput-positive: SKIP, not observed: no schema flag at 0\.9/);
  const half = cellOf(board, "gemini", "agentSelect").behavior;
  assert.equal(half?.mark, "?", "the negative alone does not prove a claimed flag");
  assert.match(half?.note ?? "", /not observed: cli\/capability-behavior\/agentSelect-positive did not run/);
  assert.equal(cellOf(board, "gemini", "streaming").argv?.mark, "?");
  assert.equal(cellOf(board, "gemini", "streaming").behavior, undefined, "not run: blank");
  assert.deepEqual(board.gaps, []);
});

Deno.test("a stale expectation is noted on a passing cell; the worst status shows, unexpected first", () => {
  const board = capabilityBoard(roundTripped([
    argv("omp", "toolAllowlist", true, "PASS"),
    behavior("omp", "toolAllowlist", "positive", "PASS", { expected: "FAIL", message: "" }),
    behavior("omp", "toolAllowlist", "negative", "PASS"),
    argv("kimi-code", "toolAllowlist", true, "PASS"),
    behavior("kimi-code", "toolAllowlist", "negative", "FAIL", { expected: "FAIL", message: "known" }),
    behavior("kimi-code", "toolAllowlist", "positive", "FAIL", { message: "new" }),
  ]));
  const stale = cellOf(board, "omp", "toolAllowlist").behavior;
  assert.equal(stale?.mark, "✓");
  assert.equal(stale?.verdict, "stale");
  assert.match(stale?.note ?? "", /stale expectation: listed as FAIL in hosts\/expectations, now PASS/);
  const both = cellOf(board, "kimi-code", "toolAllowlist").behavior;
  assert.equal(both?.mark, "✗");
  assert.equal(both?.verdict, "unexpected");
  assert.equal(both?.shown.test, "cli/capability-behavior/toolAllowlist-positive");
  assert.match(both?.note ?? "", /positive: unexpected FAIL .*; .*negative: FAIL, a known finding/);
});

Deno.test("the tool round trip is its own behaviour column; WARN and INFO keep their marks", () => {
  const board = capabilityBoard(roundTripped([
    result("claude-code", "cli/capability-behavior/tool-round-trip", "PASS"),
    result("codex", "cli/capability-behavior/tool-round-trip", "WARN", { message: "usage totals differ" }),
    result("gemini", "cli/capability-behavior/tool-round-trip", "INFO", { message: "no ids on tool calls" }),
    result("codex", "cli/capabilities/streaming-positive", "PASS"),
  ]));
  assert.deepEqual(board.flags, ["streaming"]);
  assert.equal(board.rows.find((row) => row.host.id === "claude-code")?.roundTrip?.mark, "✓");
  assert.equal(board.rows.find((row) => row.host.id === "codex")?.roundTrip?.mark, "!");
  assert.equal(board.rows.find((row) => row.host.id === "gemini")?.roundTrip?.mark, "i");
  assert.equal(board.behaviorRan, true);
});

Deno.test("a report without capability results has no capability section", () => {
  const input = report([result("codex", "cli/behavior/streaming", "PASS")]);
  assert.equal(capabilityBoard(input).rows.length, 0);
  assert.doesNotMatch(renderBoardMarkdown(input), /Capabilities/);
  assert.doesNotMatch(renderHtml(input), /id="capabilities"/);
});

/** Sixteen CLI hosts × six flags: the argv tier for all, the behaviour tier for every other host. */
function sixteenHosts(): TestResult[] {
  const flags = ["streaming", "permissionSkip", "agentSelect", "toolAllowlist", "structuredOutput", "resume"];
  const results: TestResult[] = [];
  for (let h = 0; h < 16; h++) {
    const host = `cli-${String(h).padStart(2, "0")}`;
    for (const [f, flag] of flags.entries()) {
      const claimed = (h + f) % 3 !== 1;
      results.push(argv(host, flag, claimed, "PASS"));
      if (h % 2 === 1) continue;
      results.push(behavior(host, flag, "negative", "PASS"));
      if (claimed) {
        results.push(
          behavior(host, flag, "positive", h === 4 && flag === "resume" ? "FAIL" : "PASS", {
            ...(h === 4 && flag === "resume"
              ? { expected: "FAIL", message: "the second request carries no earlier messages" }
              : {}),
          }),
        );
      }
    }
    if (h % 2 === 0) results.push(result(host, "cli/capability-behavior/tool-round-trip", "PASS"));
  }
  return results;
}

Deno.test("the markdown board: one row per host, two columns per flag, gaps and findings named", () => {
  const markdown = renderBoardMarkdown(roundTripped(sixteenHosts()));
  const rows = capabilityTable(markdown);
  assert.equal(rows.length, 2 + 16, "header, separator, one row per host");
  assert.deepEqual(rows[0]!.slice(0, 5), [
    "Host",
    "`streaming` argv",
    "`streaming` behaviour",
    "`permissionSkip` argv",
    "`permissionSkip` behaviour",
  ]);
  assert.equal(rows[0]!.at(-1), "tool round trip");
  for (const row of rows) assert.equal(row.length, 1 + 2 * 6 + 1, `same width: ${row.join(" | ")}`);
  const host4 = rows.find((row) => row[0] === "cli-04")!;
  // resume is the sixth flag: argv column 11, behaviour column 12.
  assert.equal(host4[11], "✓");
  assert.match(host4[12]!, /^✗\[\^c\d+\]$/);
  const host1 = rows.find((row) => row[0] === "cli-01")!;
  assert.deepEqual(host1.slice(2, 13).filter((_, i) => i % 2 === 0), ["", "", "", "", "", ""], "not run");
  assert.match(markdown, /^\*\*In argv but not working:\*\* cli-04 `resume`\.$/m);
  assert.match(
    markdown,
    /^\[\^c1\]: cli\/capability-behavior\/resume-positive: FAIL, a known finding \(expected FAIL in hosts\/expectations\): the second request carries no earlier messages$/m,
  );
  assert.match(markdown, /\? not observed \(a SKIP, or a direction that did not run; never a pass\)/);
});

Deno.test("the markdown board says so when no behaviour result is in the report", () => {
  const markdown = renderBoardMarkdown(roundTripped([
    argv("codex", "permissionSkip", true, "PASS"),
    argv("codex", "agentSelect", false, "PASS"),
  ]));
  assert.deepEqual(capabilityTable(markdown).slice(2), [["codex", "✓", "", "○", "", ""]]);
  assert.match(
    markdown,
    /No `cli\/capability-behavior\/` result in this report: the behaviour columns are empty/,
  );
  assert.doesNotMatch(markdown, /In argv but not working/);
});

Deno.test("a flag the behaviour tier has no test of is named, so its empty column is not read as not run", () => {
  const input = roundTripped([
    argv("codex", "streaming", true, "PASS"),
    argv("codex", "permissionSkip", true, "PASS"),
    behavior("codex", "permissionSkip", "positive", "PASS"),
    behavior("codex", "permissionSkip", "negative", "PASS"),
  ]);
  assert.deepEqual(capabilityBoard(input).untested, ["streaming"]);
  const markdown = renderBoardMarkdown(input);
  assert.deepEqual(capabilityTable(markdown).slice(2), [["codex", "✓", "", "✓", "✓", ""]]);
  assert.match(
    markdown,
    /^No behaviour test of `streaming` in this report: those behaviour columns are empty\.$/m,
  );
  assert.match(renderHtml(input), /No behaviour test of <code>streaming<\/code> in this report/);
  assert.deepEqual(capabilityBoard(roundTripped([argv("codex", "streaming", true, "PASS")])).untested, []);
});

Deno.test("test-only hosts are left off the markdown capability board and kept in the HTML one", () => {
  const input = report([argv("fake", "streaming", true, "PASS"), argv("codex", "streaming", true, "PASS")], {
    hosts: [
      { id: "fake", kind: "cli", version: null, testOnly: true },
      { id: "codex", kind: "cli", version: null },
    ],
  });
  assert.deepEqual(capabilityTable(renderBoardMarkdown(input)).slice(2).map((row) => row[0]), ["codex"]);
  assert.match(renderHtml(input), /<tr><th scope="row">fake<\/th>/);
});

Deno.test("the HTML capability board links each cell to the result it shows, escaped, outlined when unexpected", () => {
  const input = roundTripped([
    argv("pi", "permissionSkip", true, "PASS"),
    behavior("pi", "permissionSkip", "positive", "PASS"),
    behavior("pi", "permissionSkip", "negative", "FAIL", { message: 'asked <img src=x onerror="1">' }),
    argv("pi", "agentSelect", false, "PASS"),
  ]);
  const html = renderHtml(input);
  const section = html.slice(html.indexOf('<table id="capabilities">'), html.indexOf("<h2>Results</h2>"));
  assert.match(section, /<th colspan="2"><code>permissionSkip<\/code><\/th>/);
  assert.equal((section.match(/<th>argv<\/th><th>behaviour<\/th>/g) ?? []).length, 2);
  // The negative is result #2 of the report: the ✗ links there and is outlined as unexpected.
  assert.match(
    section,
    /<td class="mark FAIL unexpected" title="[^"]*"><a href="#r2">✗<sup>1<\/sup><\/a><\/td>/,
  );
  assert.match(
    html,
    /<details id="r2" data-result data-host="pi" data-test="cli\/capability-behavior\/permissionSkip-negative"/,
  );
  assert.match(section, /<a href="#r0">✓<\/a>/);
  assert.match(section, /<a href="#r3">○<\/a>/);
  assert.ok(!section.includes("<img"), "the message is escaped");
  assert.match(section, /asked &lt;img src=x onerror=&quot;1&quot;&gt;/);
  assert.match(section, /In argv but not working<\/span> pi <code>permissionSkip<\/code>/);
});

Deno.test({
  name: "in Chromium, a capability cell opens the result it shows, widening the filters that hide it",
  ignore: NO_CHROMIUM !== undefined,
  async fn() {
    await using temp = await tempDir();
    await new HtmlReporter({ outDir: temp.path, out: collector() }).finish(roundTripped([
      argv("pi", "permissionSkip", true, "PASS"),
      behavior("pi", "permissionSkip", "positive", "PASS"),
      behavior("pi", "permissionSkip", "negative", "FAIL", { message: "ran the tool without asking" }),
    ]));
    await using chromium = await launchChromium();
    const page = await chromium.browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => void problems.push(error.message));
    await page.goto(`file://${join(temp.path, "report.html")}`);
    // The page opens on the unexpected result; the passing argv check is hidden until its cell is followed.
    assert.equal(await page.isHidden("#r0"), true);
    await page.click('#capabilities a[href="#r0"]');
    await page.waitForFunction(() => (document.getElementById("r0") as HTMLDetailsElement).open);
    assert.equal(await page.isVisible("#r0"), true);
    assert.match(await page.innerText("#r0 > summary"), /cli\/capabilities\/permissionSkip-positive/);
    // Filtering the board by status leaves the capability board whole: it is a summary, not a filter view.
    await page.uncheck('input[data-filter="status"][value="FAIL"]');
    assert.equal(await page.isVisible('#capabilities a[href="#r2"]'), true);
    assert.deepEqual(problems, []);
  },
});
