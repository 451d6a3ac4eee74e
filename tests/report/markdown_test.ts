import assert from "node:assert/strict";
import { join } from "node:path";
import { escapeMarkdown, MarkdownReporter, renderBoardMarkdown } from "../../src/report/markdown.ts";
import { collector, mixedReport, report, result, tempDir } from "./_fixtures.ts";

/** The board's table (the first one: the capability board may follow) as rows of trimmed cells. */
function table(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith("| "));
  const end = lines.findIndex((line, index) => index > start && !line.startsWith("| "));
  return lines.slice(start < 0 ? 0 : start, start < 0 ? 0 : end < 0 ? undefined : end)
    .map((line) => line.slice(2, -2).split(" | ").map((cell) => cell.trim()));
}

Deno.test("the board shows tests × hosts, unexpected marks in bold, TIMEOUT and ERROR apart from FAIL", () => {
  const board = renderBoardMarkdown(mixedReport());
  assert.deepEqual(table(board), [
    ["Test", "claude-code 1.2.3", "codex"],
    ["---", ":-:", ":-:"],
    ["`cli/behavior/plain`", "✓", "**◷**[^1]"],
    ["`cli/capabilities/images-positive`", "–[^2]", "–[^3]"],
    ["`cli/scripted/optional`", "i[^4]", ""],
    ["`cli/scripted/ordering`", "**✗**[^5]", "**⚠**[^6]"],
    ["`cli/scripted/retry`", "![^7]", "✗[^8]"],
    ["**Passed**", "1/5", "0/4"],
  ]);
  // Every mark but ✓ has a note: the message, and whether the run fails on it or it is a known finding.
  assert.deepEqual(board.match(/^\[\^\d+\]: .*$/gm), [
    "[^1]: unexpected TIMEOUT: no terminal event in 60s",
    "[^2]: images unsupported",
    "[^3]: binary absent",
    "[^4]: the optional behaviour is not offered",
    "[^5]: unexpected FAIL: tool\\_result before tool\\_call",
    "[^6]: unexpected ERROR: harness crashed",
    "[^7]: WARN: no retry event",
    "[^8]: known FAIL: known: retries silently",
  ]);
});

Deno.test("a known finding's note gives the expectation's reason; version headers are the version alone", () => {
  const input = report([
    result("gemini", "cli/mock-model/fault-http-500", "TIMEOUT", {
      expected: "TIMEOUT",
      message: "still running after 60606 ms",
      details: { expectationReason: "retries with backoff" },
    }),
  ], { hosts: [{ id: "gemini", kind: "cli", version: "gemini 0.9.1 (released 2026-09-23, 2mo ago)" }] });
  const board = renderBoardMarkdown(input);
  assert.deepEqual(table(board)[2], ["`cli/mock-model/fault-http-500`", "◷[^1]"]);
  assert.match(
    board,
    /^\[\^1\]: known TIMEOUT \(listed: retries with backoff\): still running after 60606 ms$/m,
  );
  assert.equal(table(board)[0]![1], "gemini 0.9.1");
});

