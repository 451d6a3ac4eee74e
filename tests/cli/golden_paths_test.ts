import assert from "node:assert/strict";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";

const CONFIG = `goldenPaths:
  - name: plan-step
    mode: streaming
    prompt: "Reply with exactly: OK"
    options: { model: small }
`;

Deno.test("golden paths from the config file become constructability tests of every CLI host", async () => {
  const file = await Deno.makeTempFile({ suffix: ".yaml" });
  try {
    await Deno.writeTextFile(file, CONFIG);
    const io = memoryIo();
    assert.equal(await runCli(["list", "tests", "--host", "fake,codex", "--config", file, "--json"], io), 0);
    const rows: { host: string; test: string }[] = JSON.parse(io.stdout);
    for (const host of ["fake", "codex"]) {
      assert.ok(
        rows.some((r) => r.host === host && r.test === "cli/constructability/plan-step"),
        `${host} has cli/constructability/plan-step`,
      );
    }
    const without = memoryIo();
    await runCli(["list", "tests", "--host", "fake", "--json"], without);
    assert.ok(!JSON.parse(without.stdout).some((r: { test: string }) => r.test.endsWith("/plan-step")));

    const run = memoryIo();
    const code = await runCli(
      [
        "--host",
        "fake",
        "--config",
        file,
        "--tier",
        "constructability",
        "--grep",
        "plan-step",
        "--reporter",
        "json",
      ],
      run,
    );
    const report = JSON.parse(run.stdout);
    assert.equal(code, 0, run.stderr);
    assert.deepEqual(report.results.map((r: { test: string; status: string }) => [r.test, r.status]), [[
      "cli/constructability/plan-step",
      "PASS",
    ]]);
  } finally {
    await Deno.remove(file);
  }
});
