/**
 * Benchmark child: runs `cat FILE` through the real executor with the claude normaliser, as the harness reads
 * a host's stdout, and prints one JSON line `{bytes, ms, cpuMs, kept, dropped, rawBytes}` (`rawBytes`: the raw
 * stdout text the kept events still carry, counted once per line). Its parent (`bench.ts`)
 * samples this process's peak resident set while it runs.
 *
 * @module
 */
import process from "node:process";
import { execute } from "../../src/exec/executor.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

const file = Deno.args[0];
if (!file) throw new TypeError("Usage: _executor_stream.ts FILE");
const cpu = process.cpuUsage();
const started = performance.now();
const observation = await execute(
  {
    binary: "cat",
    args: [file],
    env: {},
    envAllow: [],
    cleanupPaths: [],
    capabilities: NO_CAPABILITIES,
  },
  {
    host: "bench",
    normalizer: normalizerFor("claude")({ argv: [] }),
    streamShape: { init: "required", terminal: "event" },
    wallTimeoutMs: 600_000,
  },
);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({
  bytes: observation.stdoutBytes,
  ms: performance.now() - started,
  cpuMs: (used.user + used.system) / 1000,
  kept: observation.events.length,
  dropped: observation.dropped.events,
  exitCode: observation.exitCode,
  rawBytes: rawBytes(observation.events),
}));

/** The raw lines the events carry, in bytes; events of one line share it, so each line counts once. */
function rawBytes(events: readonly { raw: string | null }[]): number {
  const encoder = new TextEncoder();
  let total = 0;
  let last: string | null = null;
  for (const { raw } of events) {
    if (raw !== null && raw !== last) total += encoder.encode(raw).length;
    last = raw;
  }
  return total;
}
