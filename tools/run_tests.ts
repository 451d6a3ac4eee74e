/**
 * `deno task test`: every test file in its own `deno test` process, several at once, and one JUnit file of
 * them all in `dist/junit.xml`.
 *
 * - The suite mostly waits (on hosts, browsers and timers), so more files run at once than there are cores
 *   (`--jobs`, default {@linkcode defaultJobs}); the longest files start first (measured seconds in
 *   {@linkcode WEIGHTS}), so the run does not end on one long file alone.
 * - Files that drive Chromium ({@linkcode BROWSER}) run at most `--browsers` at a time (default 2): the
 *   variant table (four browsers of its own for minutes, under a core on a quiet machine)
 *   beside one other browser file at a time, so the other browser files do not all wait for it and then run
 *   in a row.
 * - The files in {@linkcode ALONE_LAST} (the interrupt soak) run after all others, alone on the machine. Run
 *   beside the others at load ~24 it once found two Chromium zygotes outliving a run (fresh-clone CI of
 *   2026-12-05, docs/performance.md): a survivor window that load widens, still open.
 * - The test files are type-checked once (`deno check`, one job like the others); each file then runs with
 *   `--no-check`, so no module is checked twice.
 *
 * Every `deno test` is its own process group, with stdin closed. SIGINT and SIGTERM are passed on to every
 * group; no new file starts; a group still alive 10 s later gets SIGKILL; the runner then proves every group it
 * started is gone before it exits (130 or 143). A group that still has a member after its `deno test` ended (a
 * test left a process behind in it) is killed, and counts as a failure of that file.
 *
 * Zombies count as gone (src/exec/process_group.ts): an orphan's reaper may never wait for it.
 *
 * A file's output is printed when it ends: one line when it passed, all of it when it failed. With one file
 * the output is live. `dist/test-times.json` keeps each file's wall time and the machine's load.
 *
 * Usage: `deno task test [--] [--jobs=N] [--browsers=N] [FILE…] [DENO TEST FLAG…]` (flags such as `--filter=NAME`
 * go to every `deno test`). Without files, every test file of the repository.
 *
 * @module
 */

import { groupAlive, signalGroup, waitGroupGone } from "../src/exec/process_group.ts";

/** Files that must not share the machine: run after all others, one at a time. */
export const ALONE_LAST: readonly string[] = ["tests/robustness/interrupt_soak_test.ts"];

/** Files that launch Chromium; at most `--browsers` of them run at once. */
export const BROWSER: readonly string[] = [
  "tests/cli/doctor_test.ts",
  "tests/cli/login_test.ts",
  "tests/cli/preflight_test.ts",
  "tests/cli/replay_web_test.ts",
  "tests/cli/retries_test.ts",
  "tests/hosts/desktop/cdp_attach_test.ts",
  "tests/hosts/web/chat_host_page_test.ts",
  "tests/hosts/web/chatgpt_test.ts",
  "tests/hosts/web/claude_ai_test.ts",
  "tests/hosts/web/mcp_inspector_test.ts",
  "tests/hosts/web/mcp_ui_test.ts",
  "tests/hosts/web/mcp_use_chat_test.ts",
  "tests/hosts/web/mcp_use_test.ts",
  "tests/hosts/web/mistral_test.ts",
  "tests/hosts/web/reference_unreachable_control_test.ts",
  "tests/hosts/web/reference_variants_test.ts",
  "tests/hosts/web/yaml_host_test.ts",
  "tests/hosts/web/yaml_launch_test.ts",
  "tests/hosts/web/yaml_of_view_test.ts",
  "tests/report/capability_board_test.ts",
  "tests/report/html_browser_test.ts",
  "tests/report/html_first_screen_test.ts",
  "tests/report/html_run_test.ts",
  "tests/report/html_test.ts",
  "tests/report/junit_test.ts",
  "tests/robustness/interrupt_phases_test.ts",
  "tests/robustness/interrupt_results_test.ts",
  "tests/robustness/reaper_test.ts",
  "tests/robustness/reaper_windows_test.ts",
  "tests/runner/browser_survivors_test.ts",
  "tests/runner/chromium_launch_test.ts",
  "tests/runner/launch_steps_test.ts",
  "tests/runner/suite_bridge_test.ts",
  "tests/suite/apps/driver_test.ts",
  "tests/suite/apps/reference_smoke_test.ts",
  "tests/suite/suite_server_test.ts",
  "tests/suite/upstream_shaped_test.ts",
];

