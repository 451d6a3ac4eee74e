/**
 * A run's interrupts (src/exec/interrupts.ts) without a whole run: a child program holds them, with the real
 * reaper, around a tracked `sleep` group, as `conformance run` does.
 */
import assert from "node:assert/strict";
import { groupAlive, waitGroupGone } from "../../src/exec/process_group.ts";

const CHILD = decodeURIComponent(new URL("./_interrupts_child.ts", import.meta.url).pathname);
/** What the child needs: it starts `sleep`, `ps` and the reaper. */
const PERMISSIONS = ["--allow-read", "--allow-write", "--allow-env", "--allow-sys", "--allow-run"];
/** A bound against a hang, not a speed target. */
const GONE_WITHIN_MS = 15_000;

/** The child, started in its own group, and its stdout as lines. */
function startChild(args: readonly string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMISSIONS, CHILD, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    detached: true,
  }).spawn();
  const text = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const next = async (): Promise<string> => {
    while (!buffered.includes("\n")) {
      const { value, done } = await text.read();
      assert.ok(!done, `the child's output ended early after ${JSON.stringify(buffered)}`);
      buffered += value;
    }
    const end = buffered.indexOf("\n");
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    return line;
  };
  /** Ends the child's group if it still runs, and closes its pipes. */
  const stop = async () => {
    await child.stdin.close().catch(() => {});
    await text.cancel().catch(() => {});
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
    await child.status;
  };
  return { child, next, stop };
}

/** Reads `ready PGID TAG`: the trap is set and the tracked group runs. */
async function ready(next: () => Promise<string>): Promise<number> {
  const match = /^ready (\d+) (\S+)$/.exec(await next());
  assert.ok(match, "the child says it is ready");
  const pgid = Number(match[1]);
  assert.ok(await groupAlive(pgid), "the tracked group runs");
  return pgid;
}

Deno.test("a first SIGINT aborts with 130 and ends the tracked groups; a second exits 130 at once", async () => {
  const { child, next, stop } = startChild();
  try {
    const pgid = await ready(next);
    Deno.kill(child.pid, "SIGINT");
    assert.equal(await next(), "aborted 130");
    assert.ok(await waitGroupGone(pgid, GONE_WITHIN_MS), "the tracked group went at the first signal");
    Deno.kill(child.pid, "SIGINT");
    const status = await Promise.race([
      child.status,
      new Promise<never>((_, reject) => {
        const timer = setTimeout(
          () => reject(new Error("the second signal did not end the child")),
          GONE_WITHIN_MS,
        );
        child.status.finally(() => clearTimeout(timer));
      }),
    ]);
    assert.equal(status.code, 130, "the second signal exits with the first one's code");
  } finally {
    await stop();
  }
});

Deno.test("SIGTERM aborts with 143; settling and disposing then end the scope", async () => {
  const { child, next, stop } = startChild(["settle"]);
  try {
    await ready(next);
    Deno.kill(child.pid, "SIGTERM");
    assert.deepEqual([await next(), await next(), await next()], ["aborted 143", "settled", "disposed"]);
    await child.stdin.close();
    assert.equal((await child.status).code, 0);
  } finally {
    await stop();
  }
});

Deno.test("an interrupted run's disposal returns once the groups it SIGKILLed have left the process table", async () => {
  // The group's member ignores SIGTERM and holds 2 GiB: after settle's SIGKILL it stays listed, running, while
  // the kernel frees that memory, as a browser's zygotes did past the harness's exit at load.
  const { child, next, stop } = startChild(["settle", "heavy"]);
  try {
    const pgid = await ready(next);
    Deno.kill(child.pid, "SIGINT");
    assert.deepEqual([await next(), await next(), await next()], ["aborted 130", "settled", "disposed"]);
    assert.equal(
      await groupAlive(pgid),
      false,
      "the SIGKILLed group was still listed when the disposal returned",
    );
    await child.stdin.close();
    assert.equal((await child.status).code, 0);
  } finally {
    await stop();
  }
});

Deno.test("without a signal, disposing closes the reaper, which ends the group still listed before the exit", async () => {
  const { child, next, stop } = startChild();
  try {
    const pgid = await ready(next);
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("end\n"));
    assert.deepEqual([await next(), await next()], ["settled", "disposed"]);
    // The child lives on with the reaper's pipe end open to it: only the reaper's orderly close ends the group.
    assert.ok(
      await waitGroupGone(pgid, GONE_WITHIN_MS),
      "the closed reaper ended the group the run still listed",
    );
    await writer.close();
    assert.equal((await child.status).code, 0);
  } finally {
    await stop();
  }
});
