/**
 * `deno compile` of the program. Here Deno's download server is unreachable, so `denort` is replaced by a
 * stand-in executable (`DENORT_BIN`): the compile still resolves, type-checks and embeds the whole module graph
 * and the assets, and the output can be inspected, though not run. It runs offline (every request would go to
 * a closed loopback port), as on an air-gapped build machine with the packages installed. Where a real `denort` is available
 * (`DENORT_BIN` naming one, a cached copy in the Deno cache, or `CONFORMANCE_DENORT_DOWNLOAD=1` where the
 * download server is reachable), the binary is compiled for real and runs the fake tier.
 */
import assert from "node:assert/strict";
import { ASSETS, buildAssets } from "../../tools/build_assets.ts";
import { compileArgs } from "../../tools/compile.ts";
import { NET_ALLOW, RUN_ALLOW, SYS_ALLOW, WRITE_ALLOW } from "../../src/permissions.ts";
import { SUITE_CONFIG_ELEMENT_ID, TEARDOWN_TEST_IDS } from "../../src/fixtures.ts";
import { SUITE_REVISION } from "../../src/version.ts";
import { indexOfBytes, readMetadata, readVfsRoot, vfsEntry } from "./_metadata.ts";
import { ROOT, runToEnd, tempFolder } from "./_run.ts";
import { denortSource } from "./_denort.ts";

const STAND_IN = ["/usr/bin/true", "/bin/true"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

function closedLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Every module of the program's own source tree that runs (reached from `main.ts` through code imports, not
 * type-only ones, which compile erases), relative to the repository root (`deno info --json`).
 */
async function localModules(): Promise<string[]> {
  const { code, stdout, stderr } = await runToEnd(Deno.execPath(), ["info", "--json", "main.ts"], {
    cwd: ROOT,
    timeoutMs: 120_000,
  });
  assert.equal(code, 0, stderr);
  const info = JSON.parse(stdout) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
  };
  const edges = new Map(info.modules.map((module) => [
    module.specifier,
    (module.dependencies ?? []).flatMap((dependency) => dependency.code ? [dependency.code.specifier] : []),
  ]));
  const root = new URL(`file://${ROOT}`).href;
  const seen = new Set<string>();
  const queue = [...info.roots];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (seen.has(next) || !next.startsWith(root)) continue;
    seen.add(next);
    queue.push(...(edges.get(next) ?? []));
  }
  return [...seen].map((specifier) => specifier.slice(root.length)).sort();
}