/**
 * Seconds each heavy file took alone (docs/performance.md has the dates and loads); a file not listed
 * counts {@linkcode DEFAULT_WEIGHT}. Only the order depends on them: a wrong figure makes the run longer,
 * never wrong.
 */
export const WEIGHTS: Readonly<Record<string, number>> = {
  // Alone, 2026-12-05, load 5-35 (docs/performance.md): wall seconds.
  "tests/hosts/web/reference_variants_test.ts": 900,
  "tests/hosts/cli/capability_behavior_e2e_test.ts": 328,
  // 17 ACP cases on 8 agents since the tool cases (2026-12-05, beside a second job): three agents hang on a
  // model HTTP 500 until the case's 180 s bound.
  "tests/hosts/cli/acp_e2e_test.ts": 950,
  "tests/hosts/cli/reference_agent_variants_test.ts": 157,
  "tests/hosts/cli/mock_model_e2e_test.ts": 128,
  "tests/binary/compile_test.ts": 121,
  "tests/readme_walkthrough_test.ts": 66,
  "tests/binary/bundle_test.ts": 41,
  "tests/tools/ci_workflow_test.ts": 26,
  // Alone, 2026-12-05, load ~30: wall seconds (two runs through the full teardown and request timeouts).
  "tests/hosts/web/yaml_of_view_test.ts": 115,
  // Alone, 2026-12-05, load ~10: wall seconds (the whole catalogue through the mcp-use Chat tab).
  "tests/hosts/web/mcp_use_chat_test.ts": 45,
};

/** The weight of a file not in {@linkcode WEIGHTS}. */
export const DEFAULT_WEIGHT = 5;
/** The weight of the type check. */
const CHECK_WEIGHT = 40;
/** How long the groups get after a passed-on signal before SIGKILL. */
const GRACE_MS = 10_000;

/** The permissions every `deno test` gets (the README's). */
export const PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-sys",
  "--allow-run",
  "--allow-net=127.0.0.1,localhost,[::1]",
];

const JUNIT = "dist/junit.xml";
const PARTS = "dist/junit-parts";
const TIMES = "dist/test-times.json";

/** Files run at once by default: one more than the cores (the suite waits more than it computes), at least 2. */
export function defaultJobs(): number {
  const fromEnv = Number(Deno.env.get("CONFORMANCE_TEST_JOBS"));
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return Math.max(2, (navigator.hardwareConcurrency || 1) + 1);
}

/** Whether `name` is a test file name by `deno test`'s default pattern. */
export function isTestFileName(name: string): boolean {
  return /^(?:.*[_.])?test\.(?:ts|tsx|mts|js|mjs|jsx)$/.test(name);
}

/** The repository's test files (relative, `/`-separated, sorted), skipping deno.json's excluded folders. */
export async function discoverTestFiles(root = "."): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const excluded = [...(config.exclude ?? []), ...(config.test?.exclude ?? [])].map((path: string) =>
    path.replace(/^\.\//, "").replace(/\/$/, "")
  );
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir === "" ? root : `${root}/${dir}`)) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.name === ".git" || excluded.includes(path)) continue;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && isTestFileName(entry.name)) found.push(path);
    }
  };
  await walk("");
  return found.sort();
}

/** One unit of work: a test file, or the type check. */
export interface Job {
  /** The test file, or `"deno check"`. */
  readonly name: string;
  readonly args: readonly string[];
  readonly weight: number;
  readonly browser: boolean;
  readonly last: boolean;
  /** The JUnit file it writes (none for the type check). */
  readonly junit?: string;
}

/** The jobs for `files`, longest first, the type check among them. */
export function planJobs(files: readonly string[], testFlags: readonly string[]): Job[] {
  const check: Job = {
    name: "deno check",
    args: ["check", "--quiet", ...files],
    weight: CHECK_WEIGHT,
    browser: false,
    last: false,
  };
  const tests = files.map((file, index): Job => {
    const junit = `${PARTS}/${String(index).padStart(3, "0")}.xml`;
    return {
      name: file,
      args: ["test", ...PERMISSIONS, "--no-check", `--junit-path=${junit}`, ...testFlags, file],
      weight: WEIGHTS[file] ?? DEFAULT_WEIGHT,
      browser: BROWSER.includes(file),
      last: ALONE_LAST.includes(file),
      junit,
    };
  });
  return [check, ...tests].sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
}

