/**
 * Host output quoted in a message reads the same in every report, escaped by each format once and no more: a
 * tool result that is JSON carrying a quoted path (the capability tier's "the tool result said …") came out
 * escaped two or three times (`\\\"`) and cut mid-path in the terminal, the HTML footnote, JUnit and the board.
 */
import assert from "node:assert/strict";
import { cutAtWord, quoteHostText, readableHostText } from "../../src/quote.ts";
import { renderHtml } from "../../src/report/html.ts";
import { serializeReport } from "../../src/report/json.ts";
import { renderJunit } from "../../src/report/junit.ts";
import { renderBoardMarkdown } from "../../src/report/markdown.ts";
import { PrettyReporter } from "../../src/report/pretty.ts";
import { collector, report, result } from "./_fixtures.ts";

const TOOL_RESULT = JSON.stringify({
  error:
    'Path not in workspace: Attempted path "/tmp/h/outside.txt" resolves outside the allowed workspace ' +
    "directories: /tmp/h/work",
});
const READABLE = 'error: Path not in workspace: Attempted path "/tmp/h/outside.txt" resolves outside';

Deno.test("a JSON tool result, even JSON-quoted again, reads as its text, cut at a word with a mark", () => {
  for (
    const text of [TOOL_RESULT, JSON.stringify(TOOL_RESULT), JSON.stringify(JSON.stringify(TOOL_RESULT))]
  ) {
    assert.ok(readableHostText(text).startsWith(READABLE), readableHostText(text));
  }
  const quoted = quoteHostText(TOOL_RESULT, 100);
  assert.equal(
    quoted,
    '“error: Path not in workspace: Attempted path "/tmp/h/outside.txt" resolves outside the allowed…”',
  );
  assert.equal(cutAtWord("abc def", 100), "abc def", "what fits stays whole");
  assert.equal(quoteHostText(["line one", "line\ttwo"]), "“line one ⏎ line two”");
});

Deno.test("the quote is escaped once by each format: terminal, JSON, JUnit, board, HTML", () => {
  const message = `a write outside the workspace root went through (the tool result said ${
    quoteHostText(TOOL_RESULT)
  })`;
  const input = report([
    result("gemini", "cli/capability-behavior/workspaceSandboxed-negative", "FAIL", { message }),
  ]);
  const out = collector();
  const pretty = new PrettyReporter({ out, isTTY: false, color: false });
  pretty.result(input.results[0]!);
  const formats = {
    terminal: out.text(),
    json: JSON.parse(serializeReport(input)).results[0].message as string,
    junit: renderJunit(input).replaceAll("&quot;", '"').replaceAll("&amp;", "&"),
    board: renderBoardMarkdown(input),
    html: renderHtml(input).replaceAll("&quot;", '"').replaceAll("&amp;", "&"),
  };
  for (const [format, text] of Object.entries(formats)) {
    assert.ok(text.includes(READABLE), `${format} shows the tool result as its text:\n${text.slice(0, 400)}`);
    assert.doesNotMatch(text, /\\"/, `${format} escapes no quote with a backslash`);
  }
  assert.equal(formats.json, message, "the JSON report keeps the message as it is");
});
