/**
 * Run by interrupts_test.ts: holds a run's interrupts (src/exec/interrupts.ts) with the real reaper around a
 * tracked `sleep` group, as `conformance run` does, and says on stdout what it saw: `ready PGID TAG` once
 * trapped, `aborted CODE` when the signal aborted, `settled` and `disposed` as the scope ends. The scope ends
 * when a line arrives on stdin, or when a signal aborted and `settle` is the first argument; the program
 * exits when stdin ends. With `heavy` among the arguments the group is a Deno program that ignores SIGTERM and
 * holds 2 GiB it has written: SIGKILLed, it stays listed, running, while the kernel frees that memory.
 */
import { trapInterrupts } from "../../src/exec/interrupts.ts";
import { trackGroup } from "../../src/exec/process_group.ts";
import { RUN_TAG } from "../../src/exec/run_tag.ts";

/** The `heavy` member, once its memory is written. */
async function heavy(): Promise<Deno.ChildProcess> {
  const code = 'Deno.addSignalListener("SIGTERM", () => {}); new Uint8Array(2 ** 31).fill(1); ' +
    'console.log("filled"); setInterval(() => {}, 1_000);';
  const member = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    detached: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = member.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("filled")) {
    const { value, done } = await lines.read();
    if (done) throw new Error("the heavy member ended before it had filled its memory");
    text += value;
  }
  void lines.cancel();
  return member;
}

// Keeps the program alive while it waits on a signal (a signal listener alone does not).
const alive = setInterval(() => {}, 1_000);
const stdin = Deno.stdin.readable.getReader();
{
  await using interrupts = trapInterrupts();
  // Started after the trap, as a run's hosts are: the reaper hears of its group.
  const sleeper = Deno.args.includes("heavy") ? await heavy() : new Deno.Command("sleep", {
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
  if (interrupts.signal.aborted && !Deno.args.includes("settle")) await new Promise(() => {});
  interrupts.settle();
  console.log("settled");
}
console.log("disposed");
// Lives on until stdin ends: what the disposal ended, it ended before this program's exit closed any pipe.
while (!(await stdin.read()).done) { /* more lines change nothing */ }
clearInterval(alive);
Deno.exit(0);