/**
 * The next job to start from `queue` (removed from it), or undefined if none may start now: an
 * {@linkcode ALONE_LAST} job only when nothing else is left or running, a browser job only under the limit.
 */
export function nextJob(
  queue: Job[],
  running: { total: number; browsers: number },
  limits: { jobs: number; browsers: number },
): Job | undefined {
  if (running.total >= limits.jobs) return undefined;
  const others = queue.filter((job) => !job.last);
  if (others.length === 0) {
    if (running.total > 0) return undefined;
    return queue.shift();
  }
  const index = queue.findIndex((job) => !job.last && (!job.browser || running.browsers < limits.browsers));
  return index < 0 ? undefined : queue.splice(index, 1)[0];
}

function killGroup(pgid: number, signal: Deno.Signal): void {
  signalGroup(pgid, signal);
}

/** Kills what is left of group `pgid` and waits (up to 10 s) until it is gone; whether it is. */
async function endGroup(pgid: number): Promise<boolean> {
  if (!(await groupAlive(pgid))) return true;
  killGroup(pgid, "SIGKILL");
  return await waitGroupGone(pgid, 10_000);
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[char]!)
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/** A `<testsuite>` of one failed case, for a file whose failure its JUnit does not show. */
export function failureSuite(file: string, testName: string, message: string, output = ""): string {
  const suite = `./${file}`;
  return `<testsuite name="${escapeXml(suite)}" tests="1" disabled="0" errors="1" failures="0">\n` +
    `    <testcase name="${escapeXml(testName)}" classname="${escapeXml(suite)}" time="0">\n` +
    `        <error message="${escapeXml(message)}">${escapeXml(output.slice(-20_000))}</error>\n` +
    `    </testcase>\n  </testsuite>`;
}

/** The `<testsuite>` elements of a JUnit document. */
export function junitSuites(xml: string): string[] {
  const suite = /<testsuite\b[^>]*?\/>|<testsuite\b[^>]*>[\s\S]*?<\/testsuite>/g;
  return [...xml.matchAll(suite)].map((match) => match[0]);
}

/** Whether a JUnit document records a failed or errored case. */
export function junitHasFailure(xml: string): boolean {
  return /<(?:failure|error)\b/.test(xml);
}

/**
 * One `<testsuites>` document of `suites`, with the counts of their cases (a case with `<failure>` or
 * `<error>` failed, as `.ci/junit_summary.mjs` counts them) and the time given.
 *
 * @example
 * ```ts
 * const suite = '<testsuite name="./a_test.ts" tests="1"><testcase name="x" classname="./a_test.ts" time="1"/></testsuite>';
 * console.assert(mergeSuites([suite, suite], 2).includes('tests="2"'));
 * ```
 */
