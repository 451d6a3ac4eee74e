import assert from "node:assert/strict";
import { join } from "node:path";
import { JunitReporter, renderJunit } from "../../src/report/junit.ts";
import { collector, mixedReport, report, result, tempDir } from "./_fixtures.ts";
import type { Page } from "playwright-core";
import { launchChromium, NO_CHROMIUM } from "./_chromium.ts";

interface ParsedCase {
  name: string;
  classname: string;
  time: string;
  outcome: { tag: string; message: string | null; type: string | null; text: string } | null;
  systemOut: string | null;
}
interface ParsedSuite {
  attrs: Record<string, string>;
  properties: Record<string, string>;
  cases: ParsedCase[];
}
type Parsed = { error: string } | { root: string; attrs: Record<string, string>; suites: ParsedSuite[] };

/** Parses JUnit XML with Chromium's strict XML parser and returns its structure. */
async function parseXml(page: Page, xml: string): Promise<Parsed> {
  return await page.evaluate((text: string): Parsed => {
    const doc = new DOMParser().parseFromString(text, "application/xml");
    const error = doc.querySelector("parsererror");
    if (error) return { error: error.textContent ?? "parse error" };
    const attrs = (el: Element) =>
      Object.fromEntries(Array.from(el.attributes).map((a) => [a.name, a.value]));
    const root = doc.documentElement;
    return {
      root: root.tagName,
      attrs: attrs(root),
      suites: Array.from(root.children).map((suite) => ({
        attrs: attrs(suite),
        properties: Object.fromEntries(
          Array.from(suite.querySelectorAll(":scope > properties > property")).map((p) => [
            p.getAttribute("name") ?? "",
            p.getAttribute("value") ?? "",
          ]),
        ),
        cases: Array.from(suite.querySelectorAll(":scope > testcase")).map((tc) => {
          const outcome = tc.querySelector(":scope > failure, :scope > error, :scope > skipped");
          return {
            name: tc.getAttribute("name") ?? "",
            classname: tc.getAttribute("classname") ?? "",
            time: tc.getAttribute("time") ?? "",
            outcome: outcome
              ? {
                tag: outcome.tagName,
                message: outcome.getAttribute("message"),
                type: outcome.getAttribute("type"),
                text: outcome.textContent ?? "",
              }
              : null,
            systemOut: tc.querySelector(":scope > system-out")?.textContent ?? null,
          };
        }),
      })),
    };
  }, xml);
}

function parsed(value: Parsed) {
  if ("error" in value) assert.fail(`not well-formed XML: ${value.error}`);
  return value;
}

Deno.test({
  name: "junit.xml parsed back by Chromium's XML parser",
  ignore: NO_CHROMIUM !== undefined,
  async fn(t) {
    await using chromium = await launchChromium();
    const page = await chromium.browser.newPage();

    await t.step("one testsuite per host, outcomes as the run judges them", async () => {
      await using temp = await tempDir();
      const input = mixedReport();
      await new JunitReporter({ outDir: temp.path, out: collector(), secrets: [] }).finish(input);
      const xml = parsed(await parseXml(page, await Deno.readTextFile(join(temp.path, "junit.xml"))));
      assert.equal(xml.root, "testsuites");
      assert.deepEqual(xml.suites.map((s) => s.attrs.name), ["claude-code", "codex", "fake"]);
      assert.deepEqual(
        {
          tests: xml.attrs.tests,
          failures: xml.attrs.failures,
          errors: xml.attrs.errors,
          skipped: xml.attrs.skipped,
        },
        { tests: "11", failures: "3", errors: "1", skipped: "4" },
      );
      const [claude, codex, fake] = xml.suites as [ParsedSuite, ParsedSuite, ParsedSuite];
      assert.equal(claude.properties["host.version"], "1.2.3");
      assert.equal(claude.properties["suite.revision"], "2026.11.30");
      assert.equal(fake.properties["host.testOnly"], "true");
      for (const suite of xml.suites) {
        const count = (tag: string) => suite.cases.filter((c) => c.outcome?.tag === tag).length;
        assert.equal(suite.attrs.tests, String(suite.cases.length));
        assert.equal(suite.attrs.failures, String(count("failure")));
        assert.equal(suite.attrs.errors, String(count("error")));
        assert.equal(suite.attrs.skipped, String(count("skipped")));
      }
      const byName = (suite: ParsedSuite, name: string) => suite.cases.find((c) => c.name === name)!;
      assert.equal(byName(claude, "cli/behavior/plain").outcome, null);
      assert.equal(byName(claude, "cli/behavior/plain").classname, "claude-code.cli.behavior");
      assert.equal(byName(claude, "cli/behavior/plain").time, "0.010");
      assert.deepEqual(byName(claude, "cli/scripted/ordering").outcome, {
        tag: "failure",
        message: "FAIL: tool_result before tool_call",
        type: "FAIL",
        text: "tool_result before tool_call",
      });
      assert.equal(byName(claude, "cli/scripted/retry").outcome, null, "a WARN passes");
      assert.equal(byName(claude, "cli/scripted/retry").systemOut, "WARN: no retry event");
      assert.equal(byName(claude, "cli/scripted/optional").outcome, null, "an INFO passes and is no skip");
      assert.equal(
        byName(claude, "cli/scripted/optional").systemOut,
        "INFO: the optional behaviour is not offered",
      );
      assert.deepEqual(byName(claude, "cli/capabilities/images-positive").outcome, {
        tag: "skipped",
        message: "images unsupported",
        type: null,
        text: "",
      });
      assert.equal(byName(codex, "cli/behavior/plain").outcome?.type, "TIMEOUT");
      assert.equal(byName(codex, "cli/scripted/ordering").outcome?.tag, "error");
      const known = byName(codex, "cli/scripted/retry").outcome!;
      assert.deepEqual([known.tag, known.type], ["skipped", "EXPECTED_FAILURE"]);
      assert.match(known.message ?? "", /^Known failure \(expected FAIL\): known: retries silently$/);
      const stale = byName(fake, "cli/behavior/plain").outcome!;
      assert.deepEqual([stale.tag, stale.type], ["failure", "STALE_EXPECTATION"]);
    });

    await t.step(
      "markup is escaped, controls are marked, characters XML cannot carry are dropped",
      async () => {
        const nasty = "a <b> & \"c\" 'd' ]]> \u0000\u0007\u001b[31m\uFFFE\uD800 end\nline two\ttab";
        const input = report([
          result('host"<&>', 'cli/scripted/<weird>&"name"', "FAIL", {
            message: nasty,
            details: { raw: "\u0001</failure>" },
          }),
          result('host"<&>', "cli/scripted/skipped", "SKIP", { message: nasty }),
        ]);
        const xml = parsed(await parseXml(page, renderJunit(input)));
        const suite = xml.suites[0]!;
        assert.equal(suite.attrs.name, 'host"<&>');
        const testCase = suite.cases[0]!;
        assert.equal(testCase.name, 'cli/scripted/<weird>&"name"');
        assert.equal(testCase.outcome?.message, "FAIL: a <b> & \"c\" 'd' ]]> ␀␇␛ end");
        assert.ok(
          testCase.outcome?.text.startsWith("a <b> & \"c\" 'd' ]]> ␀␇␛ end\nline two\ttab\ndetails: "),
        );
        assert.ok(testCase.outcome?.text.includes("</failure>"));
        // Line breaks and tabs in an attribute survive attribute-value normalisation.
        assert.equal(suite.cases[1]!.outcome?.message, "a <b> & \"c\" 'd' ]]> ␀␇␛ end\nline two\ttab");
      },
    );
  },
});

