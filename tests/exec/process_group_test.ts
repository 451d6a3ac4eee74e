import assert from "node:assert/strict";
import { groupAlive, killGroup, signalGroup, waitGroupGone } from "../../src/exec/process_group.ts";

const CHILD = decodeURIComponent(new URL("./_kill_many_child.ts", import.meta.url).pathname);

Deno.test("signalling a process group id <= 1 (or not an integer) is refused", () => {
  for (const pgid of [1, 0, -1, -42, 1.5, Number.NaN]) {
    assert.throws(() => signalGroup(pgid, "SIGKILL"), RangeError, `pgid ${pgid} must be refused`);
  }
});

Deno.test("killGroup ends a group with grandchildren that ignore SIGTERM, and the group is verified gone", async () => {
  // The shell ignores TERM and so do its children: only the SIGKILL after the grace ends them.
  const child = new Deno.Command("sh", {
    args: ["-c", "trap '' TERM; sleep 30 & sleep 30 & wait"],
    detached: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const status = child.status;
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(await groupAlive(child.pid), true);
  const gone = await killGroup(child.pid, { graceMs: 200, verifyMs: 5_000 });
  assert.equal(gone, true);
  assert.equal((await status).signal, "SIGKILL");
  assert.equal(await groupAlive(child.pid), false);
  // Orphaned grandchildren may linger as zombies when the container's init does not reap them: signalling
  // them is harmless, and they count as gone.
  assert.equal(typeof signalGroup(child.pid, "SIGTERM"), "boolean");
});

Deno.test("a group whose leader exited on its own is gone without any signal", async () => {
  const child = new Deno.Command("true", { detached: true, stdin: "null", stdout: "null", stderr: "null" })
    .spawn();
  await child.status;
  assert.equal(await waitGroupGone(child.pid, 2_000), true);
});

Deno.test("with Deno.kill refused, ending many groups at once shares one `kill` per signal and never blocks the event loop", async () => {
  // A `kill` on PATH that logs each run, then signals as the real one: how many the executor spawned.
  const dir = await Deno.makeTempDir({ prefix: "conformance-kill-many-" });
  try {
    const log = `${dir}/runs.log`;
    await Deno.writeTextFile(`${dir}/kill`, `#!/bin/sh\necho "$*" >> '${log}'\nexec /bin/kill "$@"\n`);
    await Deno.chmod(`${dir}/kill`, 0o755);
    const groups = 16;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--allow-run=sh,kill,ps", CHILD, String(groups)],
      env: { PATH: `${dir}:${Deno.env.get("PATH") ?? ""}` },
      stdin: "null",
    }).output();
    const text = new TextDecoder();
    assert.equal(code, 0, text.decode(stderr));
    const seen = JSON.parse(text.decode(stdout)) as {
      denoKillRefused: boolean;
      allGone: boolean;
      syncSpawns: number;
      maxLagMs: number;
    };
    assert.equal(seen.denoKillRefused, true, "this test needs Deno.kill to be refused");
    assert.equal(seen.allGone, true, "every group must be gone");
    const terms = (await Deno.readTextFile(log)).split("\n").filter((line) => line.startsWith("-s TERM"));
    assert.ok(
      terms.length <= 2,
      `${groups} groups took ${terms.length} \`kill -s TERM\` runs:\n${terms.join("\n")}`,
    );
    assert.ok(terms.join(" ").split(" -").length - 1 >= groups, `not every group was signalled: ${terms}`);
    // A synchronous `kill` per group stalls every timer for the whole series of spawns: counted, not timed
    // (a timer's lateness on a shared machine measures its load as much as the code).
    assert.equal(
      seen.syncSpawns,
      0,
      `ending the groups ran ${seen.syncSpawns} synchronous spawn(s); a 5 ms timer ran ${seen.maxLagMs} ms late`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
