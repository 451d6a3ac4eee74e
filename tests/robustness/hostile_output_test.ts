/**
 * Hostile output: a host that floods 1 GiB without a newline, prints 10⁶ tiny lines, writes to stderr only,
 * closes stdout but keeps running, leaves a grandchild that ignores SIGTERM, or exits while its grandchild
 * holds the pipe open. Each runs through the real `conformance run` (a config-file host pointing at
 * `hosts/hostile.sh`), and must end as a FAIL or TIMEOUT with a reason within its deadline, with the harness's
 * peak memory (VmHWM) under 200 MiB and no process of the run left.
 */
import assert from "node:assert/strict";
import { parseReport } from "../../src/report/schema.ts";
import { describeSurvivors, processesTagged, spawnHarness } from "./_harness.ts";

const HOSTILE = decodeURIComponent(new URL("./hosts/hostile.sh", import.meta.url).pathname);
const PEAK_LIMIT_BYTES = 200 * 1024 * 1024;
/** Scales the behaviour tier's 60 s wall and 90 s test deadline down to 6 s and 9 s. */
const MULTIPLIER = 0.1;
const TEST_DEADLINE_MS = 90_000 * MULTIPLIER;
/** Harness start-up, report writing and kill verification on a loaded machine. */
const SLACK_MS = 20_000;

interface Shape {
  readonly name: string;
  /** What the result's message must say (the reason), beyond being a FAIL or TIMEOUT. */
  readonly reason: RegExp;
}

const SHAPES: readonly Shape[] = [
  { name: "flood-no-newline", reason: /over the \d+-byte limit|stopped|did not finish/ },
  { name: "million-lines", reason: /unparsed|expected "init"|did not finish/ },
  { name: "stderr-only", reason: /exit code 1|stopped|did not finish/ },
  { name: "closes-stdout", reason: /signal SIG(TERM|KILL)|did not finish/ },
  { name: "grandchild-ignores-term", reason: /outlived the host's exit/ },
  { name: "grandchild-holds-pipe", reason: /stopped|did not finish/ },
];

function configYaml(): string {
  const hosts = SHAPES.map((shape) =>
    [
      `  - id: hostile-${shape.name}`,
      "    kind: cli",
      `    binary: ${JSON.stringify(HOSTILE)}`,
      "    dialect: claude",
      "    paths:",
      `      streaming: ["{prompt}", "${shape.name}"]`,
    ].join("\n")
  );
  return `hosts:\n${hosts.join("\n")}\n`;
}

const dir = Deno.makeTempDirSync({ prefix: "conformance-hostile-" });
const config = `${dir}/hostile.yaml`;
Deno.writeTextFileSync(config, configYaml());

for (const shape of SHAPES) {
  Deno.test(`hostile host "${shape.name}" ends as a clear result, bounded, leaving nothing`, async () => {
    const out = `${dir}/${shape.name}`;
    const started = performance.now();
    await using harness = spawnHarness([
      "run",
      "--config",
      config,
      "--host",
      `hostile-${shape.name}`,
      "--live",
      "--grep",
      "^cli/behavior/streaming$",
      "--reporter",
      "json",
      "--out",
      out,
      "--timeout-multiplier",
      String(MULTIPLIER),
    ], { alsoRun: [HOSTILE], sampleMs: 25 });
    const exit = await harness.done;
    const elapsed = performance.now() - started;
    const survivors = await processesTagged(harness.runId);
    assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
    assert.equal(
      exit.code,
      1,
      `expected exit 1 (an unexpected result); stderr: ${exit.stderr.slice(0, 2000)}`,
    );
    const report = parseReport(await Deno.readTextFile(`${out}/report.json`), `${out}/report.json`);
    assert.equal(report.results.length, 1);
    const result = report.results[0]!;
    assert.ok(
      result.status === "FAIL" || result.status === "TIMEOUT",
      `expected FAIL or TIMEOUT, got ${result.status}: ${result.message}`,
    );
    assert.match(result.message, shape.reason);
    assert.ok(
      elapsed < TEST_DEADLINE_MS + SLACK_MS,
      `the run took ${Math.round(elapsed)} ms, past the ${TEST_DEADLINE_MS} ms deadline plus slack`,
    );
    const peak = harness.peakRssBytes();
    console.log(
      `${shape.name}: ${result.status} in ${Math.round(elapsed)} ms, harness peak ${
        (peak / 2 ** 20).toFixed(1)
      } MiB`,
    );
    assert.ok(peak > 0, "no VmHWM sample of the harness was taken");
    assert.ok(
      peak < PEAK_LIMIT_BYTES,
      `the harness peaked at ${(peak / 2 ** 20).toFixed(1)} MiB, over the 200 MiB limit`,
    );
  });
}

Deno.test({
  name: "hostile output: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
