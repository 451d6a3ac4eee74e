/**
 * Your own agent CLI from source (cli/permit.ts): under the harness's permission set a `--config` host's
 * program and variables, and a `CONFORMANCE_<HOST>_BIN` outside PATH, are refused before any test with one line
 * saying "not permitted" and the command that permits it; under `conformance:permit` (`CONFORMANCE_PERMIT=1`)
 * the same command line runs, with exactly those names added, and a Ctrl-C still ends everything once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { notPermittedError } from "../../cli/permit.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { describeSurvivors, processesTagged, runHarness, spawnHarness } from "../robustness/_harness.ts";
import { OK_STREAM, plantCliHost } from "./_planted_host.ts";

const PERMIT = { CONFORMANCE_PERMIT: "1" };

Deno.test("a config host's program and variable: refused with the command that permits them, which runs", async () => {
  await using host = await plantCliHost({
    id: "agent",
    prefix: "conformance-permit-",
    script: (dir) => [
      `printf '%s' "$PERMIT_TEST_TOKEN" > '${dir}/token'`,
      ...OK_STREAM.map((line) => `echo '${line}'`),
    ],
  });
  const text = await Deno.readTextFile(host.config);
  await Deno.writeTextFile(
    host.config,
    text.replace("    dialect:", "    envAllow: [PERMIT_TEST_TOKEN]\n    dialect:"),
  );
  const args = [
    "run",
    "--config",
    host.config,
    "--host",
    "agent",
    "--live",
    "--grep",
    "^cli/behavior/streaming$",
  ];
  const env = { PERMIT_TEST_TOKEN: "handed-on" };

  const refused = await runHarness(args, { env });
  assert.equal(refused.code, 2, refused.stderr);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert.match(
    refused.stderr.trim(),
    /^conformance: Host "agent" needs ".*\/agent" \(a program\) and PERMIT_TEST_TOKEN \(a variable\) \(from ".*agent\.yaml"\), which the harness's permission set does not permit: run it as .* task -q conformance:permit -- run --config \S+agent\.yaml --host agent --live --grep '\^cli\/behavior\/streaming\$'$/,
  );

  const permitted = await runHarness(args, { env: { ...env, ...PERMIT } });
  assert.equal(permitted.code, 0, permitted.stderr);
  assert.match(permitted.stderr, /permitting ".*\/agent" \(a program\) and PERMIT_TEST_TOKEN \(a variable\)/);
  assert.match(permitted.stdout, /PASS\s+agent\s+cli\/behavior\/streaming/);
  assert.equal(
    await Deno.readTextFile(join(host.dir, "token")),
    "handed-on",
    "the variable reached the host",
  );
});

Deno.test("a CONFORMANCE_<HOST>_BIN outside PATH is refused before the run, and permitted by conformance:permit", async () => {
  await using host = await plantCliHost({
    id: "codex",
    prefix: "conformance-permit-bin-",
    script: () => ['if [ "$1" = "--version" ]; then echo "codex-cli 0.0.1"; exit 0; fi', "exit 3"],
  });
  const bin = join(host.dir, "codex");
  const env = { CONFORMANCE_CODEX_BIN: bin };
  const args = ["run", "--host", "codex", "--grep", "^cli/behavior/version-check$"];
  const refused = await runHarness(args, { env });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /^conformance: Host "codex" needs ".*\/codex" \(a program\) \(from CONFORMANCE_CODEX_BIN\), which the harness's permission set does not permit: run it as .* conformance:permit -- run --host codex/,
  );
  assert.doesNotMatch(refused.stdout, /ERROR/, "no test ran");
  const permitted = await runHarness(args, { env: { ...env, ...PERMIT } });
  assert.equal(permitted.code, 0, `${permitted.stdout}\n${permitted.stderr}`);
  assert.match(permitted.stdout, /PASS\s+codex\s+cli\/behavior\/version-check/);
});

Deno.test("a compiled binary cannot widen itself: the refusal names the build, or PATH for a _BIN path", () => {
  const compiled = { kind: "compiled", program: "conformance" } as const;
  const env = { get: () => undefined } as unknown as typeof Deno.env;
  const config = notPermittedError(
    { hosts: ["my-agent"], run: ["my-agent"], env: ["MY_AGENT_API_KEY"], from: ['"conformance.yaml"'] },
    ["run", "--config", "conformance.yaml", "--host", "my-agent"],
    env,
    compiled,
  );
  assert.match(
    config.message,
    /not permit: build a binary that permits them, in a clone: deno task compile --also-run my-agent --also-env MY_AGENT_API_KEY .*or run from the clone: npx -y deno@[\d.]+ task -q conformance:permit -- run --config conformance\.yaml --host my-agent$/,
  );
  const bin = notPermittedError(
    { hosts: ["crush"], run: ["/opt/x/crush"], env: [], from: ["CONFORMANCE_CRUSH_BIN"] },
    ["run", "--host", "crush"],
    env,
    compiled,
  );
  assert.match(
    bin.message,
    /unset CONFORMANCE_CRUSH_BIN and put its folder first on PATH \(export PATH="\/opt\/x:\$PATH"\)$/,
  );
});

/** A host "lingers" that runs `first`, writes its pid, then sleeps ignoring SIGTERM. */
function plantLingering(prefix: string, first: readonly string[]) {
  return plantCliHost({
    id: "lingers",
    prefix,
    script: (dir) => [
      ...first,
      "trap '' TERM",
      `echo "$$" > '${dir}/pid.tmp' && mv '${dir}/pid.tmp' '${dir}/pid'`,
      "exec sleep 3600",
    ],
  });
}

