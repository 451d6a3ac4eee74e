/**
 * Under the harness's permission set the environment can be read by name but not listed: the harness's own
 * readers (readEnv, the process.env guard Playwright loads behind, the redaction source) work there, see only
 * the variables the set names, and never throw.
 */
import assert from "node:assert/strict";
import { PERMISSION_FLAGS } from "../../src/permissions.ts";
import { ROOT, runToEnd } from "../binary/_run.ts";

Deno.test("under the permission set the environment is read by name, listed only as far as the set names", async () => {
  const { code, stdout, stderr } = await runToEnd(
    Deno.execPath(),
    ["run", "--quiet", ...PERMISSION_FLAGS, `${ROOT}tests/exec/_narrow_env_child.ts`],
    {
      cwd: ROOT,
      timeoutMs: 60_000,
      env: {
        PATH: "/usr/bin:/bin",
        HOME: "/home/probe",
        GH_TOKEN: "ghp_outside_the_set_000000",
        AWS_SECRET_ACCESS_KEY: "aws-secret-value-1234",
        ANTHROPIC_API_KEY: "sk-ant-inside-the-set-1",
        // With CI set, Playwright's supports-color asks for TRAVIS, CIRCLECI … (outside the set).
        CI: "true",
        TRAVIS: "true",
      },
      clearEnv: true,
    },
  );
  assert.equal(code, 0, stderr);
  const seen = JSON.parse(stdout) as {
    whole: boolean;
    listBefore: number | string;
    listed: string[];
    outsider: string | null;
    outsiderIn: boolean;
    ciIn: boolean;
    read: Record<string, string>;
    secrets: string[];
    problems: (string | null)[];
  };
  assert.equal(seen.whole, false);
  assert.equal(seen.listBefore, "NotCapable", "unguarded, listing process.env is refused");
  assert.deepEqual(seen.listed, ["ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY", "CI", "HOME", "PATH"]);
  assert.equal(seen.outsider, null, "a name outside the set reads as unset through the guard");
  assert.equal(seen.outsiderIn, false, "and is not `in` process.env");
  assert.equal(seen.ciIn, true, "a name inside the set is `in` process.env");
  assert.deepEqual(seen.read, {
    HOME: "/home/probe",
    AWS_SECRET_ACCESS_KEY: "aws-secret-value-1234",
    ANTHROPIC_API_KEY: "sk-ant-inside-the-set-1",
  });
  assert.deepEqual(seen.secrets.sort(), ["aws-secret-value-1234", "sk-ant-inside-the-set-1"]);
  const [home, aws, token, pattern] = seen.problems;
  assert.equal(home, null, "a variable in the set may be handed on");
  assert.match(aws ?? "", /^variable pattern "AWS_\*", which cannot be listed .*name each variable/);
  assert.match(token ?? "", /^variable "MY_TOKEN", which is outside .*--also-env MY_TOKEN/);
  assert.match(pattern ?? "", /^variable pattern "MY_\*", which cannot be listed .*--also-env MY_/);
});
