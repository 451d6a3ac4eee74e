/**
 * Test helpers that run the `conformance` command as a real subprocess, in its own process group, tagged with
 * a fresh {@linkcode RUN_ID_ENV} so every process it starts can be found afterwards in `/proc/<pid>/environ`,
 * and that sample its peak memory (VmHWM) while it runs.
 *
 * @module
 */
import { RUN_ID_ENV } from "../../src/exec/env.ts";
import { permissionFlags } from "../../src/permissions.ts";

const MAIN_TS = decodeURIComponent(new URL("../../main.ts", import.meta.url).pathname);

/**
 * The argv that runs `conformance ARGS…` from source with the harness's own permission set, widened by
 * `alsoRun` (programs a config-file host needs, as `deno task compile --also-run` would).
 */
export function conformanceArgv(
  args: readonly string[],
  alsoRun: readonly string[] = [],
): { binary: string; args: string[] } {
  return { binary: Deno.execPath(), args: ["run", "--quiet", ...permissionFlags(alsoRun), MAIN_TS, ...args] };
}

/** A running `conformance` process; disposing it kills its group and every tagged survivor. */
export interface HarnessProcess extends AsyncDisposable {
  /** The harness pid, which is also its process group id. */
  readonly pid: number;
  /** The run id every process of this run carries in its environment. */
  readonly runId: string;
  /** Resolves when the harness exits, with its output. */
  readonly done: Promise<HarnessExit>;
  /** Resolves at the first byte on stdout (or at exit): for `run`, the reporters have started. */
  readonly firstOutput: Promise<void>;
  /** What the harness has printed on stdout so far. */
  stdoutSoFar(): string;
  /**
   * The highest VmHWM (peak resident set) sampled so far, in bytes; sampling runs until exit. Throws unless
   * the harness was spawned with `sampleMs`: a peak nobody sampled is not 0.
   */
  peakRssBytes(): number;
}

/** How the harness ended. */
export interface HarnessExit {
  readonly code: number;
  readonly signal: Deno.Signal | null;
  readonly stdout: string;
  readonly stderr: string;
  /** `performance.now()` when the process exited (from `runDetached`: once its output was read). */
  readonly exitedAt: number;
}

/** Options of {@linkcode spawnHarness}. */
export interface SpawnHarnessOptions {
  /** Extra environment over the test's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** Programs beyond the harness's run permission (config-file hosts), by path. */
  readonly alsoRun?: readonly string[];
  /**
   * Between VmHWM samples, for {@linkcode HarnessProcess.peakRssBytes}. No sampling when absent: the sampler
   * forks a `grep` every interval, load that a test which does not read the peak should not add.
   */
  readonly sampleMs?: number;
}

/**
 * Starts `conformance ARGS…` detached (its own process group, like a shell job), stdin closed.
 *
 * @example
 * ```ts ignore
 * await using harness = spawnHarness(["run", "--host", "fake"]);
 * const exit = await harness.done;
 * ```
 */
export function spawnHarness(args: readonly string[], options: SpawnHarnessOptions = {}): HarnessProcess {
  const runId = `soak-${crypto.randomUUID()}`;
  const argv = conformanceArgv(args, options.alsoRun);
  const child = new Deno.Command(argv.binary, {
    args: argv.args,
    env: { NO_COLOR: "1", ...options.env, [RUN_ID_ENV]: runId },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const pid = child.pid;
  const sampler = options.sampleMs === undefined ? null : sampleVmHwm(pid, options.sampleMs);
  const firstOutput = Promise.withResolvers<void>();
  let stdoutText = "";
  const readStdout = async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      stdoutText += chunk;
      firstOutput.resolve();
    }
    firstOutput.resolve();
    return stdoutText;
  };
  const done = (async (): Promise<HarnessExit> => {
    let exitedAt = 0;
    const [status, stdout, stderr] = await Promise.all([
      child.status.then((status) => {
        exitedAt = performance.now();
        return status;
      }),
      readStdout(),
      new Response(child.stderr).text(),
    ]);
    await sampler?.stopped;
    return { code: status.code, signal: status.signal, stdout, stderr, exitedAt };
  })();
  const dispose = async () => {
    try {
      Deno.kill(-pid, "SIGKILL");
    } catch {
      // Already gone: the normal case.
    }
    await done.catch(() => {});
    sampler?.stop();
    killProcesses(await processesTagged(runId));
  };
  return {
    pid,
    runId,
    done,
    firstOutput: firstOutput.promise,
    stdoutSoFar: () => stdoutText,
    peakRssBytes: () => {
      if (sampler === null) {
        throw new Error("peakRssBytes: spawn the harness with sampleMs to sample its peak");
      }
      return sampler.peak;
    },
    [Symbol.asyncDispose]: dispose,
  };
}

