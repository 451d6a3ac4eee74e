/**
 * Processes a host starts that leave its process group (`setsid`) are found by the spawn's tag, killed by pid
 * and reported as `group_escaped`; one that holds the host's stdout open no longer holds the run. Linux only:
 * the checks themselves read environments with `ps e`.
 */
import assert from "node:assert/strict";
import { execute, type ExecuteOptions } from "../../src/exec/executor.ts";
import { SPAWN_TAG_ENV, taggedOutside } from "../../src/exec/escapes.ts";
import { type HostInvocation, NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import type { DraftEvent, NormalizerFactory } from "../../src/normalize/events.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

const linux = Deno.build.os === "linux";

/** Every stdout line is a text event; EOF invents the terminal (an EOF-terminal dialect). */
const linesAsText: NormalizerFactory = () => ({
  line: (raw): DraftEvent[] => [{ kind: "text", raw, synthetic: false, text: raw, delta: false }],
  end: (end): DraftEvent[] => [{
    kind: "terminal",
    raw: null,
    synthetic: true,
    status: end.exitCode === 0 ? "success" : "error",
  }],
});

const eof = (): Pick<ExecuteOptions, "host" | "normalizer" | "streamShape"> => ({
  host: "sh",
  normalizer: linesAsText({ argv: [] }),
  streamShape: { init: "none", terminal: "eof" },
});

const claude = (): Pick<ExecuteOptions, "host" | "normalizer" | "streamShape"> => ({
  host: "sh",
  normalizer: normalizerFor("claude")({ argv: [] }),
  streamShape: { init: "required", terminal: "event" },
});

/** A shell host whose environment carries `MARK=mark`, so the test finds what it started without the tag. */
function shell(script: string, mark: string): HostInvocation {
  return {
    binary: "sh",
    args: ["-c", script],
    env: { ESCAPE_TEST_MARK: mark },
    envAllow: [],
    cleanupPaths: [],
    capabilities: NO_CAPABILITIES,
  };
}

/** The live processes whose environment carries `ESCAPE_TEST_MARK=mark`. */
async function marked(mark: string): Promise<number[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-A", "-ww", "-o", "pid=,stat=,args=", "e"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n")
    .filter((line) => line.includes(` ESCAPE_TEST_MARK=${mark}`))
    .map((line) => line.trim().split(/\s+/))
    .filter(([, state]) => !state?.startsWith("Z"))
    .map(([pid]) => Number(pid));
}

