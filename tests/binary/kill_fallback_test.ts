/**
 * Under the harness's run list `Deno.kill` is refused (it needs unrestricted run access), so process groups are
 * signalled through the `kill` binary: the group is probed, ended with SIGKILL after SIGTERM is ignored, and
 * verified gone.
 */
import assert from "node:assert/strict";
import { ROOT, runToEnd } from "./_run.ts";
import { waitGroupGone } from "../../src/exec/process_group.ts";

Deno.test("with Deno.kill refused, killGroup ends a SIGTERM-proof group through the kill binary", async () => {
  const { code, stdout, stderr } = await runToEnd(Deno.execPath(), [
    "run",
    "--quiet",
    "--allow-run=sh,kill,ps",
    `${ROOT}tests/binary/_kill_child.ts`,
  ], { timeoutMs: 60_000 });
  assert.equal(code, 0, stderr);
  const seen = JSON.parse(stdout) as {
    pgid: number;
    denoKillRefused: boolean;
    aliveBefore: boolean;
    gone: boolean;
    aliveAfter: boolean;
    signal: string | null;
  };
  assert.equal(seen.denoKillRefused, true, "this test needs Deno.kill to be refused");
  assert.equal(seen.aliveBefore, true);
  assert.equal(seen.gone, true);
  assert.equal(seen.aliveAfter, false);
  assert.equal(seen.signal, "SIGKILL", "SIGTERM was ignored, so SIGKILL ended the leader");
  assert.ok(await waitGroupGone(seen.pgid, 10_000), `group ${seen.pgid} survived`);
});
