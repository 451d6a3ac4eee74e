/**
 * `--update-expectations` edits the file in place: comments before, between and after entries survive, the
 * order stays, untouched entries keep their text, new entries are appended in run order.
 */
import assert from "node:assert/strict";
import {
  newExpectationDocument,
  openExpectationDocument,
  renderExpectationDocument,
  updateExpectationDocuments,
} from "../src/expectations_update.ts";
import { parseExpectations } from "../src/expectations.ts";
import type { TestResult } from "../src/outcome.ts";

const BEFORE = `# Known failures of gemini (recorded against the mock model).
schema: conformance-expectations/1
host: gemini
tests:
  # The retry loop: see the fixture.
  cli/mock-model/fault-http-500:
    status: TIMEOUT
    reason: "retries an HTTP 500 with backoff" # upstream issue 123
  cli/behavior/streaming:
    status: FAIL
    reason: "no result event"
  cli/behavior/flaky:
    status: [PASS, TIMEOUT]
    reason: "slow first token now and then"
  cli/scripted/ordering:
    status: WARN
    reason: "was a warning"
  cli/scripted/old-bug:
    status: FAIL
    versions: "<0.25"
    reason: "fixed in 0.25"
  cli/composition/not-run:
    status: FAIL
    reason: "not selected by this run"
# Trailing notes stay too.
`;

function result(test: string, status: TestResult["status"], message = `${status} message`): TestResult {
  return { host: "gemini", test, status, expected: "PASS", message, durationMs: 1, details: {} };
}

function open(text: string) {
  const document = openExpectationDocument("gemini.yaml", text, "gemini");
  assert.ok(!("problem" in document), JSON.stringify(document));
  return document;
}

Deno.test("an update keeps comments and order, and an unchanged entry its reason", () => {
  const document = open(BEFORE);
  updateExpectationDocuments([document], "gemini", [
    result("cli/behavior/new-two", "ERROR", "harness could not start"), // new, first in run order
    result("cli/mock-model/fault-http-500", "TIMEOUT", "a different message"), // unchanged: untouched
    result("cli/behavior/streaming", "PASS"), // stale: the entry goes
    result("cli/behavior/flaky", "PASS"), // PASS is listed: untouched
    result("cli/scripted/ordering", "FAIL", "now a MUST broken"), // changed: status and reason rewritten
    result("cli/scripted/old-bug", "PASS"), // the entry is for older versions: not this run's to judge
    result("cli/behavior/new-one", "WARN", "a new warning"), // new, appended after new-two
    result("cli/behavior/skipped", "SKIP"),
    result("cli/behavior/info", "INFO"),
  ], "gemini 0.30.1");
  assert.equal(document.changed, true);
  assert.equal(
    renderExpectationDocument(document),
    `# Known failures of gemini (recorded against the mock model).
schema: conformance-expectations/1
host: gemini
tests:
  # The retry loop: see the fixture.
  cli/mock-model/fault-http-500:
    status: TIMEOUT
    reason: "retries an HTTP 500 with backoff" # upstream issue 123
  cli/behavior/flaky:
    status: [PASS, TIMEOUT]
    reason: "slow first token now and then"
  cli/scripted/ordering:
    status: FAIL
    reason: "now a MUST broken"
  cli/scripted/old-bug:
    status: FAIL
    versions: "<0.25"
    reason: "fixed in 0.25"
  cli/composition/not-run:
    status: FAIL
    reason: "not selected by this run"
  cli/behavior/new-two:
    status: ERROR
    reason: harness could not start
  cli/behavior/new-one:
    status: WARN
    reason: a new warning
# Trailing notes stay too.
`,
  );
});

Deno.test("an update that agrees with every entry changes nothing", () => {
  const document = open(BEFORE);
  updateExpectationDocuments(
    [document],
    "gemini",
    [
      result("cli/mock-model/fault-http-500", "TIMEOUT"),
      result("cli/behavior/flaky", "TIMEOUT"),
      result("cli/scripted/old-bug", "FAIL"),
      result("cli/other-host-test", "FAIL"),
    ].map((r, i) => i === 3 ? { ...r, host: "codex" } : r),
    "gemini 0.24.0",
  );
  assert.equal(document.changed, false);
  assert.equal(renderExpectationDocument(document), BEFORE);
  const spaced = BEFORE.replace("\n# Trailing", "\n\n# Trailing");
  assert.equal(renderExpectationDocument(open(spaced)), spaced);
});

Deno.test("a new file gets a block of entries in run order, and reads back", () => {
  const document = newExpectationDocument("new.yaml", "gemini");
  updateExpectationDocuments([document], "gemini", [
    result("z/last/first", "FAIL", "multi\nline: reason"),
    result("a/first/second", "TIMEOUT", ""),
  ], null);
  const text = renderExpectationDocument(document);
  assert.ok(text.includes("\ntests:\n  z/last/first:\n"), text);
  const set = parseExpectations(text, "new.yaml");
  assert.deepEqual([...set.tests.keys()], ["z/last/first", "a/first/second"]);
  assert.equal(set.tests.get("z/last/first")!.reason, "multi\nline: reason");
  assert.equal(set.tests.get("a/first/second")!.reason, "observed TIMEOUT");
});

Deno.test("a file that cannot be rewritten says why in one line", () => {
  const cases: [string, RegExp][] = [
    ["schema: [unclosed", /^is not valid YAML/],
    [
      "schema: conformance-expectations/1\nhost: gemini\ntests:\n  a/b/c:\n    status: FAIL\n",
      /^is malformed at/,
    ],
    ["schema: conformance-expectations/1\nhost: codex\n", /^lists host "codex", not "gemini"$/],
  ];
  for (const [text, pattern] of cases) {
    const opened = openExpectationDocument("e.yaml", text, "gemini");
    assert.ok("problem" in opened, text);
    assert.match(opened.problem, pattern);
    assert.ok(!opened.problem.includes("\n"), opened.problem);
  }
});
