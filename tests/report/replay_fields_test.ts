/**
 * What makes a failure replayable shows in every report: the test's title (JSON `title`, a JUnit testcase
 * property, the markdown board's footnotes, the HTML details, the pretty lines) and its artifacts (JSON
 * `details.artifacts`, relative to --out; JUnit properties; HTML links; the pretty reporter's
 * `artifacts:` line), with the rerun command under each result that needs attention. Old reports still load.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { attachArtifacts } from "../../cli/artifacts.ts";
import { renderHtml } from "../../src/report/html.ts";
import { serializeReport } from "../../src/report/json.ts";
import { renderJunit } from "../../src/report/junit.ts";
import { renderBoardMarkdown } from "../../src/report/markdown.ts";
import { PrettyReporter } from "../../src/report/pretty.ts";
import { parseReport } from "../../src/report/schema.ts";
import { collector, report, result } from "./_fixtures.ts";

const failing = result("reference", "apps/visibility/app-tool-hidden", "FAIL", {
  title: "An app-only tool is hidden from the model <b>",
  message: "the model saw it",
  details: { artifacts: ["reference-apps_visibility_app-tool-hidden.png", "reference-trace.zip"] },
});
const skipped = result("reference", "apps/theme/light-dark", "SKIP", { message: "no theme toggle" });
const sample = () => report([failing, skipped], { hosts: [{ id: "reference", kind: "web", version: null }] });

Deno.test("the title and artifacts survive the JSON report; a report without them still loads", () => {
  const back = parseReport(serializeReport(sample()), "report.json");
  assert.equal(back.results[0]!.title, failing.title);
  assert.deepEqual(back.results[0]!.details.artifacts, failing.details.artifacts);
  const old = sample();
  old.results = old.results.map(({ title: _title, ...rest }) => rest);
  assert.equal(parseReport(JSON.stringify(old), "old.json").results[0]!.title, undefined);
});

Deno.test("JUnit keeps the id as the name and gives the title and artifacts as testcase properties", () => {
  const xml = renderJunit(sample());
  assert.match(xml, /<testcase name="apps\/visibility\/app-tool-hidden"/);
  assert.match(xml, /<property name="title" value="An app-only tool is hidden from the model &lt;b&gt;"\/>/);
  assert.match(xml, /<property name="artifact" value="reference-trace.zip"\/>/);
  assert.doesNotMatch(
    xml,
    /light-dark"[^>]*>\s*<properties>/,
    "a result without title or artifacts has none",
  );
});

Deno.test("HTML shows the title escaped and links the artifacts relative to the report", () => {
  const html = renderHtml(sample());
  assert.match(html, /An app-only tool is hidden from the model &lt;b&gt;/);
  assert.match(html, /<a href="reference-trace.zip">reference-trace.zip<\/a>/);
  assert.match(html, /<a href="reference-apps_visibility_app-tool-hidden.png">/);
  const hostile = report([
    result("reference", "apps/x/y", "FAIL", {
      details: { artifacts: ["/etc/passwd", "javascript:alert(1)", "a b/c#d.png"] },
    }),
  ], { hosts: [{ id: "reference", kind: "web", version: null }] });
  const links = [...renderHtml(hostile).matchAll(/<a href="([^"]*)">/g)].map((m) => m[1]).filter((href) =>
    !href!.startsWith("#")
  );
  assert.deepEqual(links, ["a%20b/c%23d.png"], "only relative paths are linked, encoded");
});

Deno.test("the markdown board gives each titled test a footnote", () => {
  const board = renderBoardMarkdown(sample());
  assert.match(board, /\| `apps\/visibility\/app-tool-hidden`\[\^t2\] \|/);
  assert.match(board, /^\[\^t2\]: An app-only tool is hidden from the model &lt;b&gt;$/m);
  assert.match(board, /^\[\^1\]: no theme toggle$/m);
  assert.doesNotMatch(board, /light-dark`\[\^t/);
});

Deno.test("pretty prints the title, the rerun command and the artifacts under a result needing attention", async () => {
  const out = collector();
  const reporter = new PrettyReporter({
    out,
    isTTY: false,
    color: false,
    outDir: "out",
    rerun: (r) => `conformance run --host ${r.host} --grep '^${r.test}$'`,
  });
  const full = sample();
  reporter.start({ run: full.run, hosts: full.hosts, total: 2 });
  for (const r of full.results) reporter.result(r);
  await reporter.finish(full);
  const text = out.text();
  assert.match(text, /apps\/visibility\/app-tool-hidden · An app-only tool is hidden/);
  assert.match(
    text,
    /^ {4}rerun: conformance run --host reference --grep '\^apps\/visibility\/app-tool-hidden\$'$/m,
  );
  assert.match(
    text,
    /^ {4}artifacts: out\/reference-apps_visibility_app-tool-hidden.png, out\/reference-trace.zip$/m,
  );
  assert.equal(text.match(/rerun:/g)?.length, 1, "only the result that needs attention gets one");
});

Deno.test("attachArtifacts names screenshots and this run's traces of the result's host, relative to --out", async () => {
  const out = await Deno.makeTempDir({ prefix: "conformance-artifacts-" });
  try {
    const since = new Date();
    for (const name of ["reference-trace.zip", "reference-aside-trace.zip", "reference_csp-trace.zip"]) {
      await Deno.writeTextFile(join(out, name), "zip");
    }
    const results = [
      result("reference", "apps/a/b", "FAIL", {
        details: { screenshots: [join(out, "reference-apps_a_b.png")] },
      }),
      result("reference", "apps/a/c", "PASS"),
      result("reference:csp", "apps/a/b", "TIMEOUT"),
    ];
    const attached = await attachArtifacts(results, out, since);
    assert.deepEqual(attached[0]!.details.artifacts, [
      "reference-apps_a_b.png",
      "reference-aside-trace.zip",
      "reference-trace.zip",
    ]);
    assert.equal(attached[1]!.details.artifacts, undefined, "a passing result needs no evidence");
    assert.deepEqual(attached[2]!.details.artifacts, ["reference_csp-trace.zip"]);
    assert.deepEqual(await attachArtifacts([results[1]!], join(out, "absent"), since), [results[1]]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
