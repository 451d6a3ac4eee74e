/**
 * report.html as a reader meets it, in a real Chromium (src/runner/chromium.ts launches it in its own process
 * group): the page opens filtered to what needs attention, filters widen it, a `#id` link opens that result,
 * failing details are open and passing ones closed, titles and spec clauses show, artifacts saved in the
 * report folder are linked relative to the page, and the page's own CSP lets its script run without a single
 * console error or policy violation.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { HtmlReporter } from "../../src/report/html.ts";
import { launchChromium, NO_CHROMIUM } from "./_chromium.ts";
import { collector, report, result, tempDir } from "./_fixtures.ts";

const HIDDEN = "apps/visibility/app-tool-hidden";
const THEME = "apps/display/theme-follows-host";
const GONE = "apps/display/screenshot-lost";
const STREAMING = "cli/behavior/streaming";
const IMAGES = "cli/capabilities/images-positive";
const RETRY = "cli/scripted/retry";
const STREAM_DIR = "streams/codex/behavior-streaming";

/** A report with PASS, FAIL, TIMEOUT, SKIP and an expected FAIL, whose artifacts lie in the report folder. */
function mixedWithArtifacts() {
  return report([
    result("reference", HIDDEN, "FAIL", {
      title: "An app-only tool is absent from the model's tool list",
      message: "conformance_probe (app-only) is in the model's list",
      details: {
        clause: "MUST NOT",
        vantage: "host",
        artifacts: ["reference-trace.zip", "shots/reference-apps_visibility_app-tool-hidden.png"],
      },
    }),
    result("reference", THEME, "PASS", {
      title: "The View follows the host's theme",
      details: { clause: "SHOULD", vantage: "in-view" },
    }),
    result("reference", GONE, "FAIL", {
      title: "A screenshot that was not kept",
      message: "no screenshot",
      details: { clause: "MUST", artifacts: ["gone.png"] },
    }),
    result("codex", STREAMING, "TIMEOUT", {
      title: "The host follows the stream contract on the streaming path",
      message: "test did not finish within 60000 ms",
      durationMs: 60_000,
      details: { artifacts: [STREAM_DIR] },
    }),
    result("codex", IMAGES, "SKIP", { title: "Images reach the model", message: "images unsupported" }),
    result("codex", RETRY, "FAIL", {
      title: "A failed call is retried",
      expected: "FAIL",
      message: "known: retries silently",
    }),
  ], {
    hosts: [
      { id: "reference", kind: "web", version: "0.1.0" },
      { id: "codex", kind: "cli", version: null },
    ],
  });
}

async function writeArtifacts(dir: string): Promise<void> {
  await Deno.writeFile(join(dir, "reference-trace.zip"), new Uint8Array([0x50, 0x4b, 5, 6]));
  await Deno.mkdir(join(dir, "shots"));
  await Deno.writeFile(join(dir, "shots/reference-apps_visibility_app-tool-hidden.png"), new Uint8Array([1]));
  await Deno.mkdir(join(dir, STREAM_DIR), { recursive: true });
  await Deno.writeTextFile(join(dir, STREAM_DIR, "argv.json"), '["codex","exec"]\n');
  await Deno.writeTextFile(join(dir, STREAM_DIR, "stdout.jsonl"), '{"type":"start"}\n');
}

/** Console errors and warnings, uncaught errors and CSP violations, as lines. */
function watchProblems(page: Page): { problems: string[]; violations: () => Promise<string[]> } {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => void problems.push(error.message));
  return {
    problems,
    violations: () => page.evaluate(() => (window as { __violations?: string[] }).__violations ?? []),
  };
}

const RECORD_VIOLATIONS = () => {
  const seen: string[] = [];
  (window as { __violations?: string[] }).__violations = seen;
  document.addEventListener("securitypolicyviolation", (event) => {
    seen.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
};

/** `host status test` of every result the filters leave visible. */
function visibleResults(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("[data-result]")).filter((el) => !el.hidden)
      .map((el) => `${el.dataset.host} ${el.dataset.status} ${el.dataset.test}`)
  );
}

/** The `id` of the result element of (host, test). */
async function idOf(page: Page, host: string, test: string): Promise<string> {
  const id = await page.getAttribute(`[data-result][data-host="${host}"][data-test="${test}"]`, "id");
  assert.ok(id, `a result element for ${host} ${test}`);
  return id;
}

