import assert from "node:assert/strict";
import {
  buildSuiteHtml,
  escapeScriptClose,
  loadSuiteHtml,
  PREBUILT_SUITE_URL,
  prebuiltIsFresh,
  suiteDocument,
} from "../../../suite/apps/build.ts";
import { SUITE_CONFIG_ELEMENT_ID, withSuiteConfig } from "../../../src/fixtures.ts";

Deno.test("escapeScriptClose escapes every </script, whatever its case", () => {
  assert.equal(escapeScriptClose('a="</script>";b="</SCRIPT "'), 'a="<\\/script>";b="<\\/SCRIPT "');
  const doc = suiteDocument('x("</script>")');
  assert.equal(doc.match(/<\/script>/g)?.length, 2, "the config element's and the bundle's own closing tags");
});

Deno.test("buildSuiteHtml bundles the suite into one self-contained document with an empty config", async () => {
  const html = await buildSuiteHtml();
  assert.ok(html.startsWith("<!doctype html>"));
  assert.ok(html.length > 100_000, `suspiciously small bundle: ${html.length} bytes`);
  assert.doesNotMatch(html, /<script[^>]+src=/, "no external scripts");
  assert.equal(html.match(/<\/script/gi)?.length, 2);
  assert.ok(html.includes("__mcpConformance"), "the channel name is in the bundle");
  const configured = withSuiteConfig(html, {
    launcher: "run_conformance_nocsp",
    resourceUri: "ui://conformance/runner-nocsp",
    controls: { declared: "http://127.0.0.1:1", undeclared: "http://127.0.0.1:2" },
  });
  assert.ok(configured.includes(`id="${SUITE_CONFIG_ELEMENT_ID}" type="application/json">{"launcher"`));
});

Deno.test("loadSuiteHtml uses dist/suite_apps.html only while it is newer than every suite source", async () => {
  const html = await buildSuiteHtml();
  await Deno.mkdir(new URL(".", PREBUILT_SUITE_URL), { recursive: true });
  await Deno.writeTextFile(PREBUILT_SUITE_URL, html);
  assert.equal(await prebuiltIsFresh(), true);
  assert.equal(await loadSuiteHtml(), html);
  await Deno.utime(PREBUILT_SUITE_URL, 0, 0);
  try {
    assert.equal(await prebuiltIsFresh(), false, "a copy older than the sources is stale");
  } finally {
    const now = new Date();
    await Deno.utime(PREBUILT_SUITE_URL, now, now);
  }
});