/**
 * Runs `conformance ARGS…` as {@linkcode spawnHarness} does, to its end, and then cleans up after it.
 *
 * @example
 * ```ts ignore
 * const { code, stdout } = await runHarness(["doctor", "--json"], { env: { CONFORMANCE_HOSTS_DIR: cache } });
 * ```
 */
export async function runHarness(
  args: readonly string[],
  options: SpawnHarnessOptions = {},
): Promise<HarnessExit> {
  await using harness = spawnHarness(args, options);
  return await harness.done;
}

/** Options of {@linkcode runDetached}. */
export interface RunDetachedOptions {
  /** Extra environment over the test's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** The working folder; the test's own when absent. */
  readonly cwd?: string;
}

/**
 * Runs `binary ARGS…` in its own process group with stdin closed, to its end, and decodes its output: for a
 * command line {@linkcode conformanceArgv} does not build (a narrower permission set, a shell).
 *
 * @example
 * ```ts ignore
 * const { code, stdout } = await runDetached("sh", ["-c", "echo ok"]);
 * ```
 */
export async function runDetached(
  binary: string,
  args: readonly string[],
  options: RunDetachedOptions = {},
): Promise<HarnessExit> {
  const output = await new Deno.Command(binary, {
    args: [...args],
    ...(options.env === undefined ? {} : { env: { ...options.env } }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).output();
  const exitedAt = performance.now();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    exitedAt,
    code: output.code,
    signal: output.signal,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr),
  };
}

/** A running VmHWM sampler: `peak` only grows; `stopped` resolves once the process is gone. */
export interface VmHwmSampler {
  readonly peak: number;
  readonly stopped: Promise<void>;
  stop(): void;
}

/**
 * Samples the peak resident set (VmHWM, a high-water mark) of `pid` every `intervalMs` until it exits. Deno
 * refuses to read `/proc` without --allow-all, so one small shell loop reads it and streams the values.
 */
export function sampleVmHwm(pid: number, intervalMs: number): VmHwmSampler {
  return sampleStatusPeak(pid, "VmHWM", intervalMs);
}

/**
 * The largest value of a kB field of `/proc/<pid>/status` (`VmHWM`, `RssAnon`, …) sampled every `intervalMs`
 * until `pid` exits, in bytes.
 */
export function sampleStatusPeak(pid: number, field: string, intervalMs: number): VmHwmSampler {
  if (!/^[A-Za-z]+$/.test(field)) throw new RangeError(`not a /proc status field: ${field}`);
  const script = `while grep "^$3:" "/proc/$1/status" 2>/dev/null; do sleep "$2"; done`;
  const child = new Deno.Command("sh", {
    args: ["-c", script, "sh", String(pid), String(intervalMs / 1000), field],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const sampler = {
    peak: 0,
    stopped: Promise.resolve(),
    stop() {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
  sampler.stopped = (async () => {
    const text = child.stdout.pipeThrough(new TextDecoderStream());
    let rest = "";
    for await (const chunk of text) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const kb = Number(/(\d+)\s*kB/.exec(line)?.[1] ?? 0);
        if (kb * 1024 > sampler.peak) sampler.peak = kb * 1024;
      }
    }
    await child.status;
  })();
  return sampler;
}

/** A process found by {@linkcode processesTagged}. */
export interface TaggedProcess {
  readonly pid: number;
  /** Its command line, for the failure message. */
  readonly command: string;
  /** Its `ps` state (zombies are not listed: their environment is gone). */
  readonly state: string;
}

/**
 * Every live process whose environment carries `RUN_ID_ENV=runId`. Linux only: `grep -z` reads
 * `/proc/<pid>/environ` (which needs the same user, or root) because Deno refuses `/proc` without --allow-all.
 */
export async function processesTagged(runId: string): Promise<TaggedProcess[]> {
  const marker = `${RUN_ID_ENV}=${runId}`;
  const grep = await new Deno.Command("sh", {
    detached: true,
    args: ["-c", 'grep -lzxF -e "$1" /proc/[0-9]*/environ 2>/dev/null; true', "sh", marker],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const pids = new TextDecoder().decode(grep.stdout).split("\n")
    .map((path) => Number(/^\/proc\/(\d+)\/environ$/.exec(path)?.[1]))
    .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
  if (pids.length === 0) return [];
  const ps = await new Deno.Command("ps", {
    detached: true,
    args: ["-o", "pid=,stat=,args=", "-p", pids.join(",")],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(ps.stdout).split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!match || match[2]!.startsWith("Z")) return [];
    return [{ pid: Number(match[1]), state: match[2]!, command: match[3]!.slice(0, 200) }];
  });
}

/** SIGKILLs the given processes (found by their run tag, so ours); ignores those already gone. */
export function killProcesses(processes: readonly TaggedProcess[]): void {
  for (const { pid } of processes) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Text for a failure message: the survivors, one per line. */
export function describeSurvivors(processes: readonly TaggedProcess[]): string {
  return processes.map((p) => `  pid ${p.pid} [${p.state}] ${p.command}`).join("\n");
}