function isOpen(page: Page, id: string): Promise<boolean> {
  return page.evaluate((id) => (document.getElementById(id) as HTMLDetailsElement).open, id);
}

Deno.test({
  name: "report.html in Chromium: opens on the unexpected results, filters, #id links, details, artifacts",
  ignore: NO_CHROMIUM !== undefined,
  async fn() {
    await using temp = await tempDir();
    await writeArtifacts(temp.path);
    await new HtmlReporter({ outDir: temp.path, out: collector() }).finish(mixedWithArtifacts());
    const url = `file://${join(temp.path, "report.html")}`;
    await using chromium = await launchChromium();
    const context = await chromium.browser.newContext();
    await context.addInitScript(RECORD_VIOLATIONS);
    const page = await context.newPage();
    const watch = watchProblems(page);
    await page.goto(url);

    // Opens filtered to the unexpected results (the expected FAIL, the SKIP and the PASS are hidden).
    assert.equal(await page.isChecked("#attention"), true);
    assert.deepEqual((await visibleResults(page)).sort(), [
      `codex TIMEOUT ${STREAMING}`,
      `reference FAIL ${GONE}`,
      `reference FAIL ${HIDDEN}`,
    ]);
    assert.equal(await page.textContent("#shown"), "3");
    assert.equal(await page.isHidden(`#board tr[data-row]:has(code:text-is("${THEME}"))`), true);
    assert.equal(await page.isHidden(`#board tr[data-row]:has(code:text-is("${HIDDEN}"))`), false);

    // Unexpected details are open, the TIMEOUT's included, and it says what happened, with its saved stream.
    const timeout = await idOf(page, "codex", STREAMING);
    assert.equal(await isOpen(page, timeout), true);
    const timeoutText = await page.innerText(`#${timeout}`);
    assert.match(timeoutText, /test did not finish within 60000 ms/);
    assert.match(timeoutText, /Timed out after 1m00s/, "durations read as the terminal gives them");
    assert.equal(await page.isVisible(`#${timeout} a[href="${STREAM_DIR}/stdout.jsonl"]`), true);

    // Widening the filters shows everything; a PASS is collapsed.
    await page.uncheck("#attention");
    assert.equal((await visibleResults(page)).length, 6);
    assert.equal(await page.textContent("#shown"), "6");
    const pass = await idOf(page, "reference", THEME);
    assert.equal(await isOpen(page, pass), false, "PASS details are collapsed");
    assert.equal(
      await isOpen(page, await idOf(page, "codex", RETRY)),
      false,
      "an expected FAIL is collapsed",
    );
    await page.check("#attention");
    assert.equal((await visibleResults(page)).length, 3);
    await page.click("#show-all");
    assert.equal((await visibleResults(page)).length, 6);
    assert.equal(await page.isChecked("#attention"), false);

    // Titles and spec clauses are shown for every result that has them, and beside the board's tests.
    for (
      const [host, test, title, clause] of [
        ["reference", HIDDEN, "An app-only tool is absent from the model's tool list", "MUST NOT"],
        ["reference", THEME, "The View follows the host's theme", "SHOULD"],
        ["codex", STREAMING, "The host follows the stream contract on the streaming path", undefined],
      ] as const
    ) {
      const summary = await page.innerText(`#${await idOf(page, host, test)} > summary`);
      assert.ok(summary.includes(title), `${test}: title in "${summary}"`);
      if (clause) assert.ok(summary.includes(clause), `${test}: clause in "${summary}"`);
      const row = await page.innerText(`#board tr[data-row]:has(code:text-is("${test}")) th`);
      assert.ok(row.includes(title), `${test}: title on the board in "${row}"`);
      if (clause) assert.ok(row.includes(clause), `${test}: clause on the board in "${row}"`);
    }

    // Every artifact link resolves to a file or folder of the report folder; a lost one is named, not linked.
    const hrefs = await page.evaluate(() =>
      Array.from(document.querySelectorAll("a[href]")).map((a) => a.getAttribute("href")!)
        .filter((href) => !href.startsWith("#"))
    );
    assert.deepEqual(
      hrefs.sort(),
      [
        "reference-trace.zip",
        "shots/reference-apps_visibility_app-tool-hidden.png",
        `${STREAM_DIR}/`,
        `${STREAM_DIR}/argv.json`,
        `${STREAM_DIR}/stdout.jsonl`,
      ].sort(),
    );
    for (const href of hrefs) {
      const path = fileURLToPath(new URL(href, page.url()));
      assert.equal(dirname(path).startsWith(temp.path), true, href);
      await Deno.stat(path); // throws when the link leads nowhere
    }
    const lost = await page.innerText(`#${await idOf(page, "reference", GONE)}`);
    assert.match(lost, /gone\.png \(not in the report folder\)/);

    // A link to a result opens its details: a board cell, then a new `#id` while the filters hide the result.
    await page.click(`#board a[href="#${pass}"]`);
    assert.equal(await isOpen(page, pass), true);
    assert.equal(new URL(page.url()).hash, `#${pass}`);
    const skip = await idOf(page, "codex", IMAGES);
    await page.check("#attention");
    assert.equal(await page.isHidden(`#${skip}`), true);
    assert.equal(await isOpen(page, skip), false);
    await page.evaluate((id) => location.hash = `#${id}`, skip);
    await page.waitForFunction((id) => (document.getElementById(id) as HTMLDetailsElement).open, skip);
    assert.equal(await page.isVisible(`#${skip}`), true);
    assert.equal(await page.isChecked("#attention"), false, "the filters widened to show it");

    // So does opening the page at `#id`, in a fresh tab.
    const linked = await context.newPage();
    const linkedWatch = watchProblems(linked);
    await linked.goto(`${url}#${pass}`);
    assert.equal(await linked.isVisible(`#${pass}`), true);
    assert.equal(await isOpen(linked, pass), true);
    assert.equal(await isOpen(linked, await idOf(linked, "codex", RETRY)), false);

    assert.deepEqual([...watch.problems, ...linkedWatch.problems], [], "no console errors");
    assert.deepEqual(
      [...await watch.violations(), ...await linkedWatch.violations()],
      [],
      "no CSP violation",
    );
    // The watch is live: an inline script the page did not ship is refused by its CSP and reported.
    await page.evaluate(() => {
      const planted = document.createElement("script");
      planted.textContent = "window.__planted = 1";
      document.body.append(planted);
    });
    await page.waitForFunction(() => ((window as { __violations?: string[] }).__violations ?? []).length > 0);
    assert.equal(await page.evaluate(() => (window as { __planted?: number }).__planted), undefined);
    assert.match((await watch.violations()).join("\n"), /script-src/);
    await context.close();
  },
});

