/** Helpers for the binary tests: a child in its own process group, run to its end, and proof the group is gone. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { killGroup, waitGroupGone } from "../../src/exec/process_group.ts";

/** The repository root, as a path. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What a finished child left behind. */
export interface Finished {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run one child. */
export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  /** Start from an empty environment: only `env` is passed. */
  readonly clearEnv?: boolean;
  /** Killed (whole group) after this long; the test then fails. */
  readonly timeoutMs?: number;
}

/**
 * Runs `binary args…` detached with no stdin, waits for it, then proves its process group is gone. A child
 * still running at the deadline is killed with its group and the test fails.
 */
export async function runToEnd(binary: string, args: string[], options: RunOptions = {}): Promise<Finished> {
  const child = new Deno.Command(binary, {
    args,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    clearEnv: options.clearEnv ?? false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const timeoutMs = options.timeoutMs ?? 240_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid, { graceMs: 1_000, verifyMs: 10_000 }).catch(() => {});
  }, timeoutMs);
  try {
    const output = await child.output();
    const finished = {
      code: output.code,
      stdout: new TextDecoder().decode(output.stdout),
      stderr: new TextDecoder().decode(output.stderr),
    };
    assert.ok(!timedOut, `"${binary} ${args.join(" ")}" ran past ${timeoutMs} ms:\n${finished.stderr}`);
    return finished;
  } finally {
    clearTimeout(timer);
    assert.ok(await waitGroupGone(child.pid, 15_000), `process group ${child.pid} outlived its leader`);
  }
}

/** A fresh empty folder; disposing removes it. */
export async function tempFolder(prefix: string): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
