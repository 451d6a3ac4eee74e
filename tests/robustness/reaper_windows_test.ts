/**
 * The windows a supervisor's SIGKILL could slip through, each reproduced at the exact point rather than by a
 * timer: the harness is held there (src/exec/test_hold.ts) and SIGKILLed, and no process of the run and no
 * launch folder may be left once its reaper (src/exec/reaper.ts) has swept. Each failed before the run's tag
 * (src/exec/run_tag.ts) and the reaper kept to an interrupted run's end:
 * - a host spawned, its group not yet told to the reaper: the host outlived the harness;
 * - Chromium up, its group not yet tracked: found by its launch folder, but Playwright's artifacts folder
 *   (`playwright-artifacts-*`, on no command line) was left in the temp folder;
 * - an interrupted run writing its reports: the reaper had been told the run was over as its teardown returned
 *   and had exited, so whatever that bounded teardown was still ending (a browser launch settling, a host a
 *   driver started late) outlived a SIGKILL there.
 */
import assert from "node:assert/strict";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { TEST_HOLD_ENV } from "../../src/exec/test_hold.ts";
import { describeSurvivors, type HarnessProcess, processesTagged, spawnHarness } from "./_harness.ts";

const LINUX = Deno.build.os === "linux";
/** Against a hang only: how long the harness may take to reach the point, and the reaper to sweep. */
const REACH_MS = 90_000;
const SWEEP_MS = 30_000;
const HANG = ["--host", "fake", "--grep", "^cli/scripted/wall-clock-hang$", "--timeout-multiplier", "20"];

/** Resolves once the held harness has written `file` (it is then blocked for good); throws if it exits first. */
async function held(harness: HarnessProcess, file: string): Promise<void> {
  let exited = false;
  harness.done.then(() => exited = true, () => exited = true);
  const deadline = performance.now() + REACH_MS;
  for (;;) {
    try {
      if ((await Deno.readTextFile(file)).trim() === String(harness.pid)) return;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (exited) assert.fail(`the run exited before the hold: ${(await harness.done).stderr.slice(0, 1000)}`);
    if (performance.now() > deadline) assert.fail(`the run never reached the hold (${file})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGKILLs the harness alone (a supervisor's `kill -9 PID`) and waits until no process of the run is left. */
async function killAndSweep(harness: HarnessProcess): Promise<void> {
  Deno.kill(harness.pid, "SIGKILL");
  assert.equal((await harness.done).signal, "SIGKILL");
  const deadline = performance.now() + SWEEP_MS;
  for (;;) {
    const left = await processesTagged(harness.runId);
    if (left.length === 0) return;
    if (performance.now() > deadline) assert.fail(`left behind:\n${describeSurvivors(left)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** A hold file and an `--out` folder, removed after. */
async function withFolder(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "conformance-reaper-window-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name:
    "SIGKILL right after a host's spawn, before the reaper is told its group: the host is swept by the run's tag",
  ignore: !LINUX,
  fn: () =>
    withFolder(async (dir) => {
      await using harness = spawnHarness(["run", ...HANG, "--reporter", "json", "--out", `${dir}/out`], {
        env: { [TEST_HOLD_ENV]: `host-spawned~stream-json@${dir}/hold` },
      });
      await held(harness, `${dir}/hold`);
      const host = (await processesTagged(harness.runId)).filter((process) => process.pid !== harness.pid);
      assert.ok(host.length > 0, "the held harness has a host running");
      await killAndSweep(harness);
    }),
});

Deno.test({
  name:
    "SIGKILL with Chromium up and its group untracked: no browser process, no launch folder, no Playwright artifacts folder",
  ignore: !LINUX || chromiumPath() === null,
  fn: () =>
    withFolder(async (dir) => {
      await using harness = spawnHarness([
        "run",
        "--host",
        "reference",
        "--reporter",
        "json",
        "--out",
        `${dir}/out`,
      ], {
        env: { [TEST_HOLD_ENV]: `browser-launched@${dir}/hold` },
      });
      await held(harness, `${dir}/hold`);
      const browser = (await commandLines(harness)).find((command) =>
        command.includes("--conformance-launch=")
      );
      const launch = browser === undefined ? undefined : /--conformance-launch=(\S+)/.exec(browser)?.[1];
      assert.ok(launch !== undefined, "the held run's browser names its launch folder");
      const profile = /--user-data-dir=(\S+)/.exec(browser!)?.[1];
      assert.ok(
        profile !== undefined && await exists(profile),
        "the held run's browser has Playwright's profile",
      );
      assert.ok(await exists(`${launch}/artifacts`), "Playwright's artifacts go inside the launch folder");
      await killAndSweep(harness);
      for (const folder of [launch, profile]) {
        const deadline = performance.now() + SWEEP_MS;
        while (await exists(folder) && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(await exists(folder), false, `${folder} is removed`);
      }
    }),
});

Deno.test({
  name: "SIGKILL as an interrupted run exits, its reports written: the reaper is still there and sweeps",
  ignore: !LINUX,
  fn: () =>
    withFolder(async (dir) => {
      await using harness = spawnHarness(["run", ...HANG, "--reporter", "json", "--out", `${dir}/out`], {
        env: { [TEST_HOLD_ENV]: `interrupted-reports-written@${dir}/hold` },
      });
      // The hanging host is running: interrupt it, as a terminal's Ctrl-C does.
      const started = performance.now() + REACH_MS;
      while (!(await commandLines(harness)).some((command) => command.includes("stream-json"))) {
        assert.ok(performance.now() < started, "the hanging host never started");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      Deno.kill(-harness.pid, "SIGINT");
      await held(harness, `${dir}/hold`);
      const reaper = await reaperOf(harness.pid);
      assert.ok(reaper !== null, "the interrupted run's reaper is alive while the harness is");
      // Told nothing more, it stays: only the harness's exit ends it (the old one exited once the teardown
      // returned, and was gone by the time the reports were written).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.ok(await alive(reaper), "the reaper left before the harness exited");
      await killAndSweep(harness);
      const deadline = performance.now() + SWEEP_MS;
      while (await alive(reaper) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(await alive(reaper), false, "the reaper exits once it has swept");
    }),
});

/** The whole command lines of the run's processes other than the harness (`processesTagged` cuts them). */
async function commandLines(harness: HarnessProcess): Promise<string[]> {
  const pids = (await processesTagged(harness.runId)).map(({ pid }) => pid).filter((pid) =>
    pid !== harness.pid
  );
  if (pids.length === 0) return [];
  const { stdout } = await new Deno.Command("ps", {
    args: ["-ww", "-o", "args=", "-p", pids.join(",")],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n").filter((line) => line !== "");
}

/** The pid of the reaper the harness `pid` started (`… main.ts __reaper TAG`), or null. */
async function reaperOf(pid: number): Promise<number | null> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-ww", "-o", "pid=,args=", "--ppid", String(pid)],
    stdout: "piped",
    stderr: "null",
  }).output();
  const line = new TextDecoder().decode(stdout).split("\n").find((row) => / __reaper\b/.test(row));
  return line === undefined ? null : Number(line.trim().split(/\s+/)[0]);
}

async function alive(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-o", "stat=", "-p", String(pid)],
    stdout: "piped",
    stderr: "null",
  }).output();
  const state = new TextDecoder().decode(stdout).trim();
  return state !== "" && !state.startsWith("Z");
}
