/**
 * The launch vocabulary's step runner against a small page served on loopback: a switch whose input is
 * covered by its track (as the MCP Inspector's connect switch), a tool picker, an arguments box, a composer and
 * a button that shows only after connecting. Every step kind, the options, and the failure messages.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type LaunchStep, LaunchSteps, runSteps } from "../../src/runner/launch_steps.ts";
import { chromiumPath, launchChromium } from "../../src/runner/chromium.ts";

const PAGE = `<!doctype html><title>launcher</title>
<style>
  label.switch { position: relative; display: inline-block; width: 40px; height: 20px }
  label.switch input { position: absolute; inset: 0; margin: 0 }
  label.switch .track { position: absolute; inset: 0; background: #888 }
</style>
<label class="switch"><input type="checkbox" role="switch" id="connect"><span class="track"></span></label>
<span id="state">Disconnected</span>
<select id="tool"><option value="">pick one</option><option>run_conformance</option><option>other</option></select>
<textarea name="args"></textarea>
<input id="composer">
<button id="open" hidden>Open App</button>
<section class="panel"><button class="close">Close</button><div><iframe id="view-a" srcdoc="A"></iframe></div></section>
<section class="panel"><button class="close">Close</button><div><iframe id="view-b" srcdoc="B"></iframe></div></section>
<ol id="log"></ol>
<script>
  const log = (text) => { const item = document.createElement("li"); item.textContent = text; document.getElementById("log").append(item); };
  document.getElementById("connect").addEventListener("change", (event) => {
    const on = event.target.checked;
    document.getElementById("state").textContent = on ? "Connected" : "Disconnected";
    document.getElementById("open").hidden = !on;
    log(on ? "connected" : "disconnected");
  });
  document.getElementById("tool").addEventListener("change", (event) => log("tool " + event.target.value));
  document.getElementById("composer").addEventListener("keydown", (event) => {
    if (event.key === "Enter") log("sent " + event.target.value);
  });
  document.querySelectorAll(".panel").forEach((panel, index) =>
    panel.querySelector(".close").addEventListener("click", () => log("close " + "AB"[index])));
  document.getElementById("open").addEventListener("click", () =>
    log("open " + document.getElementById("tool").value + " " + document.querySelector("textarea").value));
</script>`;

async function withPage(fn: (page: Page) => Promise<void>): Promise<void> {
  const abort = new AbortController();
  const { promise: listening, resolve } = Promise.withResolvers<number>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: abort.signal, onListen: ({ port }) => resolve(port) },
    () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  const port = await listening;
  await using browser = await launchChromium();
  try {
    const page = await browser.browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await fn(page);
  } finally {
    abort.abort();
    await server.finished;
  }
}

const OPTIONS = { timeoutMultiplier: 1, signal: new AbortController().signal, what: "launch" };

function steps(value: unknown): LaunchStep[] {
  return LaunchSteps.parse(value);
}

async function logOf(page: Page): Promise<string[]> {
  return await page.locator("#log li").allTextContents();
}

const LAUNCH = steps([
  // Quoted: Playwright's bare text=Connected is a case-insensitive substring match, so "Disconnected" matches.
  { click: "[role=switch]", force: true, unless: "text='Connected'" },
  { select: "#tool", option: "{launcher}" },
  { fill: "textarea[name=args]", text: '{"marker": "{launcher}"}' },
  { click: "#banner-close", optional: true, timeoutMs: 200 },
  { click: "role=button[name='Open App']" },
]);

const browserTest = { ignore: chromiumPath() === null, sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    "launch steps click a covered switch with force, select, fill, pass an absent optional step and press the button",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      await runSteps(page, LAUNCH, { launcher: "run_conformance" }, OPTIONS);
      assert.deepEqual(await logOf(page), [
        "connected",
        "tool run_conformance",
        'open run_conformance {"marker": "run_conformance"}',
      ]);
    }),
});

Deno.test({
  name:
    "a second launch starts from the state the first left: unless skips the switch (a click would disconnect)",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      await runSteps(page, LAUNCH, { launcher: "run_conformance" }, OPTIONS);
      await runSteps(page, LAUNCH, { launcher: "other" }, OPTIONS);
      const log = await logOf(page);
      assert.equal(log.filter((line) => line === "connected").length, 1, log.join("; "));
      assert.ok(!log.includes("disconnected"), log.join("; "));
      assert.equal(log.at(-1), 'open other {"marker": "other"}');
    }),
});

Deno.test({
  name: "a covered switch clicked without force fails naming the step and suggesting force: true",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      await assert.rejects(
        runSteps(
          page,
          steps([{ waitFor: "#tool" }, { click: "[role=switch]", timeoutMs: 1_500 }]),
          {},
          OPTIONS,
        ),
        (error: Error) => {
          assert.match(error.message, /^launch step 2 \(click "\[role=switch\]"\) failed: /);
          assert.match(error.message, /add force: true to the step$/);
          return true;
        },
      );
    }),
});

Deno.test({
  name: "press sends a key on a selector or to the page",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      await runSteps(
        page,
        steps([{ fill: "#composer", text: "Call {launcher}" }, { press: "Enter", on: "#composer" }]),
        { launcher: "run_conformance" },
        OPTIONS,
      );
      await runSteps(page, steps([{ click: "#composer" }, { press: "Enter" }]), {}, OPTIONS);
      assert.deepEqual(await logOf(page), ["sent Call run_conformance", "sent Call run_conformance"]);
    }),
});

Deno.test({
  name: "a step that finds nothing names its number, kind and selector and how long it waited",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      const list = steps([{ waitFor: "#tool" }, {
        waitFor: "text='{launcher}' >> visible=true",
        timeoutMs: 500,
      }]);
      await assert.rejects(
        runSteps(page, list, { launcher: "run_nothing" }, { ...OPTIONS, what: "teardown" }),
        (error: Error) => {
          assert.equal(
            error.message,
            `teardown step 2 (waitFor "text='run_nothing' >> visible=true") found nothing within 0.5 s`,
          );
          return true;
        },
      );
      // The multiplier scales the wait (and the message says so).
      await assert.rejects(
        runSteps(page, steps([{ click: "#never", timeoutMs: 300 }]), {}, {
          ...OPTIONS,
          timeoutMultiplier: 2,
        }),
        /^Error: launch step 1 \(click "#never"\) found nothing within 0\.6 s$/,
      );
      // The hidden "Open App" button is absent for a step that needs it visible.
      await assert.rejects(
        runSteps(page, steps([{ click: "#open", timeoutMs: 200 }]), {}, OPTIONS),
        /launch step 1 \(click "#open"\) found nothing within 0\.2 s/,
      );
    }),
});

Deno.test({
  name: "a step with a placeholder that has no value, or a run already aborted, stops before acting",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      await assert.rejects(
        runSteps(page, steps([{ fill: "#composer", text: "{serverUrl}" }]), { launcher: "x" }, OPTIONS),
        /launch step 1 uses \{serverUrl\}, which has no value here: give the host a "server:"/,
      );
      const aborted = new AbortController();
      aborted.abort();
      await assert.rejects(
        runSteps(page, steps([{ click: "#composer" }]), {}, { ...OPTIONS, signal: aborted.signal }),
        /launch stopped before step 1: the run was aborted/,
      );
      assert.deepEqual(await logOf(page), []);
    }),
});

Deno.test({
  name:
    "an ofView step acts on the View's own panel when several Views are on the page; without it, the first",
  ...browserTest,
  fn: () =>
    withPage(async (page) => {
      const close = steps([{ click: "role=button[name='Close']", ofView: true }]);
      const teardown = { ...OPTIONS, what: "teardown" };
      await runSteps(page, close, {}, { ...teardown, view: () => page.$("#view-b") });
      await runSteps(page, close, {}, { ...teardown, view: () => page.$("#view-a") });
      await runSteps(page, steps([{ click: "role=button[name='Close']" }]), {}, teardown);
      assert.deepEqual(await logOf(page), ["close B", "close A", "close A"]);
      await assert.rejects(
        runSteps(page, close, {}, { ...teardown, view: () => Promise.resolve(null) }),
        /^Error: teardown step 1 \(click "role=button\[name='Close'\]"\) acts on the View's panel \(ofView\), but no View is rendered$/,
      );
      await assert.rejects(
        runSteps(page, steps([{ click: "#never", ofView: true, timeoutMs: 300 }]), {}, {
          ...teardown,
          view: () => page.$("#view-a"),
        }),
        /^Error: teardown step 1 \(click "#never"\) found nothing around the View's frame within 0\.3 s$/,
      );
    }),
});