/** The built-in expectation files (`hosts/expectations/`, embedded when present), relative to the root. */
async function* expectationFiles(): AsyncGenerator<string> {
  try {
    for await (const entry of Deno.readDir(`${ROOT}hosts/expectations`)) {
      if (entry.isFile) yield `hosts/expectations/${entry.name}`;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

Deno.test({
  name: "deno compile offline with a stand-in denort embeds the whole module graph, every asset and the " +
    "permission set",
  ignore: STAND_IN === undefined || Deno.build.os === "windows",
  async fn() {
    await buildAssets();
    await using folder = await tempFolder("conformance-compile-");
    const output = `${folder.path}/conformance`;
    // Offline, as on an air-gapped build machine: every request would go to a closed loopback port.
    const offline = `http://127.0.0.1:${closedLoopbackPort()}`;
    const { code, stderr } = await runToEnd(Deno.execPath(), compileArgs({ output }), {
      cwd: ROOT,
      env: { DENORT_BIN: STAND_IN!, HTTPS_PROXY: offline, HTTP_PROXY: offline, NO_PROXY: "" },
      timeoutMs: 400_000,
    });
    assert.equal(code, 0, stderr);
    const binary = await Deno.readFile(output);
    const standIn = await Deno.readFile(STAND_IN!);
    // The stand-in's own header (its ELF or Mach-O identification) starts the output; the program follows.
    assert.deepEqual(binary.subarray(0, 16), standIn.subarray(0, 16), "the runtime part is the stand-in");
    assert.ok(binary.length > standIn.length + 1_000_000, `output is only ${binary.length} bytes`);

    // The embedded file system is rooted at the repository, so a module's `new URL("../../dist/…",
    // import.meta.url)` finds the asset inside the binary; its bytes sit at the listed offset.
    const vfs = readVfsRoot(binary);
    let dataStart: number | null = null;
    for (const asset of ASSETS) {
      const content = await Deno.readFile(asset.url);
      const at = indexOfBytes(binary, content);
      assert.ok(at !== -1, `${asset.path} is not embedded whole`);
      const entry = vfsEntry(vfs, asset.path);
      assert.ok(entry && "File" in entry, `${asset.path} is not in the binary's file system`);
      const [offset, length] = entry.File.o;
      assert.equal(length, content.length, `${asset.path}: embedded length`);
      dataStart ??= at - offset;
      assert.equal(at - offset, dataStart, `${asset.path}: its bytes are not where the listing says`);
    }
    const suite = await Deno.readTextFile(ASSETS[0]!.url);
    for (const marker of [`<script id="${SUITE_CONFIG_ELEMENT_ID}"`, ...TEARDOWN_TEST_IDS]) {
      assert.ok(suite.includes(marker), `the suite asset lacks its marker "${marker}"`);
      assert.ok(indexOfBytes(binary, new TextEncoder().encode(marker)) !== -1, `binary lacks "${marker}"`);
    }
    const modules = await localModules();
    assert.ok(
      modules.includes("fake_host/mod.ts") && modules.includes("reference_agent/mod.ts") &&
        modules.includes("suite/apps/build.ts"),
      modules.join(),
    );
    for (const module of modules) {
      assert.ok(vfsEntry(vfs, module), `module ${module} is not in the binary's file system`);
    }
    assert.equal(vfsEntry(vfs, "tests"), undefined, "the tests are not part of the program");

    for await (const entry of expectationFiles()) {
      const content = await Deno.readFile(new URL(entry, `file://${ROOT}`));
      assert.ok(indexOfBytes(binary, content) !== -1, `built-in expectations ${entry} are not embedded`);
    }

    const metadata = readMetadata(binary);
    assert.notEqual(metadata.permissions.allow_all, true);
    assert.deepEqual(metadata.permissions.allow_net, [...NET_ALLOW]);
    assert.deepEqual(metadata.permissions.allow_import, [...NET_ALLOW]);
    assert.equal(metadata.permissions.prompt, false, "a refusal must never wait for an answer");
    assert.deepEqual(metadata.permissions.allow_run, [...RUN_ALLOW]);
    assert.deepEqual(metadata.permissions.allow_write, [...WRITE_ALLOW]);
    assert.deepEqual(metadata.permissions.allow_sys, [...SYS_ALLOW]);
    assert.equal(metadata.log_level?.toUpperCase(), "ERROR", "the binary must keep Deno's notes quiet");
  },
});

const denort = denortSource();

Deno.test({
  name: denort === null
    ? "compiled binary runs the fake tier from an empty folder (SKIP: no denort here: Deno's download " +
      "server is unreachable, DENORT_BIN is unset and the Deno cache holds none; see docs/binary.md)"
    : `compiled binary runs the fake tier from an empty folder (denort from ${denort.how})`,
  ignore: denort === null,
  async fn() {
    await buildAssets();
    await using folder = await tempFolder("conformance-binary-");
    const output = `${folder.path}/bin/conformance${Deno.build.os === "windows" ? ".exe" : ""}`;
    const env: Record<string, string> = denort?.denortBin ? { DENORT_BIN: denort.denortBin } : {};
    const compiled = await runToEnd(Deno.execPath(), compileArgs({ output }), {
      cwd: ROOT,
      env,
      timeoutMs: 600_000,
    });
    assert.equal(compiled.code, 0, compiled.stderr);
    await Deno.mkdir(`${folder.path}/work`);
    const version = await runToEnd(output, ["--version"], { cwd: `${folder.path}/work`, timeoutMs: 60_000 });
    assert.equal(version.code, 0, version.stderr);
    assert.ok(version.stdout.includes(SUITE_REVISION), version.stdout);
    const args = [
      "run",
      "--host",
      "fake,fake-minimal",
      "--suite",
      "cli",
      "--reporter",
      "json",
      "--out",
      "out",
    ];
    const run = await runToEnd(output, args, { cwd: `${folder.path}/work` });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${folder.path}/work/out/report.json`)) as {
      results: { test: string; status: string; expected: string }[];
    };
    assert.ok(report.results.length >= 40, `expected both fakes' tiers, got ${report.results.length}`);
    assert.deepEqual(report.results.filter((result) => result.status !== result.expected), []);
    // The reference agent is the binary itself too, its shell tool under the binary's permissions.
    const agentArgs = [
      "run",
      "--host",
      "reference-agent",
      "--mock-model",
      "--reporter",
      "json",
      "--out",
      "out",
    ];
    const agent = await runToEnd(output, agentArgs, { cwd: `${folder.path}/work` });
    assert.equal(agent.code, 0, agent.stderr);
    const agentReport = JSON.parse(await Deno.readTextFile(`${folder.path}/work/out/report.json`)) as {
      results: { test: string; status: string }[];
    };
    assert.ok(agentReport.results.length >= 35, `expected every CLI tier, got ${agentReport.results.length}`);
    assert.deepEqual(agentReport.results.filter((result) => result.status !== "PASS"), []);
  },
});
