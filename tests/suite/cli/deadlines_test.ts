// The CLI side's default deadlines live in one table (src/exec/deadlines.ts): a library call of execute() and
// a tier's observe() with no limits of their own kill a host that ignores SIGTERM after the same kill grace,
// and observe() scales it by the timeout multiplier. Real subprocesses (sh), no mocks.
import { strict as assert } from "node:assert";
import { CLI_DEADLINES } from "../../../src/exec/deadlines.ts";
import { execute } from "../../../src/exec/executor.ts";
import type { Observation } from "../../../src/exec/observation.ts";
import { type HostInvocation, type HostRunner, NO_CAPABILITIES } from "../../../src/exec/host_runner.ts";
import { normalizerFor } from "../../../src/normalize/mod.ts";
import { observe } from "../../../suite/cli/observe.ts";

const STUBBORN = "trap '' TERM; echo up; while :; do sleep 0.1; done";
const WALL_MS = 300;

function stubborn(): HostInvocation {
  return {
    binary: "sh",
    args: ["-c", STUBBORN],
    env: {},
    envAllow: [],
    cleanupPaths: [],
    capabilities: NO_CAPABILITIES,
  };
}

/** A host whose every golden path is the stubborn shell: observe() runs it like any host. */
const runner: HostRunner = {
  name: "stubborn",
  binary: "sh",
  dialect: "claude",
  capabilities: NO_CAPABILITIES,
  streamShape: { init: "none", terminal: "eof" },
  goldenPaths: ["streaming"],
  detect: () => Promise.resolve("sh"),
  build: () => stubborn(),
};

/** How long after the wall timeout the host took to die: the kill grace, plus the kill's own overhead. */
function graceTaken(observation: Observation, wallMs: number): number {
  assert.equal(observation.stopped, "wall");
  assert.equal(observation.signal, "SIGKILL");
  return observation.durationMs - wallMs;
}

function executeWithDefaults(): Promise<Observation> {
  return execute(stubborn(), {
    host: "stubborn",
    normalizer: normalizerFor("claude")({ argv: [] }),
    streamShape: { init: "none", terminal: "eof" },
    wallTimeoutMs: WALL_MS,
  });
}

function observeWithDefaults(multiplier: number): Promise<Observation> {
  return observe({
    runner,
    path: "streaming",
    request: { prompt: "hi" },
    timeoutMultiplier: multiplier,
    signal: new AbortController().signal,
    wallTimeoutMs: WALL_MS,
  });
}

// The kill's own overhead (verifying the group is gone, looking for escaped processes) varies with the
// machine's load, so the checks compare runs with each other rather than with a fixed bound.
Deno.test("execute() and observe() with no kill grace of their own wait the same one, the table's", async () => {
  const library = graceTaken(await executeWithDefaults(), WALL_MS);
  const tier = graceTaken(await observeWithDefaults(1), WALL_MS);
  assert.ok(library >= CLI_DEADLINES.killGraceMs * 0.9, `execute() killed ${library} ms after the wall`);
  assert.ok(tier >= CLI_DEADLINES.killGraceMs * 0.9, `observe() killed ${tier} ms after the wall`);
  assert.ok(
    Math.abs(library - tier) < CLI_DEADLINES.killGraceMs / 2,
    `execute() waited ${library} ms, observe() ${tier} ms`,
  );
});

Deno.test("observe() scales the table's kill grace by the timeout multiplier", async () => {
  const once = graceTaken(await observeWithDefaults(1), WALL_MS);
  const twice = graceTaken(await observeWithDefaults(2), WALL_MS * 2);
  const extra = twice - once;
  assert.ok(
    Math.abs(extra - CLI_DEADLINES.killGraceMs) < CLI_DEADLINES.killGraceMs / 2,
    `at 2 the kill came ${extra} ms later than at 1`,
  );
});
