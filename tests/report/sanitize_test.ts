import assert from "node:assert/strict";
import { renderHtml } from "../../src/report/html.ts";
import { serializeReport } from "../../src/report/json.ts";
import { renderJunit } from "../../src/report/junit.ts";
import { renderBoardMarkdown } from "../../src/report/markdown.ts";
import { PrettyReporter } from "../../src/report/pretty.ts";
import { stripControls } from "../../src/report/sanitize.ts";
import { collector, report, result } from "./_fixtures.ts";

/** Rows: input, default (multi-line) output, single-line output. */
const CASES: readonly (readonly [string, string, string])[] = [
  ["plain text", "plain text", "plain text"],
  ["\x1b]0;PWNED\x07title", "␛title", "␛title"],
  ["\x1b]0;PWNED\x1b\\st-ended", "␛st-ended", "␛st-ended"],
  ["\x1b[2J\x1b[1;31mred\x1b[0m", "␛␛red␛", "␛␛red␛"],
  ["\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "␛click␛", "␛click␛"],
  ["\x9b31m8-bit\x85\x9d0;t\x07", "␛8-bit␛␛", "␛8-bit␛␛"],
  ["lone \x1b", "lone ␛", "lone ␛"],
  ["\x1bPdcs payload\x1b\\after", "␛after", "␛after"],
  ["bell\x07 back\x08 cr\r del\x7f nul\x00", "bell␇ back␈ cr␍ del␡ nul␀", "bell␇ back␈ cr␍ del␡ nul␀"],
  ["a\n\tb\r\nc", "a\n\tb\nc", "a␊␉b␍␊c"],
];

Deno.test("stripControls marks every escape sequence and control, keeping line breaks unless one line", () => {
  for (const [index, [input, multi, single]] of CASES.entries()) {
    assert.equal(stripControls(input), multi, `row ${index} ${JSON.stringify(input)}`);
    assert.equal(stripControls(input, { singleLine: true }), single, `row ${index} single line`);
    assert.equal(stripControls(multi), multi, `row ${index} is idempotent`);
  }
});

// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x07\x1b\u0080-\u009f]/;
const HOSTILE =
  "boom \x1b]0;PWNED\x07\x1b[2J\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\ \x9b31m\x85 " +
  "sk-ant-api03-abcdefghijklmnop ghp_abcdefghijklmnopqrstuvwxyz0123";

function hostileReport() {
  const results = [
    result("evil", "cli/behavior/streaming", "FAIL", {
      message: HOSTILE,
      title: HOSTILE,
      details: { stderr: `${HOSTILE}\n${HOSTILE}`, unparsed: [HOSTILE] },
    }),
  ];
  return report(results, { hosts: [{ id: "evil", kind: "cli", version: HOSTILE }] });
}

Deno.test("no report format carries a raw control or a secret from a host's text, its version included", async () => {
  const planted = hostileReport();
  const out = collector();
  const pretty = new PrettyReporter({ out, secrets: [], isTTY: false, color: false });
  pretty.start({ run: planted.run, hosts: planted.hosts, total: 1 });
  pretty.result(planted.results[0]!);
  await pretty.finish(planted);
  const rendered = {
    pretty: out.text(),
    json: serializeReport(planted),
    junit: renderJunit(planted),
    markdown: renderBoardMarkdown(planted),
    html: renderHtml(planted),
  };
  for (const [format, text] of Object.entries(rendered)) {
    const raw = RAW_CONTROL.exec(text);
    assert.equal(
      raw,
      null,
      `${format}: raw ${JSON.stringify(raw?.[0])} in ${JSON.stringify(text.slice(0, 400))}`,
    );
    assert.ok(!text.includes("abcdefghijklmnop"), `${format} carries a secret`);
  }
  assert.match(rendered.pretty, /boom ␛␛␛link␛ ␛␛ \[REDACTED\]/, "pretty shows the message, marked");
  assert.match(rendered.html, /boom ␛␛␛link␛/, "html shows the message, marked");
  assert.deepEqual(
    JSON.parse(rendered.json).results[0].details.unparsed[0].slice(0, 7),
    "boom \x1b]",
    "json is lossless",
  );
});
