/**
 * A host that starts daemons with `setsid` (one holding its stdout open, one not), run by `conformance` under
 * its own narrow permission set: the harness finds both outside the host's group, kills them, and fails the
 * test with a `group_escaped` violation that says the output was held open; nothing of the run survives it.
 * Linux only: the survivors are looked for in `/proc/<pid>/environ`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { OK_STREAM, plantCliHost } from "../cli/_planted_host.ts";
import { describeSurvivors, processesTagged, spawnHarness } from "./_harness.ts";

/** Runs `cli/behavior/streaming` on a planted host that starts `daemons` before its stream, as `conformance`
 * under its own permission set: the harness's exit, the survivors matching `pattern`, the test's result. */
async function runEscaper(id: string, daemons: readonly string[], pattern: RegExp) {
  await using host = await plantCliHost({
    id,
    prefix: "conformance-escape-",
    script: () => [
      'if [ "$1" = "--version" ]; then echo 1.0.0; exit 0; fi',
      ...daemons,
      ...OK_STREAM.map((line) => `echo '${line}'`),
    ],
  });
  const out = join(host.dir, "out");
  await using harness = spawnHarness(
    ["run", "--config", host.config, "--host", id, "--live", "--grep", "^cli/behavior/streaming$"]
      .concat(["--reporter", "json", "--out", out]),
    { alsoRun: [join(host.dir, id)] },
  );
  const started = performance.now();
  const exit = await harness.done;
  const tookMs = performance.now() - started;
  const survivors = (await processesTagged(harness.runId)).filter((p) => pattern.test(p.command));
  const report = JSON.parse(await Deno.readTextFile(join(out, "report.json")).catch(() => "{}"));
  const result = report.results?.find((r: { test: string }) => r.test === "cli/behavior/streaming");
  return { exit, tookMs, survivors, result };
}

/**
 * A host line that starts `command` in the background and waits (up to 10 s) until it has left the host's
 * process group. Without the wait, a busy machine can see the host exit before `setsid` has run, while the
 * daemon is still in the group, which the harness rightly reports as `group_survived` instead.
 */
function escaped(command: string): string {
  return `${command} d=$!; i=0; ` +
    `while [ $i -lt 200 ] && [ "$(ps -o pgid= -p $d)" = "$(ps -o pgid= -p $$)" ]; ` +
    `do sleep 0.05; i=$((i+1)); done`;
}

Deno.test({
  name: "daemons a host starts with setsid are killed and reported, and the run is not held by them",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { exit, tookMs, survivors, result } = await runEscaper(
      "escaper",
      [escaped("setsid sleep 300 >/dev/null 2>&1 &"), escaped("setsid sleep 301 &")],
      /sleep 30[01]/,
    );
    assert.deepEqual(survivors, [], `the escaped daemons outlived the run:\n${describeSurvivors(survivors)}`);
    assert.equal(exit.code, 1, `the escaping host must fail its test; stderr: ${exit.stderr.slice(0, 2000)}`);
    assert.equal(result?.status, "FAIL");
    assert.deepEqual(result.details.violations.map((v: { kind: string }) => v.kind), ["group_escaped"]);
    const text = JSON.stringify(result);
    assert.match(text, /2 process\(es\) the host started left its process group/, text.slice(0, 2000));
    assert.match(text, /sleep 300/);
    assert.match(text, /sleep 301/);
    assert.match(text, /output was held open \d+ ms after its exit/);
    assert.ok(tookMs < 30_000, `the run took ${Math.round(tookMs)} ms`);
  },
});

Deno.test({
  name: "a daemon that lets go of the output is still found: the listing that proves the group gone finds it",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // Nothing holds the output after the host's exit, so only the hunt at the end can find the daemon; under
    // the harness's permission set that hunt reads the same listing that showed the group gone.
    const { exit, survivors, result } = await runEscaper(
      "quiet-escaper",
      [escaped("setsid sleep 302 >/dev/null 2>&1 </dev/null &")],
      /sleep 302/,
    );
    assert.deepEqual(survivors, [], `the escaped daemon outlived the run:\n${describeSurvivors(survivors)}`);
    assert.equal(exit.code, 1, `the escaping host must fail its test; stderr: ${exit.stderr.slice(0, 2000)}`);
    assert.equal(result?.status, "FAIL");
    assert.deepEqual(result.details.violations.map((v: { kind: string }) => v.kind), ["group_escaped"]);
    assert.match(
      JSON.stringify(result),
      /1 process\(es\) the host started left its process group.*sleep 302/,
    );
  },
});
