import assert from "node:assert/strict";
import { execute, type ExecuteOptions } from "../../src/exec/executor.ts";
import { type HostInvocation, NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { fakeHostCommand } from "../../src/exec/self.ts";
import type { DraftEvent, NormalizerFactory } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

/** Every stdout line is a text event; EOF invents the terminal from the exit code (an EOF-terminal dialect). */
const linesAsText: NormalizerFactory = () => ({
  line: (raw): DraftEvent[] => [{ kind: "text", raw, synthetic: false, text: raw, delta: false }],
  end: (end): DraftEvent[] => [{
    kind: "terminal",
    raw: null,
    synthetic: true,
    status: end.exitCode === 0 ? "success" : "error",
    ...(end.exitCode === null ? {} : { exitCode: end.exitCode }),
  }],
});

function invocation(binary: string, args: string[], extra: Partial<HostInvocation> = {}): HostInvocation {
  return { binary, args, env: {}, envAllow: [], cleanupPaths: [], capabilities: NO_CAPABILITIES, ...extra };
}

function fake(script: string[]): HostInvocation {
  const self = fakeHostCommand();
  return invocation(self.binary, [...self.args, ["@@fake", ...script, "@@end"].join("\n")]);
}

const claude = (): Pick<ExecuteOptions, "host" | "normalizer" | "streamShape"> => ({
  host: "fake",
  normalizer: normalizerFor("claude")({ argv: [] }),
  streamShape: { init: "required", terminal: "event" },
});

const eof = (): Pick<ExecuteOptions, "host" | "normalizer" | "streamShape"> => ({
  host: "sh",
  normalizer: linesAsText({ argv: [] }),
  streamShape: { init: "none", terminal: "eof" },
});

Deno.test("a fake host run is observed event by event, in its own process group, which is gone afterwards", async () => {
  const seen: string[] = [];
  const observation = await execute(fake(["init model=m", "text hello", "result in=1 out=1"]), {
    ...claude(),
    onEvent: (event) => seen.push(event.kind),
  });
  assert.deepEqual(observation.kinds, ["init", "text", "usage", "terminal"]);
  assert.deepEqual(seen, observation.kinds);
  assert.deepEqual(observation.events.map((event) => event.seq), [0, 1, 2, 3]);
  assert.ok(observation.events.every((event) => event.host === "fake"));
  assert.equal(observation.exitCode, 0);
  assert.equal(observation.resultSeen, true);
  assert.ok(observation.pgid !== null && observation.pgid > 1);
  assert.equal(observation.groupGone, true);
  assert.equal(await groupAlive(observation.pgid), false);
});

Deno.test("a run reports its phases in order, with rising times, and a failed spawn reports none", async () => {
  const phases: [string, number][] = [];
  const onPhase = (phase: string, at: number) => phases.push([phase, at]);
  const before = performance.now();
  await execute(invocation("sh", ["-c", "echo one"]), { ...eof(), onPhase });
  assert.deepEqual(phases.map(([phase]) => phase), [
    "spawned",
    "ended",
    "exited",
    "drained",
    "proven-gone",
    "escapes-swept",
    "done",
  ]);
  const times = [before, ...phases.map(([, at]) => at), performance.now()];
  assert.ok(times.every((at, i) => i === 0 || at >= times[i - 1]!), `times not in order: ${times}`);
  phases.length = 0;
  await execute(invocation("/nonexistent/conformance-host", []), { ...eof(), onPhase });
  assert.deepEqual(phases, []);
});

Deno.test("a spawn failure is an observation, not an exception, and cleanup paths still go", async () => {
  const dir = await Deno.makeTempDir();
  const observation = await execute(
    invocation("/nonexistent/conformance-host", [], { cleanupPaths: [dir] }),
    claude(),
  );
  assert.match(observation.spawnError ?? "", /Subprocess spawn failed/);
  assert.deepEqual(observation.violations.map((v) => v.kind), ["spawn_failed"]);
  assert.equal(observation.pgid, null);
  await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
});

Deno.test("the child gets the projected environment, TERM=dumb and NO_COLOR=1, and a closed stdin", async () => {
  const dir = await Deno.makeTempDir();
  const observation = await execute(
    invocation("sh", ["-c", "cat; env"], {
      env: { FROM_INVOCATION: "yes" },
      envAllow: ["ALLOWED"],
      cleanupPaths: [dir],
    }),
    { ...eof(), parentEnv: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ALLOWED: "a", API_SECRET: "s" } },
  );
  const env = observation.text.filter((line) => /^[A-Z_]+=/.test(line)).sort();
  assert.ok(env.includes("TERM=dumb") && env.includes("NO_COLOR=1") && env.includes("CI=1"), env.join(" "));
  assert.ok(env.includes("ALLOWED=a") && env.includes("FROM_INVOCATION=yes"));
  assert.ok(!env.some((line) => line.startsWith("API_SECRET=")), "a variable off the allow-list leaked");
  assert.equal(observation.exitCode, 0, "cat on a closed stdin ends at once");
  assert.equal(observation.resultSeen, false, "an EOF-terminal stream reaches EOF");
  assert.equal(observation.kinds.at(-1), "terminal");
  assert.equal(observation.events.at(-1)?.synthetic, true);
  await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
});

Deno.test("a process left behind in the group is a violation, and the executor kills it", async () => {
  const observation = await execute(
    invocation("sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo started"]),
    { ...eof(), killGraceMs: 200 },
  );
  assert.deepEqual(observation.text, ["started"]);
  assert.deepEqual(observation.violations.map((v) => v.kind), ["group_survived"]);
  assert.equal(observation.killed, true);
  assert.equal(observation.groupGone, true);
  assert.equal(await groupAlive(observation.pgid!), false);
});

Deno.test("aborting the caller's signal stops a hanging host and kills its group; cleanup paths go", async () => {
  const dir = await Deno.makeTempDir();
  const controller = new AbortController();
  const running = execute({ ...fake(["init", "hang"]), cleanupPaths: [dir] }, {
    ...claude(),
    signal: controller.signal,
    onEvent: (event) => event.kind === "init" && controller.abort(),
  });
  const observation = await running;
  assert.equal(observation.stopped, "abort");
  assert.equal(observation.resultSeen, null);
  assert.equal(observation.killed, true);
  assert.equal(observation.groupGone, true);
  assert.deepEqual(observation.kinds, ["init"]);
  await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
});

Deno.test("a host that ignores SIGTERM is killed with SIGKILL after the kill grace", async () => {
  const observation = await execute(
    invocation("sh", ["-c", "trap '' TERM; echo up; while :; do sleep 1; done"]),
    { ...eof(), wallTimeoutMs: 300, killGraceMs: 200 },
  );
  assert.equal(observation.stopped, "wall");
  assert.equal(observation.signal, "SIGKILL");
  assert.equal(observation.groupGone, true);
});

Deno.test("silence from the spawn on is idleness, unless a startup allowance covers a slow start", async () => {
  const silent = await execute(invocation("sh", ["-c", "sleep 30"]), { ...eof(), idleTimeoutMs: 200 });
  assert.equal(silent.stopped, "idle");
  assert.equal(silent.groupGone, true);
  const slowStart = await execute(
    invocation("sh", ["-c", "sleep 0.5; echo a; sleep 30"]),
    { ...eof(), idleTimeoutMs: 200, startupTimeoutMs: 20_000 },
  );
  assert.equal(slowStart.stopped, "idle");
  assert.deepEqual(slowStart.text, ["a"], "the idle clock started only at the first byte");
  assert.equal(slowStart.groupGone, true);
});
