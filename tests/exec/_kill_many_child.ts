/**
 * Run by process_group_test.ts with a run list under which `Deno.kill` is refused (as under the harness's
 * permission set): starts `GROUPS` process groups, ends them all at once with killGroup (as an abort ends a
 * tier's hosts), and prints as JSON whether they went, how many synchronous spawns (`outputSync`, which
 * blocks the event loop for a whole process run) the ending took, and how late a 5 ms timer ran meanwhile
 * (shown, not judged: on a loaded machine it measures the load).
 */
import { groupAlive, killGroup } from "../../src/exec/process_group.ts";

const GROUPS = Number(Deno.args[0] ?? 16);
const children = Array.from({ length: GROUPS }, () =>
  new Deno.Command("sh", {
    args: ["-c", "sleep 60 & wait"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn());
await new Promise((resolve) => setTimeout(resolve, 300));
let denoKillRefused = false;
try {
  Deno.kill(-children[0]!.pid, "SIGCONT");
} catch (error) {
  denoKillRefused = error instanceof Deno.errors.NotCapable;
}
let syncSpawns = 0;
const outputSync = Deno.Command.prototype.outputSync;
Deno.Command.prototype.outputSync = function (this: Deno.Command) {
  syncSpawns++;
  return outputSync.call(this);
};
let last = performance.now();
let maxLagMs = 0;
const ticker = setInterval(() => {
  const now = performance.now();
  maxLagMs = Math.max(maxLagMs, now - last - 5);
  last = now;
}, 5);
const gone = await Promise.all(
  children.map((child) => killGroup(child.pid, { graceMs: 2_000, verifyMs: 5_000 })),
);
clearInterval(ticker);
Deno.Command.prototype.outputSync = outputSync;
await Promise.all(children.map((child) => child.status));
const alive = await Promise.all(children.map((child) => groupAlive(child.pid)));
console.log(JSON.stringify({
  denoKillRefused,
  allGone: gone.every(Boolean) && !alive.some(Boolean),
  syncSpawns,
  maxLagMs: Math.round(maxLagMs),
}));
