/**
 * A web host's evidence, end to end through the real `conformance` command: a manual MCP Apps test that the
 * broken reference variant `reference:download-error` breaks (a WARN: it rejects every download it
 * advertises) keeps a screenshot and, with --trace on-failure, the host's trace; both are named in the
 * terminal, listed in the JSON result's `details.artifacts` (relative to --out) and linked from the HTML.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { parseReport } from "../../src/report/schema.ts";
import { spawnHarness } from "../robustness/_harness.ts";

Deno.test({
  name: "a manual apps test the host breaks keeps its screenshot and trace: named, listed and linked",
  ignore: chromiumPath() === null,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "conformance-web-evidence-" });
    try {
      await using harness = spawnHarness([
        "run",
        "--host",
        "reference:download-error",
        "--grep",
        "^apps/download-file/confirm$",
        "--trace",
        "on-failure",
        "--reporter",
        "pretty",
        "--reporter",
        "json",
        "--reporter",
        "html",
        "--out",
        out,
      ]);
      const exit = await harness.done;
      assert.equal(exit.code, 0, exit.stderr);
      const report = parseReport(await Deno.readTextFile(join(out, "report.json")), "report.json");
      const [result] = report.results;
      assert.equal(result?.status, "WARN", result?.message);
      assert.equal(result.title, "ui/download-file downloads the file under its sanitized name");
      const artifacts = [
        "reference_download-error-apps_download-file_confirm.png",
        "reference_download-error-trace.zip",
      ];
      assert.deepEqual(result.details.artifacts, artifacts);
      for (const artifact of artifacts) {
        assert.ok((await Deno.stat(join(out, artifact))).size > 0, artifact);
        assert.ok(exit.stdout.includes(join(out, artifact)), `the terminal names ${artifact}`);
      }
      const html = await Deno.readTextFile(join(out, "report.html"));
      for (const artifact of artifacts) assert.ok(html.includes(`<a href="${artifact}">`), artifact);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
