import assert from "node:assert/strict";
import {
  expectedStatus,
  formatExpectations,
  loadExpectations,
  parseExpectations,
  unexpectedResults,
  updatedExpectations,
} from "../src/expectations.ts";
import { UsageError } from "../src/errors.ts";
import type { TestResult } from "../src/outcome.ts";

const FILE = `schema: conformance-expectations/1
host: gemini
tests:
  cli/mock-model/http-500:
    status: FAIL
    reason: retries then exits 1 without a result
  cli/mock-model/disconnect:
    status: TIMEOUT
    reason: hangs on a half-closed stream
`;

function result(
  test: string,
  status: TestResult["status"],
  expected: TestResult["status"] = "PASS",
): TestResult {
  return { host: "gemini", test, status, expected, message: `${status} message`, durationMs: 1, details: {} };
}

Deno.test("parseExpectations reads host, tests, statuses and reasons", () => {
  const set = parseExpectations(FILE, "gemini.yaml");
  assert.equal(set.host, "gemini");
  assert.deepEqual(set.tests.get("cli/mock-model/http-500"), {
    status: "FAIL",
    reason: "retries then exits 1 without a result",
  });
  assert.equal(
    expectedStatus(new Map([["gemini", set]]), "gemini", "cli/mock-model/disconnect").status,
    "TIMEOUT",
  );
  assert.equal(expectedStatus(new Map([["gemini", set]]), "gemini", "cli/behavior/streaming").status, "PASS");
  assert.equal(expectedStatus(new Map([["gemini", set]]), "codex", "cli/mock-model/http-500").status, "PASS");
});

Deno.test("parseExpectations rejects malformed files with the file and field named", () => {
  const cases: [string, RegExp][] = [
    ["schema: nope\nhost: x\ntests: {}", /"e\.yaml" is malformed at schema/],
    ["schema: conformance-expectations/1\ntests: {}", /at host/],
    ["schema: conformance-expectations/1\nhost: x\ntests:\n  a/b/c:\n    status: FAIL", /a\/b\/c\.reason/],
    [
      "schema: conformance-expectations/1\nhost: x\ntests:\n  a/b/c:\n    status: BAD\n    reason: r",
      /status/,
    ],
    [
      "schema: conformance-expectations/1\nhost: x\ntests:\n  a/b/c:\n    status: PASS\n    reason: r",
      /PASS/,
    ],
    [
      "schema: conformance-expectations/1\nhost: x\ntests:\n  a/b/c:\n    status: INFO\n    reason: r",
      /INFO is never unexpected and need not be listed/,
    ],
    ["schema: conformance-expectations/1\nhost: x\nextra: 1", /malformed/],
    ["schema: [unclosed", /not valid YAML/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(
      () => parseExpectations(text, "e.yaml"),
      (e: unknown) => e instanceof UsageError && pattern.test(e.message),
      text,
    );
  }
});

Deno.test("stale and unexpected results are the ones that fail a run", () => {
  const results = [
    result("a", "PASS"),
    result("b", "FAIL"),
    result("c", "PASS", "FAIL"),
    result("d", "FAIL", "FAIL"),
    result("e", "SKIP"),
    // An INFO breaks nothing: never unexpected, and no proof that a listed failure is gone.
    result("f", "INFO"),
    result("g", "INFO", "FAIL"),
    result("h", "INFO", "WARN"),
  ];
  assert.deepEqual(unexpectedResults(results).map((r) => r.test), ["b", "c"]);
});

Deno.test("updatedExpectations drops stale entries, keeps reasons, adds new failures and keeps tests not run", () => {
  const previous = parseExpectations(
    FILE.replace(
      "tests:\n",
      "tests:\n  cli/other/not-run:\n    status: FAIL\n    reason: still broken\n" +
        "  cli/other/now-info:\n    status: FAIL\n    reason: was broken\n",
    ),
    "g.yaml",
  );
  const next = updatedExpectations("gemini", [
    result("cli/mock-model/http-500", "FAIL", "FAIL"), // unchanged: keeps the reason
    result("cli/mock-model/disconnect", "PASS", "TIMEOUT"), // stale: dropped
    result("cli/behavior/streaming", "WARN"), // new
    result("cli/behavior/skipped", "SKIP"),
    result("cli/behavior/optional", "INFO"), // never written
    result("cli/other/now-info", "INFO", "FAIL"), // ran and broke nothing: the entry goes
  ], previous);
  assert.deepEqual([...next.keys()], [
    "cli/behavior/streaming",
    "cli/mock-model/http-500",
    "cli/other/not-run",
  ]);
  assert.equal(next.get("cli/mock-model/http-500")!.reason, "retries then exits 1 without a result");
  assert.equal(next.get("cli/behavior/streaming")!.reason, "WARN message");
  const text = formatExpectations("gemini", next);
  const reparsed = parseExpectations(text, "round-trip");
  assert.deepEqual([...reparsed.tests.keys()], [...next.keys()]);
});

Deno.test("loadExpectations reads folders, merges a host's files and refuses duplicates", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.yaml`, FILE);
    await Deno.writeTextFile(
      `${dir}/b.yml`,
      "schema: conformance-expectations/1\nhost: gemini\ntests:\n  x/y/z:\n    status: WARN\n    reason: r\n",
    );
    await Deno.writeTextFile(`${dir}/notes.txt`, "ignored");
    const sets = await loadExpectations([dir]);
    assert.equal(sets.get("gemini")!.tests.size, 3);
    await Deno.writeTextFile(`${dir}/c.yaml`, FILE);
    await assert.rejects(() => loadExpectations([dir]), /listed in both/);
    await assert.rejects(() => loadExpectations([`${dir}/missing`]), /does not exist/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
