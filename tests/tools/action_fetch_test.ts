/**
 * The composite action's script (tools/action/fetch.sh) against a stand-in release folder served over real
 * HTTP on loopback: a fake "binary" (a shell script named like the release artifact) and its SHA256SUMS. The
 * script fetches and verifies it, installs it, runs it with the arguments and passes its exit code on; it
 * uses a verified cached copy without downloading, downloads again over a tampered cache, and refuses a
 * binary whose checksum does not match or is not listed, never running it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { ARTIFACT, fetchScript, ROOT, SCRIPT, serveRelease, workDir } from "./_release.ts";

/** The stand-in binary: records that it ran and with what, writes to the step summary, exits 3. */
const FAKE_BINARY = [
  "#!/bin/sh",
  'printf "%s\\n" "$@" > "$CONFORMANCE_TEST_DIR/ran-with"',
  'if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then echo "# board from the binary" >> "$GITHUB_STEP_SUMMARY"; fi',
  'echo "stand-in conformance: $*"',
  "exit 3",
  "",
].join("\n");

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("fetch.sh downloads, verifies, installs and runs the binary with the arguments", async () => {
  await using release = await serveRelease(FAKE_BINARY);
  await using work = await workDir();
  const install = join(work.path, "cache", "bin");
  const githubPath = join(work.path, "github_path");
  const githubOutput = join(work.path, "github_output");
  const summary = join(work.path, "step_summary");
  await Deno.writeTextFile(summary, "earlier step\n");
  const env = {
    CONFORMANCE_BASE_URL: release.baseUrl,
    CONFORMANCE_VERSION: "v9.9.9",
    CONFORMANCE_INSTALL_DIR: install,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    GITHUB_PATH: githubPath,
    GITHUB_OUTPUT: githubOutput,
    GITHUB_STEP_SUMMARY: summary,
  };
  const first = await fetchScript(work.path, ["run", "--host", "fake", "--reporter", "github"], env);
  assert.equal(first.code, 3, `the binary's exit code is the script's: ${first.stderr}`);
  assert.deepEqual(release.requests, ["/download/v9.9.9/SHA256SUMS", `/download/v9.9.9/${ARTIFACT}`]);
  assert.match(
    first.stderr,
    /installed conformance-x86_64-unknown-linux-gnu \(v9\.9\.9\) .* checksum verified/,
  );
  assert.equal(first.stdout, "stand-in conformance: run --host fake --reporter github\n");
  assert.equal(
    await Deno.readTextFile(join(work.path, "ran-with")),
    "run\n--host\nfake\n--reporter\ngithub\n",
  );
  assert.equal(await Deno.readTextFile(githubPath), `${install}\n`);
  assert.equal(await Deno.readTextFile(githubOutput), `path=${install}/conformance\n`);
  // The binary wrote its summary in the working folder; the script appended it to the real one.
  assert.equal(await Deno.readTextFile(summary), "earlier step\n# board from the binary\n");
  assert.deepEqual([...Deno.readDirSync(work.path)].filter((e) => e.name.startsWith(".conformance")), []);

  // A cache hit: verified against the SHA256SUMS kept beside it, nothing downloaded.
  const cached = await fetchScript(work.path, [], { ...env, CONFORMANCE_ARGS: "list  hosts *" });
  assert.equal(cached.code, 3, cached.stderr);
  assert.match(cached.stderr, /using the cached conformance-x86_64-unknown-linux-gnu \(v9\.9\.9\)/);
  assert.equal(release.requests.length, 2);
  // CONFORMANCE_ARGS is split on whitespace, without globbing.
  assert.equal(await Deno.readTextFile(join(work.path, "ran-with")), "list\nhosts\n*\n");

  // A tampered cache is not trusted: downloaded and verified again.
  await Deno.writeTextFile(join(install, "conformance"), "#!/bin/sh\necho tampered\n");
  const again = await fetchScript(work.path, ["--version"], env);
  assert.equal(again.code, 3, again.stderr);
  assert.equal(release.requests.length, 4);
  assert.equal(await Deno.readTextFile(join(install, "conformance")), FAKE_BINARY);
});

