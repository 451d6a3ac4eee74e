import assert from "node:assert/strict";
import { join } from "node:path";
import { HtmlReporter, renderHtml } from "../../src/report/html.ts";
import { launchChromium, NO_CHROMIUM } from "./_chromium.ts";
import { collector, mixedReport, report, result, tempDir } from "./_fixtures.ts";

const XSS = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>"'&`;

function hostileReport() {
  const report = mixedReport();
  report.results[1]!.message = `bad ${XSS}`;
  report.results[1]!.details = { html: XSS };
  report.results.push(result("codex", `cli/scripted/${XSS}`, "PASS"));
  report.summary.passed++;
  return report;
}

Deno.test("report.html loads nothing from outside itself", () => {
  const html = renderHtml(hostileReport());
  assert.doesNotMatch(html, /<link\b|@import|url\(|<iframe|<object|<embed/i);
  const tags = html.replace(/"[^"]*"/g, '""'); // attribute values hold no raw quote: they are escaped
  assert.doesNotMatch(tags, /<[a-z]+\b[^>]*\ssrc=/i, "no element loads a source");
  for (const [, target] of html.matchAll(/href="([^"]*)"/g)) assert.match(target!, /^#r\d+$/);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
});

Deno.test("report.html escapes every value from the report", () => {
  const html = renderHtml(hostileReport());
  assert.ok(!html.includes("<img"), "markup from a message stays text");
  assert.equal(html.match(/<script>/g)?.length, 1, "the page's own script is the only one");
  assert.ok(html.includes("&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;"));
});

Deno.test("report.html is redacted", () => {
  const report = mixedReport();
  report.results[0]!.details = { request: "Cookie: sid=abc123" };
  report.run.command = "conformance run --reporter html # token sk-ant-abcdefghijklmnop";
  const html = renderHtml(report);
  assert.ok(html.includes("Cookie: sid=[REDACTED]"));
  assert.ok(!html.includes("sk-ant-"));
});

Deno.test({
  name: "report.html in a browser: no requests, no script injection, working filters and details",
  ignore: NO_CHROMIUM !== undefined,
  async fn() {
    await using temp = await tempDir();
    await new HtmlReporter({ outDir: temp.path, out: collector(), secrets: [] }).finish(hostileReport());
    const path = join(temp.path, "report.html");
    await using chromium = await launchChromium();
    const page = await chromium.browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => void requests.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => void problems.push(error.message));
    await page.goto(`file://${path}`);
    assert.deepEqual(requests, [`file://${path}`]);
    assert.deepEqual(problems, []);
    const loaders = await page.evaluate(() =>
      Array.from(document.querySelectorAll("[src], link, [href]:not(a[href^='#'])")).map((el) => el.outerHTML)
    );
    assert.deepEqual(loaders, [], "no element that loads or links anywhere");
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);

    const visible = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>("[data-result]"))
          .filter((el) => !el.hidden).map((el) => `${el.dataset.host} ${el.dataset.status}`)
      );
    // It opens on what needs attention; the rest is one box away.
    assert.equal((await visible()).length, 4);
    assert.equal(await page.textContent("#shown"), "4");
    await page.uncheck("#attention");
    assert.equal((await visible()).length, 12);
    assert.equal(await page.textContent("#shown"), "12");

    await page.uncheck('input[data-filter="status"][value="INFO"]');
    assert.deepEqual((await visible()).filter((v) => v.endsWith("INFO")), []);
    assert.equal((await visible()).length, 11);
    await page.check('input[data-filter="status"][value="INFO"]');
    assert.deepEqual((await visible()).filter((v) => v.endsWith("INFO")), ["claude-code INFO"]);

    await page.uncheck('input[data-filter="status"][value="PASS"]');
    assert.deepEqual((await visible()).filter((v) => v.endsWith("PASS")), []);
    assert.equal((await visible()).length, 9);
    assert.equal(await page.textContent("#shown"), "9");
    assert.equal(await page.isHidden('tr[data-row]:has(code:text-is("cli/behavior/plain"))'), false);

    await page.uncheck('input[data-filter="host"][value="codex"]');
    assert.deepEqual((await visible()).filter((v) => v.startsWith("codex")), []);
    assert.equal(await page.isHidden('#board th[data-col="codex"]'), true);
    assert.equal(await page.isHidden('#board th[data-col="claude-code"]'), false);

    await page.check('input[data-filter="status"][value="PASS"]');
    await page.check('input[data-filter="host"][value="codex"]');
    await page.check("#attention");
    assert.deepEqual((await visible()).sort(), [
      "claude-code FAIL",
      "codex ERROR",
      "codex TIMEOUT",
      "fake PASS",
    ]);

    await page.click('a[href="#r1"]');
    await page.click("#r1 > summary");
    const details = await page.textContent("#r1");
    assert.ok(details?.includes(`bad ${XSS}`), "the message shows as text, verbatim");
    assert.ok(details?.includes("Expected: PASS"));
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
  },
});

Deno.test("report.html counts INFO, can filter by it, and marks its cells i", () => {
  const html = renderHtml(mixedReport());
  assert.match(html, / 1 warned, 1 info, 3 skipped, /);
  assert.match(
    html,
    /<input type="checkbox" data-filter="status" value="INFO" checked> <span class="INFO">i<\/span> INFO/,
  );
  assert.match(html, /<td class="mark INFO" [^>]*data-status="INFO" data-verdict="expected"/);
});

Deno.test("an empty run still renders a page", () => {
  const html = renderHtml(report([], { hosts: [{ id: "gemini", kind: "cli", version: null }] }));
  assert.match(html, /<span id="shown">0<\/span> of 0 results shown/);
  assert.match(html, /<\/html>\n$/);
});

Deno.test("report.html opens filtered only when some result needs attention", () => {
  const calm = renderHtml(report([
    result("codex", "cli/behavior/plain", "PASS"),
    result("codex", "cli/scripted/retry", "FAIL", { expected: "FAIL", message: "known" }),
  ]));
  assert.match(calm, /<input type="checkbox" id="attention">/);
  assert.doesNotMatch(calm, /<details [^>]* open>/, "nothing unexpected, nothing opened");
  const html = renderHtml(mixedReport());
  assert.match(html, /<input type="checkbox" id="attention" checked> only unexpected .* \(4\)/);
  assert.equal(html.match(/<details [^>]* open>/g)?.length, 3, "the three unexpected results are open");
  assert.match(html, /<details id="r5" [^>]*data-status="TIMEOUT" [^>]* open>/);
});

Deno.test("report.html's policy runs its own script by hash, and nothing else inline", async () => {
  const html = renderHtml(mixedReport());
  const policy = html.match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)![1]!;
  const scriptSrc = policy.split(";").map((part) => part.trim()).find((part) =>
    part.startsWith("script-src")
  );
  const script = html.match(/<script>([\s\S]*)<\/script>/)![1]!;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  assert.equal(scriptSrc, `script-src 'sha256-${hash}'`);
});

Deno.test("report.html lists the tests an interrupt left without a result, escaped", () => {
  const input = report([result("codex", "cli/behavior/plain", "PASS")]);
  input.run.incomplete = true;
  input.run.interrupted = [{ host: "codex", test: "cli/behavior/<slow>", started: true }];
  const html = renderHtml(input);
  assert.match(
    html,
    /<details class="interrupted"><summary><span class="bad">interrupted<\/span>: 1 test\(s\) have no result \(1 running when the run stopped, 0 not begun\)/,
  );
  assert.match(
    html,
    /<li><code>cli\/behavior\/&lt;slow&gt;<\/code> on codex: interrupted while it ran<\/li>/,
  );
});
