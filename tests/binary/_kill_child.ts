/**
 * Run by kill_fallback_test.ts with a run list that lets `Deno.kill` be refused: starts a process group whose
 * members ignore SIGTERM, ends it through src/exec/process_group.ts, and prints what it saw as JSON.
 */
import { groupAlive, killGroup, signalGroup } from "../../src/exec/process_group.ts";

const child = new Deno.Command("sh", {
  args: ["-c", "trap '' TERM; sleep 60 & trap '' TERM; wait"],
  stdin: "null",
  stdout: "null",
  stderr: "null",
  detached: true,
}).spawn();
await new Promise((resolve) => setTimeout(resolve, 300));
let denoKillRefused = false;
try {
  Deno.kill(-child.pid, "SIGCONT");
} catch (error) {
  denoKillRefused = error instanceof Deno.errors.NotCapable;
}
const aliveBefore = await groupAlive(child.pid);
const gone = await killGroup(child.pid, { graceMs: 500, verifyMs: 10_000 });
const status = await child.status;
console.log(JSON.stringify({
  pgid: child.pid,
  denoKillRefused,
  aliveBefore,
  gone,
  aliveAfter: await groupAlive(child.pid),
  signal: status.signal,
  signalGone: signalGroup(child.pid, "SIGTERM"),
}));
