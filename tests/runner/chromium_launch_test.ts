/**
 * What a Chromium launch leaves, and how it is found: the browser's own group, plus Debian's crashpad daemons,
 * which start in groups of their own and are found by the launch's private folder on their command line
 * (src/runner/chromium.ts). The close ends them all, and so does the reaper (src/exec/reaper.ts) told only of
 * that folder, as when the harness is killed outright mid-launch.
 */
import assert from "node:assert/strict";
import {
  chromiumPath,
  LAUNCH_MARKER,
  launchChromium,
  type LaunchedBrowser,
} from "../../src/runner/chromium.ts";
import { ps } from "../../src/exec/ps.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { reaperMain } from "../../src/exec/reaper.ts";
import { pollUntil } from "../../src/time.ts";

interface Row {
  readonly pid: number;
  readonly pgid: number;
  readonly args: string;
}

async function processes(): Promise<Row[]> {
  const listing = await ps(["-A", "-o", "pid=,pgid=,stat=,args="]);
  assert.ok(listing !== null, "ps lists processes");
  return listing.split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    // A zombie is gone for every purpose here (its parent has not reaped it yet).
    if (!match || match[3]!.startsWith("Z")) return [];
    return [{ pid: Number(match[1]), pgid: Number(match[2]), args: match[4]! }];
  });
}

/** The launch's folder and the processes naming it, outside the browser's group and in it. */
async function launchProcesses(launched: LaunchedBrowser) {
  const page = await launched.browser.newPage();
  await page.goto("about:blank");
  const rows = await processes();
  const leader = rows.find((row) => row.pid === launched.pid);
  assert.ok(leader, "the browser's pid is listed");
  const folder = new RegExp(`${LAUNCH_MARKER}=(\\S+)`).exec(leader.args)?.[1] ?? "";
  assert.notEqual(folder, "", `the browser carries its launch marker: ${leader.args.slice(0, 300)}`);
  const inGroup = rows.filter((row) => row.pgid === launched.pid);
  const outside = rows.filter((row) => row.args.includes(folder) && row.pgid !== launched.pid);
  return { folder, inGroup, outside };
}

const left = async (folder: string, pgid: number) =>
  (await processes()).filter((row) => row.args.includes(folder) || row.pgid === pgid);

Deno.test({
  name: "a Chromium launch: its group plus crashpad daemons naming its folder, and the close ends them all",
  ignore: Deno.build.os !== "linux" || chromiumPath() === null,
  async fn() {
    const launched = await launchChromium();
    let folder = "";
    try {
      const found = await launchProcesses(launched);
      folder = found.folder;
      assert.ok(
        found.inGroup.length >= 2,
        `the browser started its helpers: ${found.inGroup.length} in its group`,
      );
      // Whatever left the group is a crashpad handler, found by the folder (survivors() lists it).
      assert.deepEqual(
        found.outside.filter((row) => !/chrome_crashpad_handler/.test(row.args)).map((row) => row.args),
        [],
        "only crashpad daemons leave the browser's group",
      );
      const survivors = await launched.survivors();
      for (const row of found.outside) assert.ok(survivors.includes(row.pid), `${row.pid} is a survivor`);
    } finally {
      await launched.close();
    }
    assert.equal(await groupAlive(launched.pid), false, "the group is gone after close");
    assert.deepEqual(await left(folder, launched.pid), [], "nothing of the launch is left");
  },
});

Deno.test({
  name: "the reaper, told only of a launch's folder, ends the browser's group and its crashpad daemons",
  ignore: Deno.build.os !== "linux" || chromiumPath() === null,
  async fn() {
    const launched = await launchChromium();
    try {
      const { folder } = await launchProcesses(launched);
      // The harness's pipe closes with nothing but the folder listed: a SIGKILL before the pid was tracked.
      assert.equal(await reaperMain(new Blob([`+@${folder}\n`]).stream()), 0);
      const gone = await pollUntil(async () => (await left(folder, launched.pid)).length === 0, {
        timeoutMs: 5_000,
        intervalMs: 100,
      });
      assert.ok(gone, `left behind: ${JSON.stringify(await left(folder, launched.pid))}`);
    } finally {
      await launched.close();
    }
  },
});