/** The planted host's pid (its group id) once it has written it; a hang bound of 60 s. */
async function hostPid(dir: string): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pid = Number(await Deno.readTextFile(join(dir, "pid")).catch(() => "0"));
    if (pid > 0) return pid;
    assert.ok(Date.now() < deadline, "the host never started");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("a Ctrl-C to a permitted run reaches the widened harness once: exit 130, every group gone", async () => {
  // Ends its stream first: the harness must kill the lingering group.
  await using host = await plantLingering(
    "conformance-permit-int-",
    OK_STREAM.map((line) => `echo '${line}'`),
  );
  await using harness = spawnHarness(
    ["run", "--config", host.config, "--host", "lingers", "--live", "--grep", "^cli/behavior/streaming$"],
    { env: PERMIT },
  );
  const pgid = await hostPid(host.dir);
  // As a terminal does: the signal goes to the foreground process group, the first harness's.
  Deno.kill(-harness.pid, "SIGINT");
  const exit = await harness.done;
  assert.equal(exit.code, 130, exit.stderr);
  assert.doesNotMatch(exit.stderr, /second signal|killed at once/i);
  assert.equal(await groupAlive(pgid), false, "the host's group outlived the run");
  const survivors = await processesTagged(harness.runId);
  assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
});

Deno.test("a permitted run whose first harness is SIGKILLed ends too: the widened harness and its host are gone", async () => {
  // Before its stream ends: the run is mid-test when killed.
  await using host = await plantLingering("conformance-permit-kill-", []);
  await using harness = spawnHarness(
    ["run", "--config", host.config, "--host", "lingers", "--live", "--grep", "^cli/behavior/streaming$"],
    { env: PERMIT },
  );
  const pgid = await hostPid(host.dir);
  // A supervisor's SIGKILL to the first harness alone: no signal reaches the widened one.
  Deno.kill(harness.pid, "SIGKILL");
  // A bound against a hang, from the kill (the first harness's pipes stay open while the widened one runs):
  // the widened run stops as on SIGTERM, in about a second; left alone it would run on to its host's timeout.
  const gone = Date.now() + 30_000;
  let survivors = await processesTagged(harness.runId);
  while ((survivors.length > 0 || await groupAlive(pgid)) && Date.now() < gone) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    survivors = await processesTagged(harness.runId);
  }
  assert.equal(await groupAlive(pgid), false, "the host's group outlived the run");
  assert.deepEqual(survivors, [], `processes of the run survived it:\n${describeSurvivors(survivors)}`);
  await harness.done;
});
