/**
 * The report.html of a real run, through the real `conformance` command: a config-file CLI host whose stream
 * breaks the contract fails cli/behavior/streaming, the run saves that stream under `--out`, and the page,
 * opened in Chromium, opens filtered to the failure, its details open, the saved stream's files linked.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runHarness } from "../robustness/_harness.ts";
import { launchChromium, NO_CHROMIUM } from "./_chromium.ts";
import { tempDir } from "./_fixtures.ts";

const TEST = "cli/behavior/streaming";

async function plantBrokenHost(dir: string): Promise<{ host: string; config: string }> {
  const host = join(dir, "broken-agent.sh");
  // An init, a line that is not JSON, exit 3: cli/behavior/streaming FAILs on it.
  await Deno.writeTextFile(
    host,
    [
      "#!/bin/sh",
      `echo '{"type":"system","subtype":"init","model":"m","session_id":"s"}'`,
      "echo 'not json at all'",
      "exit 3",
      "",
    ].join("\n"),
  );
  await Deno.chmod(host, 0o755);
  const config = join(dir, "broken.yaml");
  await Deno.writeTextFile(
    config,
    [
      "hosts:",
      "  - id: broken-agent",
      "    kind: cli",
      `    binary: ${JSON.stringify(host)}`,
      "    dialect: claude",
      "    paths:",
      '      streaming: ["-p", "{prompt}"]',
      "",
    ].join("\n"),
  );
  return { host, config };
}

Deno.test({
  name: "a real run's report.html opens on its failure, with the saved stream's files linked",
  ignore: NO_CHROMIUM !== undefined,
  async fn() {
    await using temp = await tempDir();
    const { host, config } = await plantBrokenHost(temp.path);
    const out = join(temp.path, "out");
    const run = await runHarness(
      ["run", "--host", "broken-agent", "--config", config, "--live", "--reporter", "html", "--out", out],
      { alsoRun: [host], env: { NO_COLOR: "1" } },
    );
    assert.equal(run.code, 1, run.stderr);

    await using chromium = await launchChromium();
    const context = await chromium.browser.newContext();
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as { __violations?: string[] }).__violations = seen;
      document.addEventListener(
        "securitypolicyviolation",
        (event) => void seen.push(event.violatedDirective),
      );
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => void problems.push(error.message));
    await page.goto(`file://${join(out, "report.html")}`);

    const visible = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLDetailsElement>("[data-result]")).filter((el) => !el.hidden)
        .map((el) => ({ test: el.dataset.test, verdict: el.dataset.verdict, open: el.open, id: el.id }))
    );
    const failure = visible.find((result) => result.test === TEST);
    assert.ok(failure, `${TEST} is shown: ${JSON.stringify(visible)}`);
    assert.ok(visible.every((result) => result.verdict !== "expected"), "only what needs attention shows");
    assert.equal(failure.open, true);
    const summary = await page.innerText(`#${failure.id} > summary`);
    assert.match(summary, /The host follows the stream contract on the streaming path/);

    const links = await page.evaluate(
      (id) =>
        Array.from(document.querySelectorAll<HTMLAnchorElement>(`#${id} ul.artifacts a`))
          .map((a) => ({ href: a.getAttribute("href")!, url: a.href, shown: a.checkVisibility() })),
      failure.id,
    );
    const folder = "streams/broken-agent/behavior-streaming/";
    const files = ["argv.json", "meta.json", "stderr.txt", "stdout.jsonl"].map((file) => folder + file);
    assert.deepEqual(links.map((link) => link.href), [folder, ...files]);
    for (const link of links) {
      assert.equal(link.shown, true, link.href);
      await Deno.stat(fileURLToPath(link.url)); // throws when the link leads nowhere
    }
    assert.deepEqual(problems, [], "no console errors");
    assert.deepEqual(
      await page.evaluate(() => (window as { __violations?: string[] }).__violations),
      [],
      "no CSP violation",
    );
    await context.close();
  },
});
