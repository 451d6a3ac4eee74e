/**
 * `deno task test`'s runner (tools/run_tests.ts): its plan, and real runs of it over test files written here
 * (passing, failing, crashing, leaking a process, hanging until a signal), each run in a temporary folder so
 * that its dist/ is not the enclosing run's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { groupAlive } from "../../src/exec/process_group.ts";
import {
  ALONE_LAST,
  BROWSER,
  discoverTestFiles,
  type Job,
  mergeSuites,
  nextJob,
  parseArgs,
  planJobs,
  WEIGHTS,
} from "../../tools/run_tests.ts";

const RUNNER = new URL("../../tools/run_tests.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

function countCases(xml: string): { passed: number; failed: number; skipped: number } {
  // The same count as .ci/junit_summary.mjs.
  let passed = 0, failed = 0, skipped = 0;
  for (const [, body = ""] of xml.matchAll(/<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    if (/<(failure|error)\b/.test(body)) failed++;
    else if (/<skipped\b/.test(body)) skipped++;
    else passed++;
  }
  return { passed, failed, skipped };
}

async function waitFor(
  what: string,
  predicate: () => Promise<boolean> | boolean,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the runner in `cwd` with `args`, in its own process group. */
function startRunner(cwd: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write=dist",
      "--allow-env",
      "--allow-sys",
      "--allow-run",
      RUNNER,
      ...args,
    ],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
}

const FILES: Record<string, string> = {
  "pass_test.ts": `Deno.test("one", () => {});\nDeno.test("two", () => {});\n`,
  "fail_test.ts":
    `Deno.test("fine", () => {});\nDeno.test("broken", () => { throw new Error("broken on purpose"); });\n`,
  "crash_test.ts": `throw new Error("cannot even load");\n`,
  "skip_test.ts": `Deno.test({ name: "ignored", ignore: true, fn() {} });\nDeno.test("runs", () => {});\n`,
  // A grandchild in the file's group (sh puts it in the background and ends): deno test leaves it running.
  "leak_test.ts": `Deno.test("leaks", async () => {
    await new Deno.Command("sh", { args: ["-c", "sleep 300 >/dev/null 2>&1 &"], stdin: "null" }).output();
  });\n`,
};

Deno.test("the plan: every file once, longest first, the type check included", () => {
  const jobs = planJobs(["tests/a_test.ts", "tests/robustness/interrupt_soak_test.ts", "tests/b_test.ts"], [
    "--filter=x",
  ]);
  assert.equal(jobs.length, 4);
  assert.equal(jobs.filter((job) => job.name === "deno check").length, 1);
  const a = jobs.find((job) => job.name === "tests/a_test.ts")!;
  assert.ok(
    a.args.includes("--no-check") && a.args.includes("--filter=x") && a.args.at(-1) === "tests/a_test.ts",
  );
  assert.ok(jobs.find((job) => job.name === "tests/robustness/interrupt_soak_test.ts")!.last);
  const weights = jobs.map((job) => job.weight);
  assert.deepEqual(weights, [...weights].sort((x, y) => y - x));
});

Deno.test("the command line: files, limits, deno test flags, and the `--` deno task passes on", () => {
  assert.deepEqual(parseArgs(["--", "--jobs=4", "./tests/a_test.ts", "--filter=x", "--browsers=2"]), {
    jobs: 4,
    browsers: 2,
    files: ["tests/a_test.ts"],
    testFlags: ["--filter=x"],
  });
  assert.match(parseArgs(["--jobs=0"]) as string, /^--jobs wants a whole number ≥ 1, got "0"$/);
});

Deno.test("scheduling: the job limit, the browser limit, and the soak only when nothing else is left", () => {
  const job = (name: string, browser = false, last = false): Job => ({
    name,
    args: [],
    weight: 1,
    browser,
    last,
  });
  const limits = { jobs: 2, browsers: 1 };
  const queue = [job("soak", false, true), job("web1", true), job("web2", true), job("plain")];
  assert.equal(nextJob(queue, { total: 2, browsers: 0 }, limits), undefined, "all slots busy");
  assert.equal(nextJob(queue, { total: 0, browsers: 0 }, limits)?.name, "web1");
  assert.equal(nextJob(queue, { total: 1, browsers: 1 }, limits)?.name, "plain", "web2 waits for web1");
  assert.equal(nextJob(queue, { total: 1, browsers: 1 }, limits), undefined, "only web2 and the soak left");
  assert.equal(nextJob(queue, { total: 0, browsers: 0 }, limits)?.name, "web2");
  assert.equal(nextJob(queue, { total: 1, browsers: 1 }, limits), undefined, "the soak waits for web2");
  assert.equal(nextJob(queue, { total: 0, browsers: 0 }, limits)?.name, "soak");
  assert.equal(queue.length, 0);
});

Deno.test("the lanes name files that exist, and discovery finds every test file deno test would", async () => {
  const files = await discoverTestFiles(ROOT.replace(/\/$/, ""));
  assert.ok(files.length > 100, `${files.length} files`);
  assert.ok(files.includes("tests/tools/run_tests_test.ts"));
  assert.ok(!files.some((file) => file.startsWith("node_modules/") || file.startsWith("dist/")));
  for (const file of [...ALONE_LAST, ...BROWSER, ...Object.keys(WEIGHTS)]) {
    assert.ok(files.includes(file), `${file} is listed in tools/run_tests.ts but is not a test file`);
  }
});

