/**
 * Child of json_test: a run that never ends. It reports a result every 20 ms through the json reporter and
 * prints "result N" after each, until the test kills its process group.
 */
import { JsonReporter } from "../../src/report/json.ts";

const [outDir, checkpointMs] = Deno.args as [string, string];
const reporter = new JsonReporter({
  outDir,
  out: { write: () => {} },
  checkpointMs: Number(checkpointMs),
  secrets: [],
});
reporter.start({
  run: {
    harness: "0.1.0",
    suite: "2026.11.30",
    startedAt: new Date().toISOString(),
    os: "linux",
    deno: Deno.version.deno,
    shard: "1/1",
  },
  hosts: [{ id: "fake", kind: "cli", version: null }],
  total: 1_000_000,
});
for (let n = 1;; n++) {
  reporter.result({
    host: "fake",
    test: `cli/scripted/case-${n}`,
    status: n % 3 === 0 ? "FAIL" : "PASS",
    expected: "PASS",
    message: n % 3 === 0 ? `case ${n} failed with Bearer abc123def456` : "",
    durationMs: 20,
    details: { n },
  });
  console.log(`result ${n}`);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