Deno.test("an INFO gets its own mark, a footnote with its reason, and a legend entry", () => {
  const input = report([
    result("a", "apps/security/csp-no-unsafe-eval", "INFO", { message: "'unsafe-eval' is allowed" }),
    result("b", "apps/security/csp-no-unsafe-eval", "SKIP", { message: "live tier off" }),
    result("a", "apps/security/csp-base-uri", "INFO", { message: "'unsafe-eval' is allowed" }),
  ]);
  const board = renderBoardMarkdown(input);
  assert.deepEqual(table(board).slice(2), [
    ["`apps/security/csp-base-uri`", "i[^1]", ""],
    ["`apps/security/csp-no-unsafe-eval`", "i[^1]", "–[^2]"],
    ["**Passed**", "0/2", "0/1"],
  ]);
  assert.match(board, /^\[\^1\]: 'unsafe-eval' is allowed$/m);
  assert.match(board, /^\[\^2\]: live tier off$/m);
  assert.match(board, / i info \(a MAY not taken/);
});

Deno.test("a fault still retried visibly at the limit shows ↻, apart from a silent host's ✗, each noted", () => {
  const retrying =
    "still running at the 60000 ms limit, retrying visibly: 9 retry event(s) (delays 1000 ms, …)";
  const silent = "still running at the 60000 ms limit, silent: no terminal and no retry event in its stream";
  const input = report([
    result("claude", "cli/mock-model/fault-http-500", "WARN", {
      expected: "WARN",
      message: retrying,
      details: { faultHandling: "retrying-visibly" },
    }),
    result("cline", "cli/mock-model/fault-http-500", "FAIL", {
      expected: "FAIL",
      message: silent,
      details: { faultHandling: "silent" },
    }),
    result("codex", "cli/mock-model/fault-http-500", "PASS", { details: { faultHandling: "error-exit" } }),
    result("pi", "cli/mock-model/fault-http-500", "WARN", {
      expected: "WARN",
      message: "error terminal but exit code 0",
    }),
  ]);
  const board = renderBoardMarkdown(input);
  assert.deepEqual(table(board)[2], ["`cli/mock-model/fault-http-500`", "↻[^1]", "✗[^2]", "✓", "![^3]"]);
  assert.match(board, /^\[\^1\]: .*still running at the 60000 ms limit, retrying visibly: 9 retry event/m);
  assert.match(board, /^\[\^2\]: .*still running at the 60000 ms limit, silent/m);
  assert.match(board, / ↻ a model fault still retried at the limit, visibly/);
});

Deno.test("SKIP reasons become numbered footnotes, one per distinct reason", () => {
  const input = report([
    result("a", "t/1", "SKIP", { message: "binary absent" }),
    result("b", "t/1", "SKIP", { message: "live tier off" }),
    result("a", "t/2", "SKIP", { message: "binary absent" }),
    result("b", "t/2", "PASS"),
  ]);
  const board = renderBoardMarkdown(input);
  assert.deepEqual(table(board).slice(2, 4), [["`t/1`", "–[^1]", "–[^2]"], ["`t/2`", "–[^1]", "✓"]]);
  assert.match(board, /^\[\^1\]: binary absent$/m);
  assert.match(board, /^\[\^2\]: live tier off$/m);
  assert.doesNotMatch(board, /\[\^3\]/);
});

Deno.test("test-only hosts are left off the board, and the board says so", () => {
  const board = renderBoardMarkdown(mixedReport());
  assert.ok(!table(board)[0]!.includes("fake"));
  assert.ok(!board.includes("only-fake"), "tests only a test-only host ran do not appear");
  assert.match(board, /Left off by policy \(test-only hosts\): `fake`\./);
  // Footnote numbers count only reasons on the board: the fake host's skip reason adds none.
  assert.deepEqual(board.match(/^\[\^\d+\]: .*$/gm)?.slice(0, 4), [
    "[^1]: unexpected TIMEOUT: no terminal event in 60s",
    "[^2]: images unsupported",
    "[^3]: binary absent",
    "[^4]: the optional behaviour is not offered",
  ]);
});

Deno.test("a board of test-only hosts alone says there is no host on it", () => {
  const input = report([result("fake", "cli/a", "PASS")], {
    hosts: [{ id: "fake", kind: "cli", version: null, testOnly: true }],
  });
  const board = renderBoardMarkdown(input);
  assert.match(board, /No host on this board\./);
  assert.match(board, /Left off by policy \(test-only hosts\): `fake`\./);
  assert.deepEqual(table(board), []);
});

Deno.test("the board escapes markdown and HTML in ids and reasons", () => {
  const input = report([
    result("h|x", "cli/a|b`c", "SKIP", {
      message: "needs <script>alert(1)</script> *now* | [link](x)\nline 2",
    }),
  ]);
  const board = renderBoardMarkdown(input);
  assert.ok(!board.includes("<script>"));
  assert.equal(table(board)[0]![1], "h\\|x");
  assert.equal(table(board)[2]![0], "`cli/a¦b'c`");
  assert.match(
    board,
    /^\[\^1\]: needs &lt;script&gt;alert\(1\)&lt;\/script&gt; \\\*now\\\* \\\| \\\[link\\\]\(x\) line 2$/m,
  );
  assert.equal(escapeMarkdown("a_b~c\\d"), "a\\_b\\~c\\\\d");
});

Deno.test("the board marks an incomplete run", () => {
  const input = mixedReport();
  input.run.incomplete = true;
  assert.match(renderBoardMarkdown(input), /\*\*incomplete run: results are missing\*\*/);
});

Deno.test("the markdown reporter writes board.md, redacted", async () => {
  await using temp = await tempDir();
  const input = report([
    result("gemini", "cli/a", "SKIP", { message: "GEMINI key AIzaSyA1234567890abcdefghijklmnopqrstuvw" }),
  ]);
  await new MarkdownReporter({ outDir: temp.path, out: collector() }).finish(input);
  const board = await Deno.readTextFile(join(temp.path, "board.md"));
  assert.match(board, /^\[\^1\]: GEMINI key \\\[REDACTED\\\]$/m);
});

Deno.test("a board with hosts but no results says so", () => {
  const board = renderBoardMarkdown(report([], { hosts: [{ id: "gemini", kind: "cli", version: null }] }));
  assert.match(board, /No results for the hosts on this board\./);
});

Deno.test("the board names the tests an interrupt left without a result, on the hosts it shows", () => {
  const input = mixedReport();
  input.run.incomplete = true;
  input.run.interrupted = [
    { host: "codex", test: "cli/behavior/slow", started: true },
    { host: "codex", test: "cli/behavior/later", started: false },
    { host: "fake", test: "cli/behavior/hidden", started: true },
  ];
  const board = renderBoardMarkdown(input);
  assert.match(
    board,
    /^\*\*Interrupted:\*\* 2 test\(s\) have no result \(1 running when the run stopped, 1 not begun\); they are not judged: `cli\/behavior\/slow` on codex \(running\), `cli\/behavior\/later` on codex\.$/m,
  );
  assert.doesNotMatch(board, /hidden/, "a test-only host's interrupted test is on the board");
});
