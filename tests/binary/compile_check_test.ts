/**
 * The binary is checked, not assumed: `deno task compile` runs the artifact's `--version` and fails unless
 * it names the harness, and the bench gives no start-up figure for an artifact that is not the harness. The
 * real case: `DENORT_BIN` naming `deno` itself (no denort can be downloaded here) builds a program that is
 * Deno, which prints Deno's version; the build must fail saying why and leave no such binary behind.
 */
import assert from "node:assert/strict";
import { checkArtifact, VERSION_LINE } from "../../tools/compile.ts";
import { compiledStartupRow } from "../bench/bench.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../../src/version.ts";
import { ROOT, runToEnd, tempFolder } from "./_run.ts";

function closedLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** An executable shell script standing in for a compiled artifact. */
async function standIn(dir: string, name: string, body: string): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test({
  name:
    "deno task compile against DENORT_BIN=deno fails: the artifact prints Deno's version, not the harness's",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using folder = await tempFolder("conformance-compile-check-");
    const output = `${folder.path}/conformance`;
    const offline = `http://127.0.0.1:${closedLoopbackPort()}`;
    const { code, stderr } = await runToEnd(
      Deno.execPath(),
      [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-sys",
        "--allow-run",
        "tools/compile.ts",
        "--output",
        output,
      ],
      {
        cwd: ROOT,
        env: { DENORT_BIN: Deno.execPath(), HTTPS_PROXY: offline, HTTP_PROXY: offline, NO_PROXY: "" },
        timeoutMs: 300_000,
      },
    );
    assert.equal(code, 1, stderr);
    assert.match(
      stderr,
      new RegExp(
        `conformance: ".*/conformance --version" printed "deno ${
          Deno.version.deno.replaceAll(".", "\\.")
        } [^"]*" \\(exit 0\\), not "conformance ${HARNESS_VERSION.replaceAll(".", "\\.")} \\(suite .*": ` +
          "it is not the harness; removed .*/conformance\\.",
      ),
    );
    assert.match(stderr, /DENORT_BIN=.* is not a denort runtime of Deno .*: point DENORT_BIN at a denort/);
    assert.doesNotMatch(stderr, /^Compiled /m);
    await assert.rejects(
      Deno.stat(output),
      Deno.errors.NotFound,
      "the artifact that is not the harness is gone",
    );
  },
});

Deno.test({
  name: "a real deno compile on DENORT_BIN=deno makes Deno itself, which checkArtifact refuses",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using folder = await tempFolder("conformance-standin-runtime-");
    // A small program, so the compile takes seconds: the runtime part is what makes it Deno.
    await Deno.writeTextFile(`${folder.path}/hello.ts`, 'console.log("hello");\n');
    const output = `${folder.path}/conformance`;
    const offline = `http://127.0.0.1:${closedLoopbackPort()}`;
    const compiled = await runToEnd(
      Deno.execPath(),
      ["compile", "--quiet", "--no-config", "--output", output, `${folder.path}/hello.ts`],
      {
        cwd: folder.path,
        env: { DENORT_BIN: Deno.execPath(), HTTPS_PROXY: offline, HTTP_PROXY: offline, NO_PROXY: "" },
        timeoutMs: 300_000,
      },
    );
    assert.equal(compiled.code, 0, compiled.stderr);
    const check = await checkArtifact(output);
    assert.equal(check.ok, false);
    assert.match(
      check.ok ? "" : check.why,
      new RegExp(
        `printed "deno ${Deno.version.deno.replaceAll(".", "\\.")} .*" \\(exit 0\\).*not the harness`,
      ),
    );
    const row = await compiledStartupRow(output, 3);
    assert.equal(row.value, "not measured", "no start-up figure for Deno's own");
  },
});

Deno.test("checkArtifact accepts only a binary whose --version names the harness", async () => {
  await using folder = await tempFolder("conformance-artifact-");
  const deno = await standIn(folder.path, "deno-like", `echo "deno ${Deno.version.deno} (stable, release)"`);
  const crashing = await standIn(folder.path, "crashing", 'echo "error: unknown flag" >&2; exit 1');
  const harness = await standIn(
    folder.path,
    "harness",
    `echo "conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}, deno ${Deno.version.deno})"`,
  );
  const wrongSuite = await standIn(
    folder.path,
    "old",
    `echo "conformance ${HARNESS_VERSION} (suite 1999.01.01)"`,
  );
  assert.deepEqual(await checkArtifact(harness), {
    ok: true,
    version: `conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}, deno ${Deno.version.deno})`,
  });
  const notHarness = await checkArtifact(deno);
  assert.ok(!notHarness.ok && /printed "deno .*" \(exit 0\).*it is not the harness/.test(notHarness.why));
  const crashed = await checkArtifact(crashing);
  assert.ok(!crashed.ok && /printed "error: unknown flag" \(exit 1\)/.test(crashed.why));
  assert.equal((await checkArtifact(wrongSuite)).ok, false);
  const missing = await checkArtifact(`${folder.path}/nope`);
  assert.ok(!missing.ok && /could not run/.test(missing.why));
  assert.ok(VERSION_LINE.startsWith(`conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}`));
});

Deno.test("the bench reports no start-up figure for an artifact that is not the harness", async () => {
  await using folder = await tempFolder("conformance-bench-artifact-");
  const deno = await standIn(
    folder.path,
    "conformance",
    `echo "deno ${Deno.version.deno} (stable, release)"`,
  );
  const row = await compiledStartupRow(deno, 3);
  assert.equal(row.value, "not measured");
  assert.equal(row.met, null);
  assert.match(row.note, /it is not the harness; no figure for it/);
  await Deno.remove(deno);
  const harness = await standIn(
    folder.path,
    "conformance",
    `echo "conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}, deno ${Deno.version.deno})"`,
  );
  const measured = await compiledStartupRow(harness, 3);
  assert.match(measured.value, /^\d+ ms$/);
  assert.match(measured.note, new RegExp(`3 runs of the compiled binary \\(conformance ${HARNESS_VERSION}`));
});
