/**
 * SIGINT in each phase of a run ends it (no hang: {@linkcode STOP_HANG_MS}; how fast is the bench's) with
 * every report written and no process of the run left: while the first host process spawns,
 * while a host streams (a hang at `--timeout-multiplier 20`), while Chromium launches, while the browser
 * host's teardown would save a `--trace` (an interrupted teardown saves none: it is bounded), while the MCP
 * Inspector starts and while its UI opens in the browser. The post-terminal and kill
 * graces are `interrupt_grace_test.ts`'s, the mock-model tier is `interrupt_results_test.ts`'s, and the soak
 * (`interrupt_soak_test.ts`) does the statistics.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { shimPath } from "../../hosts/installed.ts";
import { detectBinary } from "../../hosts/installed.ts";
import { parseReport } from "../../src/report/schema.ts";
import { describeSurvivors, type HarnessProcess, spawnHarness, type TaggedProcess } from "./_harness.ts";
import { interrupt, INTERRUPTED, STOP_HANG_MS, waitForProcess } from "./_interrupt.ts";

const dir = Deno.makeTempDirSync({ prefix: "conformance-interrupt-phases-" });

/**
 * A fake host: the harness re-invoked (`conformance fake-host`), its command line too long for `fake-host` to
 * show in the listing, so told apart from the harness by its pid.
 */
const FAKE_HOST = (process: TaggedProcess) => /^\S*(deno|\/proc\/self\/exe)\s/.test(process.command);

/** A browser process of the run (the harness's own command line names Chromium in its permissions). */
const CHROMIUM = /^\S*chrom/;

interface Phase {
  readonly name: string;
  readonly args: readonly string[];
  /** Waits until the run is in the phase. */
  readonly reach: (harness: HarnessProcess) => Promise<unknown>;
  readonly ignore?: boolean;
  /** A file the interrupted run must not write (a trace the bounded teardown does not save). */
  readonly notWritten?: string;
  readonly env?: Record<string, string>;
}

const PHASES: readonly Phase[] = [
  {
    name: "the first host process spawns",
    args: ["--host", "fake,fake-minimal", "--timeout-multiplier", "20"],
    reach: (harness) => waitForProcess(harness, FAKE_HOST),
  },
  {
    name: "a host hangs mid-stream at --timeout-multiplier 20",
    args: ["--host", "fake", "--grep", "^cli/scripted/wall-clock-hang$", "--timeout-multiplier", "20"],
    reach: async (harness) => {
      await waitForProcess(harness, FAKE_HOST);
      await new Promise((resolve) => setTimeout(resolve, 500));
    },
  },
  {
    name: "Chromium launches",
    args: ["--host", "reference"],
    reach: (harness) => waitForProcess(harness, CHROMIUM),
  },
  {
    name: "the browser host's teardown would save its --trace",
    args: ["--host", "reference", "--trace", "on"],
    notWritten: "reference-trace.zip",
    reach: async (harness) => {
      await waitForProcess(harness, CHROMIUM);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    },
  },
  {
    name: "the MCP Inspector starts",
    args: ["--host", "mcp-inspector"],
    reach: (harness) => waitForProcess(harness, /inspector --web/),
    ignore: await detectBinary("mcp-inspector", "mcp-inspector").catch(() => null) === null,
    env: { PATH: `${dirname(shimPath("mcp-inspector"))}:${Deno.env.get("PATH") ?? ""}` },
  },
  {
    name: "the MCP Inspector's UI opens in the browser",
    args: ["--host", "mcp-inspector"],
    reach: async (harness) => {
      await waitForProcess(harness, CHROMIUM);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    },
    ignore: await detectBinary("mcp-inspector", "mcp-inspector").catch(() => null) === null,
    env: { PATH: `${dirname(shimPath("mcp-inspector"))}:${Deno.env.get("PATH") ?? ""}` },
  },
];

for (const phase of PHASES) {
  Deno.test({
    name: `SIGINT while ${phase.name} ends the run, reports written, no survivor`,
    ignore: phase.ignore ?? false,
    fn: async () => {
      const out = await Deno.makeTempDir({ dir });
      await using harness = spawnHarness(
        ["run", ...phase.args, "--reporter", "json", "--reporter", "junit", "--out", out],
        phase.env ? { env: phase.env } : {},
      );
      await phase.reach(harness);
      const { exit, stopMs, survivors } = await interrupt(harness);
      assert.equal(exit.code, INTERRUPTED, `stderr: ${exit.stderr.slice(0, 2000)}`);
      assert.ok(
        stopMs < STOP_HANG_MS,
        `the harness took ${Math.round(stopMs)} ms to exit after SIGINT: a hang`,
      );
      assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
      const report = parseReport(await Deno.readTextFile(`${out}/report.json`), `${out}/report.json`);
      assert.equal(report.run.incomplete, true, "report.json is not marked incomplete");
      assert.ok((await Deno.stat(`${out}/junit.xml`)).size > 0, "junit.xml is empty");
      if (phase.notWritten !== undefined) {
        const written = await Deno.stat(`${out}/${phase.notWritten}`).then(() => true, () => false);
        assert.equal(written, false, `the interrupted run still wrote ${phase.notWritten}`);
      }
    },
  });
}

Deno.test({
  name: "interrupt phases: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