export function mergeSuites(suites: readonly string[], seconds: number): string {
  let tests = 0, failures = 0, errors = 0;
  for (const suite of suites) {
    for (const [, body = ""] of suite.matchAll(/<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
      tests++;
      if (/<failure\b/.test(body)) failures++;
      else if (/<error\b/.test(body)) errors++;
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="deno test" tests="${tests}" ` +
    `failures="${failures}" errors="${errors}" time="${seconds.toFixed(3)}">\n` +
    `${suites.map((suite) => `  ${suite}`).join("\n")}\n</testsuites>\n`;
}

/** What one job came to. */
interface Finished {
  readonly job: Job;
  readonly code: number;
  readonly seconds: number;
  readonly output: string;
  /** Set when the job's group had members left after it ended. */
  readonly leftovers: boolean;
  readonly interrupted: boolean;
}

function loadAverage(): number[] {
  try {
    return Deno.loadavg().map((load) => Math.round(load * 100) / 100);
  } catch {
    return [];
  }
}

/** What the command line asks for. */
export interface Options {
  readonly jobs: number;
  readonly browsers: number;
  readonly files: string[];
  readonly testFlags: string[];
}

/** The options of `args`, or the one-line message for a bad one. */
export function parseArgs(args: readonly string[]): Options | string {
  let jobs = defaultJobs(), browsers = 2;
  const files: string[] = [], testFlags: string[] = [];
  for (const arg of args) {
    const limit = arg.match(/^--(jobs|browsers)=(.*)$/);
    if (limit) {
      const value = Number(limit[2]);
      if (!Number.isInteger(value) || value < 1) {
        return `--${limit[1]} wants a whole number ≥ 1, got "${limit[2]}"`;
      }
      if (limit[1] === "jobs") jobs = value;
      else browsers = value;
    } else if (arg === "--") continue; // `deno task test -- FILE` passes the `--` on
    else if (arg.startsWith("-")) testFlags.push(arg);
    else files.push(arg.replace(/^\.\//, ""));
  }
  return { jobs, browsers, files, testFlags };
}

async function main(args: readonly string[]): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === "string") {
    console.error(`run_tests: ${options}`);
    return 2;
  }
  let files = options.files;
  if (files.length === 0) files = await discoverTestFiles();
  for (const file of files) {
    const stat = await Deno.stat(file).catch(() => undefined);
    if (!stat?.isFile) {
      console.error(`run_tests: ${file} is not a file`);
      return 2;
    }
  }
  const live = files.length === 1;
  await Deno.mkdir(PARTS, { recursive: true });
  for (const entry of await Array.fromAsync(Deno.readDir(PARTS))) await Deno.remove(`${PARTS}/${entry.name}`);
  await Deno.remove(JUNIT).catch(() => {});

  const queue = planJobs(files, options.testFlags);
  const started = performance.now();
  const loadAtStart = loadAverage();
  const running = new Map<number, { job: Job; done: Promise<Finished> }>();
  const finished: Finished[] = [];
  let browsers = 0;
  let stopSignal: Deno.Signal | undefined;

  const onSignal = (signal: Deno.Signal) => () => {
    if (stopSignal === undefined) {
      console.error(
        `run_tests: ${signal}: passing it on to ${running.size} running file(s), starting no more`,
      );
    }
    stopSignal ??= signal;
    for (const pgid of running.keys()) killGroup(pgid, signal);
    setTimeout(() => {
      for (const pgid of running.keys()) killGroup(pgid, "SIGKILL");
    }, GRACE_MS);
  };
  const handlers = (["SIGINT", "SIGTERM"] as const).map((signal) => [signal, onSignal(signal)] as const);
  for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);

  const start = (job: Job): void => {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...job.args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    const begun = performance.now();
    const chunks: string[] = [];
    const pump = async (stream: ReadableStream<Uint8Array<ArrayBuffer>>, sink: typeof Deno.stdout) => {
      for await (const text of stream.pipeThrough(new TextDecoderStream())) {
        chunks.push(text);
        if (live) await sink.write(new TextEncoder().encode(text));
      }
    };
    const done = (async (): Promise<Finished> => {
      const [status] = await Promise.all([
        child.status,
        pump(child.stdout, Deno.stdout),
        pump(child.stderr, Deno.stderr),
      ]);
      // A member that is only an exiting orphan is gone within moments; one that stays was left behind.
      let leftovers = await groupAlive(child.pid);
      for (let wait = 0; leftovers && wait < 10; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        leftovers = await groupAlive(child.pid);
      }
      const gone = await endGroup(child.pid);
      if (!gone) console.error(`run_tests: process group ${child.pid} (${job.name}) would not die`);
      return {
        job,
        code: status.code,
        seconds: (performance.now() - begun) / 1000,
        output: chunks.join(""),
        leftovers,
        interrupted: stopSignal !== undefined,
      };
    })();
    running.set(child.pid, { job, done });
    if (job.browser) browsers++;
  };

  try {
    while (queue.length > 0 || running.size > 0) {
      while (stopSignal === undefined) {
        const job = nextJob(queue, { total: running.size, browsers }, options);
        if (job === undefined) break;
        start(job);
      }
      if (running.size === 0) break; // stopped, nothing left running
      const [pgid, result] = await Promise.race(
        [...running].map(([pgid, entry]) => entry.done.then((result) => [pgid, result] as const)),
      );
      running.delete(pgid);
      if (result.job.browser) browsers--;
      finished.push(result);
      report(result, live);
    }
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }

  // Proof: every group this run started is gone (each was ended and checked as its job finished).
  const seconds = (performance.now() - started) / 1000;
  const suites: string[] = [];
  const times: Record<string, { seconds: number; code: number }> = {};
  for (const result of finished.sort((a, b) => a.job.name.localeCompare(b.job.name))) {
    times[result.job.name] = { seconds: Math.round(result.seconds * 10) / 10, code: result.code };
    const xml = result.job.junit ? await Deno.readTextFile(result.job.junit).catch(() => "") : "";
    suites.push(...junitSuites(xml));
    const file = result.job.junit ? result.job.name : "tools/run_tests.ts";
    if (result.code !== 0 && !junitHasFailure(xml)) {
      const what = result.interrupted ? `interrupted (${stopSignal})` : `exited ${result.code}`;
      suites.push(
        failureSuite(file, `${result.job.name}: ${what}`, `${result.job.name} ${what}`, result.output),
      );
    }
    if (result.leftovers) {
      suites.push(failureSuite(
        file,
        `${result.job.name}: no process left in its group`,
        `${result.job.name} left a process in its group after it ended (killed)`,
      ));
    }
  }
  const notRun = queue.map((job) => job.name);
  for (const name of notRun) {
    suites.push(failureSuite(name, `${name}: not run`, `not run: the run was stopped by ${stopSignal}`));
  }
  await Deno.writeTextFile(JUNIT, mergeSuites(suites, seconds));
  await Deno.writeTextFile(
    TIMES,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        seconds: Math.round(seconds),
        load: [loadAtStart, loadAverage()],
        times,
      },
      null,
      2,
    ) + "\n",
  );
  await Deno.remove(PARTS, { recursive: true }).catch(() => {});

  const failed = finished.filter((result) => result.code !== 0 || result.leftovers);
  const slowest = [...finished].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  if (!live && finished.length > 1) {
    console.log(`\nslowest: ${slowest.map((r) => `${r.job.name} ${r.seconds.toFixed(0)} s`).join(", ")}`);
    console.log(
      `${finished.length} job(s) in ${seconds.toFixed(0)} s, ${options.jobs} at a time; ` +
        `${failed.length} failed${notRun.length ? `, ${notRun.length} not run` : ""}; ${JUNIT}`,
    );
    // The end of a long log is what a CI page keeps: each failure's reason again, short, last.
    for (const result of failed) console.log(`\n${result.job.name}: ${failureRecap(result.output)}`);
  }
  if (stopSignal !== undefined) return stopSignal === "SIGINT" ? 130 : 143;
  return failed.length > 0 ? 1 : 0;
}

/**
 * What a failed file's output says went wrong, short: the `ERRORS` block deno test prints (the assertion and
 * where), without colours, at most `limit` characters; else the output's last lines.
 *
 * @example
 * ```ts
 * const recap = failureRecap("ok 1\n\n ERRORS \n\nbroken => ./a_test.ts:2:6\nerror: Error: no\n\n FAILURES \n");
 * console.assert(recap.startsWith("broken => ./a_test.ts:2:6"));
 * ```
 */
export function failureRecap(output: string, limit = 2_000): string {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const errors = /^ ERRORS $([\s\S]*?)(?:^ FAILURES $|$(?![\s\S]))/m.exec(plain)?.[1]?.trim();
  const text = errors || plain.trimEnd().split("\n").slice(-15).join("\n");
  return text.length > limit ? `${text.slice(0, limit)} […]` : text;
}

function report(result: Finished, live: boolean): void {
  if (live) return;
  const ok = result.code === 0 && !result.leftovers;
  // deno-lint-ignore no-control-regex
  const counts = result.output.replace(/\x1b\[[0-9;]*m/g, "").match(/^(?:ok|FAILED) \| (.*?) \(/m)?.[1] ?? "";
  console.log(
    `${ok ? "ok    " : "FAILED"} ${result.seconds.toFixed(1).padStart(6)} s  ${result.job.name}  ${counts}`,
  );
  if (!ok) {
    console.log(result.output);
    if (result.leftovers) console.log(`${result.job.name}: a process was left in its group after it ended`);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
