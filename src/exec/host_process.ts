/**
 * A host's process group: spawned with stdin closed, a projected environment and the spawn's escape tag
 * (src/exec/escapes.ts), in its own group (`detached`), tracked for a second Ctrl-C until disposed; ended as a
 * whole (SIGTERM, then SIGKILL) and verified gone.
 *
 * @module
 */
import { BASELINE_ENV_ALLOW, projectEnv, readEnv } from "./env.ts";
import type { HostInvocation } from "./host_runner.ts";
import { groupAlive, killGroup, trackGroup } from "./process_group.ts";
import { newSpawnTag, SPAWN_TAG_ENV } from "./escapes.ts";
import { runTagEnv } from "./run_tag.ts";
import { holdForTest } from "./test_hold.ts";

/** How a {@linkcode HostProcess} is ended. Times are in milliseconds. */
export interface HostKillOptions {
  /** Between SIGTERM and SIGKILL; 0 sends SIGKILL at once. */
  readonly killGraceMs: number;
  /** How long to poll for the group to be gone after the last signal. */
  readonly verifyGoneMs: number;
  /** The run's abort: once aborted, the grace is cut short (src/exec/process_group.ts). */
  readonly signal?: AbortSignal;
}

/** A spawned host and its process group (pid == pgid). */
export class HostProcess implements Disposable {
  readonly child: Deno.ChildProcess;
  /** The spawn's tag ({@linkcode SPAWN_TAG_ENV}): every process the host starts inherits it. */
  readonly tag: string;
  /** Whether {@linkcode kill} ran. */
  killed = false;
  /** Whether the group was seen gone (after {@linkcode kill} or {@linkcode checkGone}). */
  groupGone = false;
  readonly #untrack: () => void;

  private constructor(child: Deno.ChildProcess, tag: string) {
    this.child = child;
    this.tag = tag;
    this.#untrack = trackGroup(child.pid);
  }

  /**
   * Spawns `invocation`: stdout and stderr piped, stdin closed, the environment projected from `parentEnv`
   * (default: the variables the projection keeps). Throws what `Deno.Command.spawn` throws.
   */
  static spawn(invocation: HostInvocation, parentEnv?: Readonly<Record<string, string>>): HostProcess {
    const tag = newSpawnTag();
    const child = new Deno.Command(invocation.binary, {
      args: [...invocation.args],
      env: {
        ...projectEnv(invocation, parentEnv ?? readEnv([...BASELINE_ENV_ALLOW, ...invocation.envAllow])),
        [SPAWN_TAG_ENV]: tag,
        // The run's tag: the reaper finds the host by it even if the harness dies before telling it the group.
        ...runTagEnv(),
      },
      clearEnv: true,
      ...(invocation.cwd === undefined ? {} : { cwd: invocation.cwd }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    holdForTest("host-spawned", invocation.args.join(" "));
    return new HostProcess(child, tag);
  }

  get pgid(): number {
    return this.child.pid;
  }

  /** Ends the whole group (SIGTERM, grace, SIGKILL) and notes whether it is gone. */
  async kill(options: HostKillOptions): Promise<void> {
    this.killed = true;
    this.groupGone = await killGroup(this.pgid, {
      graceMs: options.killGraceMs,
      verifyMs: options.verifyGoneMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Whether no live member of the group remains, noted in {@linkcode groupGone}. Where the group cannot be
   * probed by a signal, `listing` (lines starting `PID PGID STAT`, taken after this call) tells, if given.
   */
  async checkGone(listing?: () => Promise<string | null>): Promise<boolean> {
    this.groupGone = !(await groupAlive(this.pgid, listing));
    return this.groupGone;
  }

  /** Forgets the group for the second Ctrl-C (src/exec/process_group.ts `killLiveGroups`). */
  [Symbol.dispose](): void {
    this.#untrack();
  }
}