Deno.test("fetch.sh refuses a binary whose checksum does not match, or is not listed, and never runs it", async () => {
  await using release = await serveRelease(FAKE_BINARY);
  await using work = await workDir();
  const install = join(work.path, "bin");
  const env = {
    CONFORMANCE_BASE_URL: release.baseUrl,
    CONFORMANCE_INSTALL_DIR: install,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
  };
  await release.sums(`${"0".repeat(64)}  ${ARTIFACT}\n`);
  const tampered = await fetchScript(work.path, ["run"], env);
  assert.equal(tampered.code, 1);
  assert.match(
    tampered.stderr,
    new RegExp(
      `checksum mismatch for ${ARTIFACT}: SHA256SUMS lists 0{64}, the download has [0-9a-f]{64}; refusing`,
    ),
  );
  assert.equal(await exists(install), false, "nothing is installed");
  assert.equal(await exists(join(work.path, "ran-with")), false, "the binary never ran");

  await release.sums(`${"0".repeat(64)}  conformance-aarch64-apple-darwin\n`);
  const unlisted = await fetchScript(work.path, ["run"], env);
  assert.equal(unlisted.code, 1);
  assert.match(unlisted.stderr, /SHA256SUMS at .* lists no conformance-x86_64-unknown-linux-gnu: refusing/);
  assert.equal(await exists(install), false);

  const missing = await fetchScript(work.path, [], {
    ...env,
    CONFORMANCE_BASE_URL: `${release.baseUrl}/nope`,
  });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /download of .*SHA256SUMS failed/);
});

Deno.test("fetch.sh names the release target of each runner, and refuses one without a binary", async () => {
  await using work = await workDir();
  const unknown = await fetchScript(work.path, [], { RUNNER_OS: "Plan9", RUNNER_ARCH: "X64" });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no released binary for the operating system "Plan9"/);
  const noRepo = await fetchScript(work.path, [], { RUNNER_OS: "macOS", RUNNER_ARCH: "ARM64" });
  assert.equal(noRepo.code, 2);
  assert.match(noRepo.stderr, /no repository to download from/);
  // Each runner maps to one of the release targets tools/compile.ts builds.
  const { RELEASE_TARGETS } = await import("../../tools/compile.ts");
  await using release = await serveRelease(FAKE_BINARY);
  for (
    const [os, arch, target] of [
      ["Linux", "X64", "x86_64-unknown-linux-gnu"],
      ["Linux", "ARM64", "aarch64-unknown-linux-gnu"],
      ["macOS", "X64", "x86_64-apple-darwin"],
      ["macOS", "ARM64", "aarch64-apple-darwin"],
      ["Windows", "X64", "x86_64-pc-windows-msvc"],
    ]
  ) {
    assert.ok(RELEASE_TARGETS.includes(target!), target);
    const run = await fetchScript(work.path, [], {
      RUNNER_OS: os!,
      RUNNER_ARCH: arch!,
      CONFORMANCE_BASE_URL: release.baseUrl,
      CONFORMANCE_INSTALL_DIR: join(work.path, target!),
    });
    const file = target!.includes("windows") ? `conformance-${target}.exe` : `conformance-${target}`;
    assert.ok(release.requests.includes(`/download/v9.9.9/${file}`), `${os} ${arch}: ${run.stderr}`);
  }
});

Deno.test("action.yml is a composite action that caches the binary and runs fetch.sh with its inputs", async () => {
  const action = parse(await Deno.readTextFile(join(ROOT, "action.yml")));
  assert.equal(action.runs.using, "composite");
  assert.deepEqual(Object.keys(action.inputs).sort(), ["args", "repository", "version"]);
  const steps = action.runs.steps as { uses?: string; run?: string; env?: Record<string, string> }[];
  const cache = steps.find((step) => step.uses?.startsWith("actions/cache@"));
  assert.ok(cache, "the binary is cached");
  const fetch = steps.find((step) => step.run?.includes("tools/action/fetch.sh"));
  assert.ok(fetch?.run?.includes("$GITHUB_ACTION_PATH/tools/action/fetch.sh"));
  const script = await Deno.readTextFile(SCRIPT);
  for (const name of Object.keys(fetch!.env ?? {})) {
    assert.ok(script.includes(`\${${name}`), `fetch.sh reads ${name}`);
  }
  assert.equal(fetch!.env?.CONFORMANCE_ARGS, "${{ inputs.args }}");
});
