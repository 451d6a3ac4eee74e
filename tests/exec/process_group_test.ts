import assert from "node:assert/strict";
import { groupAlive, killGroup, signalGroup, waitGroupGone } from "../../src/exec/process_group.ts";

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
