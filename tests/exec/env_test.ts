import assert from "node:assert/strict";
import { FORCED_ENV, projectEnv } from "../../src/exec/env.ts";

Deno.test("the child environment is deny-by-default: allow-list, invocation env, then forced variables", () => {
  const parent = {
    PATH: "/bin",
    HOME: "/home/me",
    ANTHROPIC_API_KEY: "sk-secret",
    LC_TIME: "C",
    TERM: "xterm-256color",
    GITHUB_TOKEN: "ghp_x",
  };
  const env: Record<string, string> = projectEnv({
    env: { EXTRA: "1", TERM: "vt100" },
    envAllow: ["HOME", "LC_*"],
  }, parent);
  assert.deepEqual({ ...env }, { PATH: "/bin", HOME: "/home/me", LC_TIME: "C", EXTRA: "1", ...FORCED_ENV });
  assert.equal(env["TERM"], "dumb");
  assert.equal(env["NO_COLOR"], "1");
});

Deno.test("with an empty allow-list only the baseline survives", () => {
  const env = projectEnv({ env: {}, envAllow: [] }, { PATH: "/bin", HOME: "/h", USER: "me" });
  assert.deepEqual(Object.keys(env).sort(), ["CI", "NO_COLOR", "PATH", "TERM"]);
});
