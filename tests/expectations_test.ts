import assert from "node:assert/strict";
import {
  applicableExpectations,
  checkExpectations,
  expectedStatus,
  loadExpectations,
  parseExpectations,
  unexpectedResults,
} from "../src/expectations.ts";
import { UsageError, UsageProblems } from "../src/errors.ts";
import { compare } from "../src/outcome.ts";
import { parseVersionRange, versionOf } from "../src/version_range.ts";
import { knownTests, loadRunExpectations } from "../cli/run_expectations.ts";
import { HOSTS } from "../hosts/registry.ts";
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
    statuses: ["FAIL"],
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

const HEADER = "schema: conformance-expectations/1\nhost: gemini\ntests:\n";

Deno.test("the built-in expectations name only hosts of the registry and tests those hosts have", async () => {
  // No --expectations: hosts/expectations/*.yaml, checked against the registry. A rotted entry throws here.
  const sets = await loadRunExpectations({ paths: [], known: [], goldenPaths: [], updating: false });
  assert.ok(sets.size >= 10, `built-in hosts: ${[...sets.keys()]}`);
});

Deno.test("unknown hosts and test ids are errors with a did-you-mean, every file's at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a.yaml`,
      "schema: conformance-expectations/1\nhost: gemeni\ntests: {}\n",
    );
    await Deno.writeTextFile(
      `${dir}/b.yaml`,
      `${HEADER}  cli/behavior/streeming:\n    status: FAIL\n    reason: r\n` +
        "  cli/behavior/streaming:\n    status: FAIL\n    reason: r\n" +
        "  totally/unrelated/id:\n    status: FAIL\n    reason: r\n",
    );
    await Deno.writeTextFile(`${dir}/c.yaml`, `${HEADER}  x/y:\n    status: PASS\n    reason: r\n`);
    const known = new Map([["gemini", new Set(["cli/behavior/streaming", "cli/behavior/tool-use"])]]);
    const error = await loadExpectations([dir], known).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof UsageProblems, String(error));
    assert.deepEqual(error.problems, [
      `Expectations file "${dir}/c.yaml" is malformed at tests.x/y.status: PASS is the default and need not be ` +
      'listed (list it only beside another status, for a flaky test). Expected "schema: ' +
      'conformance-expectations/1", "host:" and "tests:" with status and reason per test',
      `Expectations file "${dir}/a.yaml": unknown host "gemeni": did you mean "gemini"? Run "conformance list hosts"`,
      `Expectations file "${dir}/b.yaml": entry "cli/behavior/streeming" is not a test of host "gemini": did you ` +
      'mean "cli/behavior/streaming"? Run "conformance list tests --host gemini" (with --config if it is yours)',
      `Expectations file "${dir}/b.yaml": entry "totally/unrelated/id" is not a test of host "gemini". ` +
      'Run "conformance list tests --host gemini" (with --config if it is yours)',
    ]);
    // Without the known hosts (a library caller), only the files themselves are checked.
    await Deno.remove(`${dir}/c.yaml`);
    assert.equal((await loadExpectations([dir])).size, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkExpectations accepts an entry for a known test whatever the run selects", () => {
  const set = parseExpectations(
    `${HEADER}  cli/mock-model/fault-http-500:\n    status: FAIL\n    reason: r\n`,
    "g",
  );
  const known = new Map([["gemini", new Set(["cli/mock-model/fault-http-500"])]]);
  assert.deepEqual(checkExpectations(new Map([["gemini", set]]), known), []);
});