/** Kills what a failed test left behind, by pid. */
async function sweep(mark: string): Promise<void> {
  for (const pid of await marked(mark)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

Deno.test({
  name: "a setsid daemon is found, killed by pid and reported as group_escaped",
  ignore: !linux,
  fn: async () => {
    const mark = crypto.randomUUID();
    try {
      const observation = await execute(
        shell("setsid sleep 300 >/dev/null 2>&1 & echo started", mark),
        { ...eof(), killGraceMs: 500 },
      );
      assert.deepEqual(observation.text, ["started"]);
      assert.deepEqual(observation.violations.map((v) => v.kind), ["group_escaped"]);
      assert.match(
        observation.violations[0]!.message,
        /1 process\(es\).*pid \d+ \(sleep 300\).*killed them$/,
      );
      assert.equal(observation.groupGone, true);
      assert.deepEqual(await marked(mark), [], "the escaped sleep outlived the run");
    } finally {
      await sweep(mark);
    }
  },
});

Deno.test({
  name: "an escaped process holding stdout open no longer holds an EOF-terminal run until its wall timeout",
  ignore: !linux,
  fn: async () => {
    const mark = crypto.randomUUID();
    try {
      const observation = await execute(
        shell("setsid sleep 300 & echo started", mark),
        { ...eof(), wallTimeoutMs: 20_000, killGraceMs: 500 },
      );
      assert.equal(observation.stopped, null, "the run waited for the escaped writer");
      assert.ok(observation.durationMs < 5_000, `took ${observation.durationMs} ms`);
      assert.deepEqual(observation.violations.map((v) => v.kind), ["group_escaped"]);
      assert.match(observation.violations[0]!.message, /output was held open \d+ ms after its exit/);
      assert.deepEqual(await marked(mark), []);
    } finally {
      await sweep(mark);
    }
  },
});

Deno.test({
  name: "after the terminal event, an escaped writer costs no 1 s drain and is reported",
  ignore: !linux,
  fn: async () => {
    const mark = crypto.randomUUID();
    const lines = [
      '{"type":"system","subtype":"init","session_id":"s","model":"m"}',
      '{"type":"result","subtype":"success","is_error":false,"result":"OK"}',
    ];
    try {
      const observation = await execute(
        shell(`setsid sleep 300 & ${lines.map((line) => `echo '${line}'`).join("; ")}`, mark),
        { ...claude(), killGraceMs: 500 },
      );
      assert.deepEqual(observation.kinds, ["init", "terminal"]);
      assert.deepEqual(observation.violations.map((v) => v.kind), ["group_escaped"]);
      assert.match(observation.violations[0]!.message, /output was held open \d+ ms after its exit/);
      // The drain running out says so in the violation ("stopped reading it after 1000 ms"): read, not timed.
      assert.doesNotMatch(observation.violations[0]!.message, /stopped reading it after/);
      assert.ok(observation.durationMs < 30_000, `took ${observation.durationMs} ms: a hang`);
      assert.deepEqual(await marked(mark), []);
    } finally {
      await sweep(mark);
    }
  },
});

Deno.test({
  name: "a host whose processes stay in its group raises no group_escaped",
  ignore: !linux,
  fn: async () => {
    const observation = await execute(shell("sleep 0.1 & echo started; wait", crypto.randomUUID()), eof());
    assert.deepEqual(observation.violations, []);
  },
});

Deno.test({
  name: "only the exact tag outside the given group matches: a longer tag or the same group does not",
  ignore: !linux,
  fn: async () => {
    const tag = crypto.randomUUID().replaceAll("-", "");
    const start = (value: string) =>
      new Deno.Command("sleep", {
        args: ["30"],
        env: { [SPAWN_TAG_ENV]: value },
        stdin: "null",
        stdout: "null",
        stderr: "null",
        detached: true,
      }).spawn();
    const exact = start(tag);
    const longer = start(`${tag}0`);
    try {
      const found = await taggedOutside(tag, 0);
      assert.deepEqual([...found!.keys()], [exact.pid]);
      assert.equal(found!.get(exact.pid), exact.pid, "its group is its own (detached)");
      assert.deepEqual([...(await taggedOutside(tag, exact.pid))!.keys()], [], "its own group is excluded");
    } finally {
      for (const child of [exact, longer]) {
        child.kill("SIGKILL");
        await child.status;
      }
    }
  },
});

Deno.test({
  name: "an escaped writer that cleared its environment costs at most the 1 s drain, reported without a pid",
  ignore: !linux,
  fn: async () => {
    const seconds = `300.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
    const lines = [
      '{"type":"system","subtype":"init","session_id":"s","model":"m"}',
      '{"type":"result","subtype":"success","is_error":false,"result":"OK"}',
    ];
    try {
      const observation = await execute(
        shell(`setsid env -i sleep ${seconds} & ${lines.map((line) => `echo '${line}'`).join("; ")}`, "-"),
        { ...claude(), killGraceMs: 500 },
      );
      assert.deepEqual(observation.kinds, ["init", "terminal"]);
      assert.deepEqual(observation.violations.map((v) => v.kind), ["group_escaped"]);
      assert.match(
        observation.violations[0]!.message,
        /not found by its CONFORMANCE_SPAWN_TAG tag.*stopped reading it after 1000 ms$/,
      );
      assert.ok(observation.durationMs < 3_000, `took ${observation.durationMs} ms`);
    } finally {
      const { stdout } = await new Deno.Command("ps", { args: ["-A", "-ww", "-o", "pid=,args="] }).output();
      for (const line of new TextDecoder().decode(stdout).split("\n")) {
        if (line.endsWith(`sleep ${seconds}`)) Deno.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
      }
    }
  },
});
