/** Process helpers for the report tests: children in their own process group, and proof the group is gone. */
import assert from "node:assert/strict";

/** Whether any process of the group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Waits (generously) until the process group `pgid` has no member left; fails the test otherwise. */
export async function assertGroupGone(pgid: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) assert.fail(`process group ${pgid} is still alive after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A Deno child running `script` in its own process group; disposing kills the group and waits for it. */
export function spawnDeno(
  script: string,
  args: string[],
  permissions: string[],
): Deno.ChildProcess & AsyncDisposable {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...permissions, script, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  return Object.assign(child, {
    async [Symbol.asyncDispose]() {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      await child.status;
      await Promise.allSettled([child.stdout.cancel(), child.stderr.cancel()]);
      await assertGroupGone(child.pid);
    },
  });
}

/** Reads the child's stdout line by line until `predicate` holds for a line. */
export async function waitForLine(
  child: Deno.ChildProcess,
  predicate: (line: string) => boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => reader.cancel("timed out"), timeoutMs);
  let buffer = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) assert.fail(`child ended before printing the expected line; got: ${buffer}`);
      buffer += value;
      if (buffer.split("\n").some(predicate)) return;
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}
