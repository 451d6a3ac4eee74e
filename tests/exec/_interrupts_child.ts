/**
 * Run by interrupts_test.ts: holds a run's interrupts (src/exec/interrupts.ts) with the real reaper around a
 * tracked `sleep` group, as `conformance run` does, and says on stdout what it saw: `ready PGID TAG` once
 * trapped, `aborted CODE` when the signal aborted, `settled` and `disposed` as the scope ends. The scope ends
 * when a line arrives on stdin, or when a signal aborted and `settle` is the first argument; the program
 * exits when stdin ends.
 */
import { trapInterrupts } from "../../src/exec/interrupts.ts";
import { trackGroup } from "../../src/exec/process_group.ts";
import { RUN_TAG } from "../../src/exec/run_tag.ts";

// Keeps the program alive while it waits on a signal (a signal listener alone does not).
const alive = setInterval(() => {}, 1_000);
const stdin = Deno.stdin.readable.getReader();
{
  await using interrupts = trapInterrupts();
  // Started after the trap, as a run's hosts are: the reaper hears of its group.
  const sleeper = new Deno.Command("sleep", {
    args: ["60"],
    detached: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  trackGroup(sleeper.pid);
  console.log(`ready ${sleeper.pid} ${RUN_TAG}`);
  const aborted = new Promise<void>((resolve) =>
    interrupts.signal.addEventListener("abort", () => resolve())
  );
  const line = stdin.read();
  await Promise.race([aborted.then(() => console.log(`aborted ${interrupts.exitCode}`)), line]);
  if (interrupts.signal.aborted && Deno.args[0] !== "settle") await new Promise(() => {});
  interrupts.settle();
  console.log("settled");
}
console.log("disposed");
// Lives on until stdin ends: what the disposal ended, it ended before this program's exit closed any pipe.
while (!(await stdin.read()).done) { /* more lines change nothing */ }
clearInterval(alive);
Deno.exit(0);
