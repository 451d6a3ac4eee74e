/**
 * A harness killed outright (SIGKILL: no handler runs) leaves no host behind: its reaper (src/exec/reaper.ts),
 * a process of its own told of every host group, ends them when the harness's pipe closes. And the reaper's
 * own side: what it is told, it ends at EOF; what it was told is gone, it leaves alone.
 */
import assert from "node:assert/strict";
import { ORDERLY_END, reaperMain } from "../../src/exec/reaper.ts";
import { RUN_TAG_ENV } from "../../src/exec/run_tag.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { describeSurvivors, processesTagged, spawnHarness, type TaggedProcess } from "./_harness.ts";

async function hostsOf(runId: string, harnessPid: number): Promise<TaggedProcess[]> {
  return (await processesTagged(runId)).filter((process) => process.pid !== harnessPid);
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test({
  name: "a SIGKILLed harness leaves no host behind: the reaper ends the groups it was told of",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "conformance-reaper-" });
    try {
      // A host that hangs for its wall clock (tens of seconds at x20): nothing ends it but a kill.
      await using harness = spawnHarness([
        "run",
        "--host",
        "fake",
        "--grep",
        "^cli/scripted/wall-clock-hang$",
        "--timeout-multiplier",
        "20",
        "--reporter",
        "json",
        "--out",
        out,
      ]);
      // The hanging host: a process of the run that is still there a second later (a `kill` or `ps` the
      // harness runs is gone by then). Command lines are cut at 200 characters, before "fake-host".
      let earlier = new Set<number>();
      const hosts = await until(async () => {
        const found = await hostsOf(harness.runId, harness.pid);
        const lasting = found.filter((process) => earlier.has(process.pid));
        earlier = new Set(found.map((process) => process.pid));
        if (lasting.length > 0) return lasting;
        await new Promise((resolve) => setTimeout(resolve, 950));
        return undefined;
      }, 30_000);
      if (!hosts) {
        assert.fail(`the hanging host never started: ${(await harness.done).stderr.slice(0, 1000)}`);
      }
      // A supervisor's SIGKILL to the harness alone (its hosts are in groups of their own anyway).
      Deno.kill(harness.pid, "SIGKILL");
      const exit = await harness.done;
      assert.equal(exit.signal, "SIGKILL");
      const survivors = await until(async () => {
        const left = await hostsOf(harness.runId, harness.pid);
        return left.length === 0 ? undefined : left;
      }, 3_000).then(async (left) => left === undefined ? [] : await hostsOf(harness.runId, harness.pid));
      assert.deepEqual(survivors, [], `left behind:\n${describeSurvivors(survivors)}`);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

Deno.test("the reaper ends at EOF every group it was told of and not seen gone, and only those", async () => {
  const lines = "+101\n+102\n-101\n+103\ngarbage\n+1\n+0\n-999\n+104";
  const input = new Blob([lines]).stream();
  const killed: number[] = [];
  const actions = {
    killGroup: (pgid: number) => void killed.push(pgid),
    killProcess: (pid: number) => assert.fail(`no process is marked, yet ${pid} was killed`),
    list: () => assert.fail("no marker was left, yet the reaper listed processes"),
    pause: () => Promise.resolve(),
  };
  assert.equal(await reaperMain(input, actions), 0);
  // 101 was seen gone; 1 and 0 are never a host's group; the last line needs no newline.
  assert.deepEqual(killed.sort(), [102, 103, 104]);
});

Deno.test("the reaper ends at EOF what names a launch folder still listed (a leader with its group, else the process), then removes the folder", async () => {
  const listing = [
    "  500   500 /usr/lib/chromium/chromium --no-sandbox --conformance-launch=/tmp/conformance-chromium-a",
    "  501   500 /usr/lib/chromium/chromium --type=zygote",
    "  600   599 /usr/lib/chromium/chrome_crashpad_handler --database=/tmp/conformance-chromium-a/chromium/Crash Reports",
    "  700   700 /usr/lib/chromium/chromium --conformance-launch=/tmp/conformance-chromium-b",
    "  800   800 /usr/lib/chromium/chromium --conformance-launch=/tmp/conformance-chromium-a-longer",
    "  900   900 sh -c echo /tmp/conformance-chromium-ab",
    " 1000  1000 not a listing line",
  ].join("\n");
  const input = new Blob([
    "+@/tmp/conformance-chromium-a\n+@/tmp/conformance-chromium-b\n-@/tmp/conformance-chromium-b\n",
  ]).stream();
  const groups: number[] = [];
  const processes: number[] = [];
  const removed: string[] = [];
  let lists = 0;
  const actions = {
    killGroup: (pgid: number) => void groups.push(pgid),
    killProcess: (pid: number) => void processes.push(pid),
    list: () => {
      lists++;
      return Promise.resolve(listing);
    },
    pause: () => Promise.resolve(),
    remove: (path: string) => {
      assert.equal(lists, 2, "a folder is removed only after its processes were searched for twice");
      removed.push(path);
      return Promise.resolve();
    },
  };
  assert.equal(await reaperMain(input, actions), 0);
  // The folder still listed goes with its processes; the forgotten one is left alone.
  assert.deepEqual(removed, ["/tmp/conformance-chromium-a"]);
  // Searched twice: a launcher between fork and exec has no marker on its command line at the first search.
  assert.equal(lists, 2);
  // /tmp/…-b was forgotten; a folder matches as a path only (not /tmp/…-a-longer, not /tmp/…-ab).
  assert.deepEqual(groups, [500, 500]);
  assert.deepEqual(processes, [600, 600]);
});

Deno.test({
  name:
    "the reaper SIGKILLs a real process group it knows only by a launch folder on its command line, and removes the folder",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const folder = `/tmp/conformance-reaper-marker-${crypto.randomUUID()}`;
    await Deno.mkdir(`${folder}/profile`, { recursive: true });
    await Deno.writeTextFile(`${folder}/profile/state`, "x");
    // `sh -c SCRIPT NAME`: NAME (naming the folder) is on sh's command line; the group is sh's own.
    const child = new Deno.Command("sh", {
      args: ["-c", "sleep 30; :", `--conformance-launch=${folder}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
    try {
      assert.ok(await groupAlive(child.pid), "the marked group runs");
      assert.equal(await reaperMain(new Blob([`+@${folder}\n`]).stream()), 0);
      const status = await child.status;
      assert.equal(status.signal, "SIGKILL");
      assert.equal(await groupAlive(child.pid), false, "the whole group (sleep too) is gone");
      await assert.rejects(Deno.stat(folder), Deno.errors.NotFound, "the launch's folder is removed with it");
    } finally {
      await Deno.remove(folder, { recursive: true }).catch(() => {});
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
    }
  },
});

Deno.test("the reaper ends at EOF every process whose environment carries the run's tag, and removes the throwaway profile it named", async () => {
  const tag = "0123456789abcdef0123456789abcdef";
  const listing = [
    `  500   500 /usr/lib/chromium/chromium --user-data-dir=/tmp/playwright_chromiumdev_profile-AbC123 HOME=/h ${RUN_TAG_ENV}=${tag}`,
    `  501   500 /usr/lib/chromium/chromium --type=zygote ${RUN_TAG_ENV}=${tag} PATH=/bin`,
    `  600   600 /usr/lib/chromium/chromium --user-data-dir=/home/me/profile ${RUN_TAG_ENV}=${tag}`,
    `  700   700 sleep 30 ${RUN_TAG_ENV}=${tag}0`,
    `  800   800 sleep 30 X${RUN_TAG_ENV}=${tag}`,
    `  900   900 sleep 30 ${RUN_TAG_ENV}=fedcba9876543210fedcba9876543210`,
  ].join("\n");
  const groups: number[] = [];
  const processes: number[] = [];
  const removed: string[] = [];
  const actions = {
    killGroup: (pgid: number) => void groups.push(pgid),
    killProcess: (pid: number) => void processes.push(pid),
    list: () => Promise.resolve(listing),
    pause: () => Promise.resolve(),
    remove: (path: string) => {
      removed.push(path);
      return Promise.resolve();
    },
  };
  assert.equal(await reaperMain(new Blob([""]).stream(), actions, tag), 0);
  // Searched twice (it found some): a leader with its group, a member alone; another tag or a longer one is
  // not the run's.
  assert.deepEqual(groups, [500, 600, 500, 600]);
  assert.deepEqual(processes, [501, 501]);
  // Playwright's throwaway profile goes; a profile the user chose stays.
  assert.deepEqual(removed, ["/tmp/playwright_chromiumdev_profile-AbC123"]);
});

Deno.test("after an orderly end the reaper does not sweep by the run's tag: another run may carry it", async () => {
  const tag = "0123456789abcdef0123456789abcdef";
  const actions = {
    killGroup: (pgid: number) => void assert.fail(`group ${pgid} was killed after an orderly end`),
    killProcess: (pid: number) => void assert.fail(`process ${pid} was killed after an orderly end`),
    list: () => assert.fail("the reaper listed processes after an orderly end"),
    pause: () => Promise.resolve(),
  };
  assert.equal(await reaperMain(new Blob([`+101\n-101\n${ORDERLY_END}\n`]).stream(), actions, tag), 0);
});

Deno.test({
  name:
    "the reaper SIGKILLs a real process group it was never told of, found by the run's tag in its environment",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const tag = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0"))
      .join("");
    const child = new Deno.Command("sh", {
      args: ["-c", "sleep 30; :"],
      env: { [RUN_TAG_ENV]: tag },
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
    try {
      assert.ok(await groupAlive(child.pid), "the tagged group runs");
      assert.equal(await reaperMain(new Blob([""]).stream(), undefined, tag), 0);
      assert.equal((await child.status).signal, "SIGKILL");
      assert.equal(await groupAlive(child.pid), false, "the whole group (sleep too) is gone");
    } finally {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
    }
  },
});