Deno.test("merged JUnit counts cases as .ci/junit_summary.mjs does", () => {
  const suite = (name: string, body: string) => `<testsuite name="${name}">${body}</testsuite>`;
  const merged = mergeSuites([
    suite(
      "./a",
      `<testcase name="1" classname="./a" time="1"/><testcase name="2"><failure message="x"/></testcase>`,
    ),
    suite(
      "./b",
      `<testcase name="3"><skipped/></testcase><testcase name="4"><error message="y"/></testcase>`,
    ),
  ], 3);
  assert.match(merged, /<testsuites name="deno test" tests="4" failures="1" errors="1" time="3\.000">/);
  assert.deepEqual(countCases(merged), { passed: 1, failed: 2, skipped: 1 });
});

Deno.test({
  name:
    "a run of passing, failing, crashing and leaking files: one JUnit with every case, exit 1, no group left",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "run-tests-" });
    try {
      for (const [name, text] of Object.entries(FILES)) await Deno.writeTextFile(join(dir, name), text);
      const runner = startRunner(dir, ["--jobs=3", ...Object.keys(FILES)]);
      const { code, stdout } = await runner.output();
      const out = new TextDecoder().decode(stdout);
      assert.equal(code, 1, out);
      assert.equal(await groupAlive(runner.pid), false);
      const xml = await Deno.readTextFile(join(dir, "dist", "junit.xml"));
      // pass 2, fail 1+1, skip 1+1, crash 1 error, leak 1 pass + 1 "left a process" error.
      assert.deepEqual(countCases(xml), { passed: 5, failed: 3, skipped: 1 }, xml);
      assert.match(xml, /crash_test\.ts: exited 1/);
      assert.match(xml, /leak_test\.ts: no process left in its group/);
      assert.match(out, /^FAILED .* fail_test\.ts/m);
      assert.match(out, /^ok .* pass_test\.ts/m);
      assert.match(out, /broken on purpose/, "a failed file's output is printed");
      const recap = out.slice(out.lastIndexOf("job(s) in "));
      assert.match(
        recap,
        /fail_test\.ts: broken => \.\/fail_test\.ts:\d+:\d+\nerror: Error: broken on purpose/,
        recap,
      );
      // deno-lint-ignore no-control-regex
      assert.doesNotMatch(recap, /FAILURES|\x1b/, "the recap is the ERRORS block alone, without colours");
      const times = JSON.parse(await Deno.readTextFile(join(dir, "dist", "test-times.json")));
      assert.deepEqual(Object.keys(times.times).sort(), ["deno check", ...Object.keys(FILES)].sort());
      assert.equal((await Array.fromAsync(Deno.readDir(join(dir, "dist")))).length, 2, "parts are removed");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test({
    name: `${signal} to the runner reaches every running file's group, and every group is gone when it exits`,
    sanitizeResources: false,
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "run-tests-" });
      try {
        const hang = (label: string) =>
          `Deno.test({ name: "hangs", sanitizeOps: false, sanitizeResources: false, fn: async () => {
            const sleeper = new Deno.Command("sleep", { args: ["300"], stdin: "null", stdout: "null" }).spawn();
            await Deno.writeTextFile(${JSON.stringify(join(dir, label))}, \`\${Deno.pid} \${sleeper.pid}\`);
            await sleeper.status;
            // The signal also reaches the sleep (same group): the test must not end as a pass when it dies.
            await new Promise(() => setInterval(() => {}, 1_000));
          } });\n`;
        for (const label of ["a", "b"]) await Deno.writeTextFile(join(dir, `${label}_test.ts`), hang(label));
        await Deno.writeTextFile(join(dir, "c_test.ts"), `Deno.test("never starts", () => {});\n`);
        const runner = startRunner(dir, ["--jobs=2", "a_test.ts", "b_test.ts", "c_test.ts"]);
        const output = runner.output();
        const marks = ["a", "b"].map((label) => join(dir, label));
        await waitFor("both files started", async () => {
          for (const mark of marks) {
            if ((await Deno.readTextFile(mark).catch(() => "")).split(" ").length < 2) return false;
          }
          return true;
        });
        const pairs = (await Promise.all(marks.map((mark) => Deno.readTextFile(mark)))).map((text) =>
          text.split(" ").map(Number) as [number, number]
        );
        Deno.kill(runner.pid, signal); // the runner alone, not its group: it must pass the signal on
        const { code } = await output;
        assert.equal(code, signal === "SIGINT" ? 130 : 143);
        // Each deno test and its sleep child were in the deno test's group: all gone when the runner exits.
        for (const [denoTest, sleeper] of pairs) {
          // The file's sleep child is a member of its deno test's group.
          assert.equal(
            await groupAlive(denoTest),
            false,
            `the group of deno test ${denoTest} (sleep ${sleeper}) survived`,
          );
        }
        assert.equal(await groupAlive(runner.pid), false);
        const xml = await Deno.readTextFile(join(dir, "dist", "junit.xml"));
        // Each hung file is a failed case (deno test's own "Cancelled" after SIGINT, the runner's after
        // SIGTERM, which ends deno test before it writes JUnit), and the file that never started is one too.
        assert.deepEqual(countCases(xml), { passed: 0, failed: 3, skipped: 0 }, xml);
        for (const file of ["a_test.ts", "b_test.ts"]) {
          assert.match(
            xml,
            new RegExp(`<testsuite name="\\./${file}"[^>]*>\\s*<testcase[^>]*>\\s*<error`),
            file,
          );
        }
        assert.match(xml, /c_test\.ts: not run/);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
