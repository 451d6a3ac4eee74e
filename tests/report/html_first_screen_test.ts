/**
 * The first screen of a real run's report.html, in Chromium: a run with one unexpected failure and one known
 * one (listed with its reason in an expectations file) opens on the verdict, then the unexpected result with
 * its message, then the known finding with its message and reason, all above the fold of a 1280×800 window.
 * The screenshot of that screen is kept in dist/report-first-screen.png for a person to look at.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runHarness } from "../robustness/_harness.ts";
import { OK_STREAM, plantCliHost } from "../cli/_planted_host.ts";
import { launchChromium, NO_CHROMIUM } from "./_chromium.ts";

const SCREENSHOT = new URL("../../dist/report-first-screen.png", import.meta.url);
const VIEWPORT = { width: 1280, height: 800 };

Deno.test({
  name:
    "report.html's first screen: the verdict, the unexpected result and its message, the known one's reason",
  ignore: NO_CHROMIUM !== undefined,
  async fn() {
    await using host = await plantCliHost({
      id: "triage-agent",
      prefix: "conformance-first-screen-",
      // The version check fails (known, listed below); the streaming run ends its stream well and exits 3.
      script: () => [
        'if [ "$1" = "--version" ]; then echo "no version here" >&2; exit 1; fi',
        ...OK_STREAM.map((line) => `echo '${line}'`),
        "exit 3",
      ],
    });
    const expectations = join(host.dir, "triage-agent.expectations.yaml");
    await Deno.writeTextFile(
      expectations,
      [
        "schema: conformance-expectations/1",
        "host: triage-agent",
        "tests:",
        "  cli/behavior/version-check:",
        "    status: FAIL",
        '    reason: "prints its version on stderr and exits 1; fixed in the next release"',
        "",
      ].join("\n"),
    );
    const out = join(host.dir, "reports");
    const run = await runHarness(
      [
        "run",
        "--config",
        host.config,
        "--host",
        "triage-agent",
        "--live",
        "--tier",
        "behavior",
        "--expectations",
        expectations,
        "--reporter",
        "pretty",
        "--reporter",
        "html",
        "--out",
        out,
      ],
      { alsoRun: [join(host.dir, "triage-agent")] },
    );
    assert.equal(run.code, 1, run.stderr);

    await using chromium = await launchChromium();
    const page = await chromium.browser.newPage({ viewport: VIEWPORT });
    await page.goto(`file://${join(out, "report.html")}`);
    await Deno.mkdir(new URL(".", SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT.pathname });

    const onFirstScreen = async (selector: string) => {
      const box = await page.locator(selector).first().boundingBox();
      assert.ok(box !== null, `${selector} is shown`);
      assert.ok(box.y >= 0 && box.y + box.height <= VIEWPORT.height, `${selector} is on the first screen`);
    };
    assert.equal(
      (await page.innerText("#verdict strong")).trim(),
      "1 unexpected result: the run fails",
    );
    await onFirstScreen("#verdict");
    await onFirstScreen("#unexpected .item");
    const unexpected = await page.innerText("#unexpected .item");
    assert.match(unexpected, /✗ FAIL triage-agent cli\/behavior\/streaming/);
    assert.match(unexpected, /exit code 3, expected 0/);
    assert.match(unexpected, /FAIL where PASS is expected \(nothing is listed\)/);
    await onFirstScreen("#unexpected .item pre.message");
    await onFirstScreen("#known .item");
    const known = await page.innerText("#known .item");
    assert.match(known, /cli\/behavior\/version-check/);
    assert.match(
      known,
      /Listed because: prints its version on stderr and exits 1; fixed in the next release/,
    );
    // The unexpected comes before the known, and both before the board.
    const order = await page.evaluate(() =>
      ["#verdict", "#unexpected", "#known", "#board"].map((selector) =>
        document.querySelector(selector)!.getBoundingClientRect().top
      )
    );
    assert.deepEqual([...order].sort((a, b) => a - b), order);
    // The unexpected result's row, open below, holds the command that reruns it, as the terminal printed it.
    const row = await page.innerText('[data-result][data-test="cli/behavior/streaming"]');
    const printed = /^\s+rerun: (.*)$/m.exec(run.stdout)?.[1];
    assert.ok(printed, run.stdout);
    assert.ok(row.includes(`Rerun it:\n\n${printed}`) || row.includes(printed), row);
    const png = await Deno.readFile(SCREENSHOT);
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "the screenshot is a PNG");
  },
});