Deno.test("an entry may list several statuses: any is expected, a PASS is stale only when not listed", () => {
  const set = parseExpectations(
    `${HEADER}  a/b/flaky:\n    status: [PASS, TIMEOUT]\n    reason: r\n` +
      "  a/b/either:\n    status: [FAIL, TIMEOUT]\n    reason: r\n",
    "g.yaml",
  );
  const sets = new Map([["gemini", set]]);
  const flaky = expectedStatus(sets, "gemini", "a/b/flaky");
  assert.deepEqual(flaky.statuses, ["PASS", "TIMEOUT"]);
  const either = expectedStatus(sets, "gemini", "a/b/either");
  const judge = (status: TestResult["status"], e: typeof flaky) =>
    compare({ status, expected: e.status, ...(e.statuses ? { expectedAny: [...e.statuses] } : {}) });
  const table: [TestResult["status"], typeof flaky, ReturnType<typeof compare>][] = [
    ["PASS", flaky, "expected"],
    ["TIMEOUT", flaky, "expected"],
    ["FAIL", flaky, "unexpected"],
    ["WARN", flaky, "expected"],
    ["FAIL", either, "expected"],
    ["TIMEOUT", either, "expected"],
    ["PASS", either, "stale"],
    ["ERROR", either, "unexpected"],
    ["SKIP", either, "expected"],
    ["INFO", either, "expected"],
  ];
  table.forEach(([status, e, verdict], index) => assert.equal(judge(status, e), verdict, `row ${index}`));
  for (const bad of ["[PASS]", "[]", "[FAIL, FAIL]", "[FAIL, INFO]"]) {
    assert.throws(
      () => parseExpectations(`${HEADER}  a/b/c:\n    status: ${bad}\n    reason: r\n`, "e.yaml"),
      UsageError,
      bad,
    );
  }
});

Deno.test("version ranges: comparators joined by commas, versions found in a host's version text", () => {
  const cases: [string, string, boolean][] = [
    ["<0.25", "0.24.4", true],
    ["<0.25", "0.25.0", false],
    ["<=0.25", "0.25", true],
    [">=0.20, <0.25", "0.19.9", false],
    [">=0.20, <0.25", "0.20.0", true],
    [">1", "1.0.1", true],
    ["=0.24.4", "0.24.4", true],
    ["0.24.4", "0.24.5", false],
  ];
  for (const [range, version, expected] of cases) {
    assert.equal(parseVersionRange(range).matches(versionOf(version)!), expected, `${version} in ${range}`);
  }
  assert.deepEqual(versionOf("codex-cli 0.46.0"), [0, 46, 0]);
  assert.deepEqual(versionOf("2.1.3 (Claude Code)"), [2, 1, 3]);
  assert.equal(versionOf("no version here"), null);
  assert.equal(versionOf(null), null);
  for (const bad of ["~0.25", "<", "0.25.x", "<0.25,"]) {
    assert.throws(() => parseVersionRange(bad), SyntaxError, bad);
  }
  assert.throws(
    () =>
      parseExpectations(`${HEADER}  a/b/c:\n    status: FAIL\n    versions: "^1"\n    reason: r\n`, "e.yaml"),
    /e\.yaml" is malformed at tests\.a\/b\/c\.versions: Version condition "\^1"/,
  );
});

Deno.test("a version-conditioned entry applies in range, not outside it, and with a note when unknown", () => {
  const set = parseExpectations(
    `${HEADER}  a/b/c:\n    status: FAIL\n    versions: "<0.25"\n    reason: r\n`,
    "g",
  );
  const sets = new Map([["gemini", set]]);
  const at = (version: string | null) =>
    expectedStatus(applicableExpectations(sets, new Map([["gemini", version]])), "gemini", "a/b/c");
  assert.equal(at("gemini 0.24.4").status, "FAIL");
  assert.equal(at("gemini 0.24.4").note, undefined);
  // A newer host with the bug fixed: the entry does not apply, so its PASS is not stale.
  assert.deepEqual(at("gemini 0.25.0"), { status: "PASS" });
  assert.equal(at(null).status, "FAIL");
  assert.match(at(null).note ?? "", /version is unknown, so the entry for versions "<0\.25" applied/);
  assert.equal(at("nightly").status, "FAIL");
});

Deno.test("the README's expectations examples name real hosts and tests", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("\n## Expectations\n"), readme.indexOf("\n## Configuration\n"));
  const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
  assert.ok(blocks.length > 0, "the Expectations section shows a file");
  for (const block of blocks) {
    const set = parseExpectations(block, "README.md");
    assert.deepEqual(checkExpectations(new Map([[set.host, set]]), knownTests(HOSTS)), []);
    assert.ok([...set.tests.values()].some((entry) => entry.statuses.length > 1), "several statuses shown");
    assert.ok(
      [...set.tests.values()].some((entry) => entry.versions !== undefined),
      "a version condition shown",
    );
  }
});
