// The CLI side's default deadlines live in one table (src/exec/deadlines.ts): a library call of execute() and
// a tier's observe() with no limits of their own kill a host that ignores SIGTERM after the same kill grace,
// and observe() scales it by the timeout multiplier. Real subprocesses (sh), no mocks.
import { strict as assert } from "node:assert";
import { CLI_DEADLINES } from "../../../src/exec/deadlines.ts";
import { execute } from "../../../src/exec/executor.ts";
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

/** How long after the wall timeout the host took to die: the kill grace, plus a little. */
function graceTaken(durationMs: number, wallMs: number): number {
  return durationMs - wallMs;
}

Deno.test("execute() with no kill grace of its own waits the table's kill grace before SIGKILL", async () => {
  const observation = await execute(stubborn(), {
    host: "stubborn",
    normalizer: normalizerFor("claude")({ argv: [] }),
    streamShape: { init: "none", terminal: "eof" },
    wallTimeoutMs: WALL_MS,
  });
  assert.equal(observation.stopped, "wall");
  assert.equal(observation.signal, "SIGKILL");
  const grace = graceTaken(observation.durationMs, WALL_MS);
  assert.ok(grace >= CLI_DEADLINES.killGraceMs * 0.9, `killed ${grace} ms after the wall`);
  assert.ok(grace < CLI_DEADLINES.killGraceMs + 800, `killed ${grace} ms after the wall`);
});

for (const multiplier of [1, 2]) {
  Deno.test(`observe() at multiplier ${multiplier} waits the same table's kill grace, scaled`, async () => {
    const observation = await observe({
      runner,
      path: "streaming",
      request: { prompt: "hi" },
      timeoutMultiplier: multiplier,
      signal: new AbortController().signal,
      wallTimeoutMs: WALL_MS,
    });
    assert.equal(observation.stopped, "wall");
    assert.equal(observation.signal, "SIGKILL");
    const expected = CLI_DEADLINES.killGraceMs * multiplier;
    const grace = graceTaken(observation.durationMs, WALL_MS * multiplier);
    assert.ok(grace >= expected * 0.9, `killed ${grace} ms after the wall`);
    assert.ok(grace < expected + 800, `killed ${grace} ms after the wall`);
  });
}