Deno.test("junit.xml redacts secrets", () => {
  const input = report([
    result("fake", "cli/a", "FAIL", { message: "leaked ghp_abcdefghijklmnopqrstuvwxyz0123" }),
  ]);
  const xml = renderJunit(input);
  assert.ok(!xml.includes("ghp_"));
  assert.ok(xml.includes("leaked [REDACTED]"));
});

Deno.test("an INFO is a passing test case with its message in system-out, whatever was expected", () => {
  const input = report([
    result("web", "apps/security/csp-no-unsafe-eval", "INFO", { message: "'unsafe-eval' is allowed" }),
    result("web", "apps/security/csp-base-uri", "INFO", { expected: "FAIL", message: "no base-uri" }),
  ]);
  const xml = renderJunit(input);
  assert.match(xml, /<testsuite name="web" [^>]*tests="2" failures="0" errors="0" skipped="0"/);
  assert.doesNotMatch(xml, /<failure|<error|<skipped/);
  assert.match(xml, /<system-out>INFO: 'unsafe-eval' is allowed<\/system-out>/);
  assert.match(xml, /<system-out>INFO: no base-uri<\/system-out>/);
});

Deno.test("a host without results still has its testsuite", () => {
  const input = report([], { hosts: [{ id: "gemini", kind: "cli", version: null }] });
  assert.match(renderJunit(input), /<testsuite name="gemini" id="0" package="conformance" tests="0"/);
});

Deno.test("an interrupted run's junit.xml lists each test it stopped as a skipped INTERRUPTED testcase", () => {
  const input = report([result("codex", "cli/behavior/plain", "PASS")]);
  input.run.incomplete = true;
  input.run.interrupted = [
    { host: "codex", test: "cli/behavior/slow", title: "A slow test", started: true },
    { host: "codex", test: "cli/behavior/later", started: false },
  ];
  const xml = renderJunit(input);
  assert.match(xml, /<testsuite name="codex"[^>]* tests="3" failures="0" errors="0" skipped="2"/);
  assert.match(
    xml,
    /<testcase name="cli\/behavior\/slow" classname="codex\.cli\.behavior" time="0\.000">\n\s*<properties>\n\s*<property name="title" value="A slow test"\/>\n\s*<\/properties>\n\s*<skipped message="interrupted: the run was stopped while this test ran" type="INTERRUPTED"\/>/,
  );
  assert.match(
    xml,
    /<skipped message="interrupted: the run was stopped before this test began" type="INTERRUPTED"\/>/,
  );
  assert.match(xml, /<property name="run.incomplete" value="true"\/>/);
  assert.match(
    xml,
    /<system-err>INCOMPLETE: the run was interrupted; 2 test\(s\) of this host have no result \(1 running when it stopped, 1 not begun\)/,
  );
});
