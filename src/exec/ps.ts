/**
 * Process listings through the `ps` binary: Deno refuses to read `/proc` under the harness's permission set
 * (`--allow-all` only), and `ps` is on its run list. A tier ends dozens of hosts at once, each polling whether
 * its group is gone; {@linkcode freshListing} lets them all share one `ps` instead of spawning one each.
 *
 * @module
 */

/** The output of `ps ARGS…`, or `null` when it cannot be run or fails. */
export async function ps(args: readonly string[]): Promise<string | null> {
  try {
    // Detached: a Ctrl-C to the harness's group must not kill the listing and make a live process look gone.
    const { stdout, success } = await new Deno.Command("ps", {
      args: [...args],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      detached: true,
    }).output();
    return success ? new TextDecoder().decode(stdout) : null;
  } catch {
    return null;
  }
}

/**
 * A function that resolves to a listing by `ps ARGS…` begun after the call. Concurrent callers share one: a
 * caller that comes while a listing runs (begun before it asked, so possibly older than what it waits for)
 * shares the next, begun when that one ends.
 */
export function freshListing(args: readonly string[]): () => Promise<string | null> {
  let running: Promise<string | null> | null = null;
  let next: Promise<string | null> | null = null;
  const start = () => running = ps(args).finally(() => running = null);
  return () => {
    if (next) return next;
    if (!running) return start();
    next = running.then(() => {
      next = null;
      return start();
    });
    return next;
  };
}
