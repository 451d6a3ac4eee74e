/**
 * `waitGone` (src/runner/chromium.ts), what an interrupted run's browser close waits on: after it SIGKILLs what
 * is left, it must wait until the listing no longer shows it. A SIGKILLed Chromium process stays listed
 * (running) while the kernel tears its memory down, and at load that took long enough for a check right after
 * the run to count two zygotes as survivors (fresh-clone CI of 2026-12-05). The window is reproduced here
 * deterministically: a real process in its own group is SIGKILLed by `waitGone`, and the listing keeps showing
 * it for a while after it died, as the process table did.
 */
import assert from "node:assert/strict";
import { waitGone } from "../../src/runner/chromium.ts";
import { groupAlive } from "../../src/exec/process_group.ts";

const LISTED_AFTER_DEATH_MS = 400;

Deno.test("waitGone returns only once the processes it killed have left the listing", async () => {
  const child = new Deno.Command("sleep", { args: ["60"], detached: true, stdin: "null" }).spawn();
  const status = child.status;
  let diedAt: number | null = null;
  void status.then(() => diedAt = performance.now());
  let polls = 0;
  // The listing: the child while it lives, and for LISTED_AFTER_DEATH_MS after (a process being torn down).
  const find = () => {
    polls++;
    const listed = diedAt === null || performance.now() - diedAt < LISTED_AFTER_DEATH_MS;
    return Promise.resolve(listed ? [child.pid] : []);
  };
  try {
    // Grace 0, as an interrupted close calls it: one look, then SIGKILL to what is left.
    await waitGone(find, 0);
    assert.ok(diedAt !== null, "waitGone returned before the process it killed had died");
    assert.ok(
      performance.now() - diedAt >= LISTED_AFTER_DEATH_MS,
      "waitGone returned while the killed process was still listed",
    );
    assert.deepEqual(await find(), []);
    assert.ok(polls > 2, `the listing was read ${polls} times: waitGone did not wait on it after the kill`);
    assert.equal((await status).signal, "SIGKILL");
    assert.equal(await groupAlive(child.pid), false);
  } finally {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* gone */ }
    await status;
  }
});

Deno.test("waitGone returns at once when nothing is listed, and kills nothing", async () => {
  let polls = 0;
  await waitGone(() => (polls++, Promise.resolve([])), 10_000);
  assert.equal(polls, 1);
});