/** Serves `dir` on a loopback port, files only (a folder is 404, as on most static hosts). */
function serveFolder(dir: string): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    if (path.split("/").includes("..")) return new Response("no", { status: 400 });
    try {
      const body = await Deno.readFile(join(dir, path));
      const type = path.endsWith(".html") ? "text/html; charset=utf-8" : "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

Deno.test({
  name: "report.html served over loopback HTTP: the same page, no errors, and its artifact files are there",
  ignore: NO_CHROMIUM !== undefined,
  async fn() {
    await using temp = await tempDir();
    await writeArtifacts(temp.path);
    await new HtmlReporter({ outDir: temp.path, out: collector() }).finish(mixedWithArtifacts());
    await using server = serveFolder(temp.path);
    const url = `http://127.0.0.1:${server.addr.port}/report.html`;
    await using chromium = await launchChromium();
    const context = await chromium.browser.newContext();
    await context.addInitScript(RECORD_VIOLATIONS);
    const page = await context.newPage();
    const watch = watchProblems(page);
    const requests: string[] = [];
    page.on("request", (request) => void requests.push(request.url()));
    await page.goto(url);
    assert.deepEqual(requests, [url], "the page loads nothing besides itself");
    assert.equal(await page.isChecked("#attention"), true);
    assert.equal((await visibleResults(page)).length, 3);
    const files = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLAnchorElement>("a[href]"))
        .filter((a) => !a.getAttribute("href")!.startsWith("#") && !a.getAttribute("href")!.endsWith("/"))
        .map((a) => a.href)
    );
    assert.equal(files.length, 4);
    for (const file of files) {
      const response = await fetch(file);
      await response.body?.cancel();
      assert.equal(response.status, 200, file);
    }
    assert.deepEqual(watch.problems, [], "no console errors");
    assert.deepEqual(await watch.violations(), [], "no CSP violation");
    await context.close();
  },
});
