/**
 * Interrupts in the waits the soak rarely hits. A host that ends its stream and then lingers (ignoring
 * SIGTERM) keeps the executor in its post-terminal grace, 100 s at `--timeout-multiplier 20`; SIGINT then, once
 * or twice, must end the run, without waiting that grace out, with the host's group gone. And SIGINT during a `reference` run (a
 * browser, Playwright) must still write every report format, the run marked incomplete.
 */
import assert from "node:assert/strict";
import { groupAlive } from "../../src/exec/process_group.ts";
import { parseReport } from "../../src/report/schema.ts";
import { describeSurvivors, processesTagged, spawnHarness } from "./_harness.ts";
import { STOP_HANG_MS } from "./_interrupt.ts";

const LINGERS = decodeURIComponent(new URL("./hosts/lingers.sh", import.meta.url).pathname);
/** Exit code of a run interrupted by SIGINT (README, "Exit codes"). */
const INTERRUPTED = 130;

const dir = Deno.makeTempDirSync({ prefix: "conformance-interrupt-grace-" });

async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const GRACE_CASES = [{ name: "one SIGINT", signals: 1 }, { name: "two SIGINTs", signals: 2 }] as const;

for (const { name, signals } of GRACE_CASES) {
  Deno.test(`${name} in the post-terminal grace at --timeout-multiplier 20 ends the run and the host`, async () => {
    const caseDir = `${dir}/${signals}`;
    Deno.mkdirSync(caseDir);
    const marker = `${caseDir}/host.pid`;
    const config = `${caseDir}/lingers.yaml`;
    Deno.writeTextFileSync(
      config,
      [
        "hosts:",
        "  - id: lingers",
        "    kind: cli",
        `    binary: ${JSON.stringify(LINGERS)}`,
        "    dialect: claude",
        "    paths:",
        `      streaming: ["{prompt}", ${JSON.stringify(marker)}]`,
        "",
      ].join("\n"),
    );
    await using harness = spawnHarness([
      "run",
      "--config",
      config,
      "--host",
      "lingers",
      "--live",
      "--grep",
      "^cli/behavior/streaming$",
      "--reporter",
      "json",
      "--out",
      `${caseDir}/out`,
      "--timeout-multiplier",
      "20",
    ], { alsoRun: [LINGERS] });
    const pgid = Number((await waitForFile(marker, 60_000)).trim());
    assert.ok(pgid > 1, `the host wrote no pid to ${marker}`);
    // The host has printed its result and now sleeps: the executor is in its grace.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = performance.now();
    for (let sent = 0; sent < signals; sent++) {
      Deno.kill(-harness.pid, "SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const exit = await harness.done;
    const stopMs = performance.now() - signalled;
    assert.equal(exit.code, INTERRUPTED, `stderr: ${exit.stderr.slice(0, 2000)}`);
    assert.ok(
      stopMs < STOP_HANG_MS,
      `the harness took ${Math.round(stopMs)} ms to exit after SIGINT: a hang`,
    );
    assert.equal(await groupAlive(pgid), false, `the host's process group ${pgid} outlived the run`);
    const survivors = await processesTagged(harness.runId);
    assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
  });
}

Deno.test("SIGINT during a reference run writes every report format, marked incomplete", async () => {
  const out = `${dir}/reference`;
  await using harness = spawnHarness([
    "run",
    "--host",
    "reference",
    "--reporter",
    "json",
    "--reporter",
    "junit",
    "--reporter",
    "html",
    "--out",
    out,
  ]);
  // The json reporter's first checkpoint: the browser is up and tests are running.
  await waitForFile(`${out}/report.json`, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  Deno.kill(-harness.pid, "SIGINT");
  const exit = await harness.done;
  assert.equal(exit.code, INTERRUPTED, `stderr: ${exit.stderr.slice(0, 2000)}`);
  const report = parseReport(await Deno.readTextFile(`${out}/report.json`), `${out}/report.json`);
  assert.equal(report.run.incomplete, true, "report.json is not marked incomplete");
  for (const file of ["junit.xml", "report.html"]) {
    const { size } = await Deno.stat(`${out}/${file}`);
    assert.ok(size > 0, `${file} is empty`);
  }
  const survivors = await processesTagged(harness.runId);
  assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
});

Deno.test({
  name: "interrupt grace: remove the temporary folder",
  fn: () => Deno.removeSync(dir, { recursive: true }),
});
