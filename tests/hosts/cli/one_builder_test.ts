/**
 * Every CLI host runner is built by `cliRunner` (hosts/cli/_runner.ts): the fakes, the real agent CLIs and
 * the `--config` hosts freeze their invocations one way, so no host file writes its own `build`.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import { configHosts } from "../../../hosts/from_config.ts";
import { parseConfig } from "../../../src/config.ts";

const ROOT = new URL("../../../", import.meta.url);
const BUILDER = "hosts/cli/_runner.ts";

async function* tsFiles(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    if (entry.isDirectory) yield* tsFiles(new URL(`${entry.name}/`, folder));
    else if (entry.name.endsWith(".ts")) yield new URL(entry.name, folder);
  }
}

Deno.test("no file of hosts/ but the shared builder implements HostRunner.build", async () => {
  const own: string[] = [];
  for await (const file of tsFiles(new URL("hosts/", ROOT))) {
    const path = file.pathname.slice(ROOT.pathname.length);
    if (path === BUILDER) continue;
    if (/\bbuild\s*\(\s*path\b/.test(await Deno.readTextFile(file))) own.push(path);
  }
  assert.deepEqual(own, [], `build a CLI runner with cliRunner (${BUILDER})`);
});

Deno.test("built-in and config CLI runners freeze invocations the same way", () => {
  const config = parseConfig(
    [
      "hosts:",
      "  - id: my-agent",
      "    kind: cli",
      "    binary: my-agent",
      "    dialect: claude",
      "    paths:",
      '      streaming: ["-p", "{prompt}", "--model", "{model}"]',
    ].join("\n"),
    "c.yaml",
  );
  const runners = [
    ...HOSTS.flatMap((host) => host.kind === "cli" ? [host.runner] : []),
    ...configHosts(config)
      .flatMap((host) => host.kind === "cli" ? [host.runner] : []),
  ];
  assert.ok(runners.some((runner) => runner.name === "my-agent"));
  for (const runner of runners) {
    assert.ok(Object.isFrozen(runner.goldenPaths), runner.name);
    const invocation = runner.build("streaming", { prompt: "hi", workingDir: "/tmp" });
    for (
      const part of [
        invocation,
        invocation.args,
        invocation.env,
        invocation.envAllow,
        invocation.cleanupPaths,
      ]
    ) {
      assert.ok(Object.isFrozen(part), runner.name);
    }
    assert.equal(invocation.cwd, "/tmp", runner.name);
    assert.throws(() => runner.build("no-such-path", { prompt: "hi" }), RangeError, runner.name);
  }
});
