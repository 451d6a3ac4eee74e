import assert from "node:assert/strict";
import { findExecutable } from "../../src/exec/find_executable.ts";
import { ROOT, runToEnd, tempFolder } from "../binary/_run.ts";

Deno.test("a readable PATH is searched by looking at files: an absolute path, or null", async () => {
  await using folder = await tempFolder("conformance-find-");
  await Deno.writeTextFile(`${folder.path}/my-agent`, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(`${folder.path}/my-agent`, 0o755);
  await Deno.writeTextFile(`${folder.path}/not-exec`, "data\n");
  const env = (vars: Record<string, string>) => ({ get: (name: string) => vars[name] });
  assert.equal(
    await findExecutable("my-agent", "a", env({ PATH: `/nowhere:${folder.path}` })),
    `${folder.path}/my-agent`,
  );
  assert.equal(await findExecutable("not-exec", "a", env({ PATH: folder.path })), null);
  assert.equal(await findExecutable("absent", "a", env({ PATH: folder.path })), null);
  const override = env({ CONFORMANCE_A_B_BIN: `${folder.path}/my-agent`, PATH: "" });
  assert.equal(await findExecutable("whatever", "a-b", override), `${folder.path}/my-agent`);
});

Deno.test("where PATH folders cannot be read, a program is found by spawning it, and the probe is killed at once", async () => {
  await using folder = await tempFolder("conformance-find-probe-");
  const bin = `${folder.path}/bin`;
  await Deno.mkdir(bin);
  const pids = `${folder.path}/pids`;
  // Records its pid, then lingers: the probe must end it, not wait for it.
  for (const name of ["probe-agent", "outside-agent"]) {
    await Deno.writeTextFile(`${bin}/${name}`, `#!/bin/sh\necho $$ >> "${pids}"\nexec sleep 60\n`);
    await Deno.chmod(`${bin}/${name}`, 0o755);
  }
  const { code, stdout, stderr } = await runToEnd(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-prompt",
    `--allow-read=${ROOT}`,
    "--allow-env",
    "--allow-run=probe-agent,absent-agent,kill,ps",
    `${ROOT}tests/exec/_find_child.ts`,
    "probe-agent",
    "absent-agent",
    "outside-agent",
  ], { env: { PATH: `${bin}:/usr/bin:/bin` }, timeoutMs: 60_000 });
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), {
    present: "probe-agent",
    absent: null,
    // Refused by the run permission, so never started: found, and the run's refusal will say what to do.
    outsider: "outside-agent",
  });
  const started = (await Deno.readTextFile(pids).catch(() => "")).trim().split("\n").filter(Boolean);
  assert.ok(started.length <= 1, `only the allowed probe may start, started ${started.length}`);
  for (const pid of started) {
    const alive = await new Deno.Command("kill", { args: ["-0", pid], stdout: "null", stderr: "null" })
      .output();
    assert.equal(alive.success, false, `probe ${pid} must be gone`);
  }
});
