import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../../", import.meta.url);

/** Every local module reachable from `entries`, from `deno info --json`. */
async function reachable(entries: string[]): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const entry of entries) {
    const output = await new Deno.Command(Deno.execPath(), {
      detached: true,
      args: ["info", "--json", entry],
      cwd: fileURLToPath(ROOT),
      stdin: "null",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      modules: { specifier: string; dependencies?: { specifier: string; code?: { specifier?: string } }[] }[];
    };
    for (const module of info.modules) {
      if (!module.specifier.startsWith(ROOT.href)) continue;
      const deps = (module.dependencies ?? []).flatMap((dep) =>
        dep.code?.specifier ? [dep.code.specifier] : []
      );
      graph.set(module.specifier.slice(ROOT.href.length), deps.map((dep) => dep.slice(ROOT.href.length)));
    }
  }
  return graph;
}

async function sources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    if (entry.isFile && entry.name.endsWith(".ts")) files.push(`${dir}${entry.name}`);
  }
  return files.sort();
}

/** Modules of the engine layers that name something they must not import. */
function offenders(graph: Map<string, string[]>, layer: RegExp): string[] {
  return [...graph].filter(([module]) => layer.test(module)).flatMap(([module, deps]) =>
    deps.filter((dep) => /^(hosts|suite|fake_host|cli)\//.test(dep)).map((dep) => `${module} -> ${dep}`)
  );
}

Deno.test("src/exec and src/normalize import no concrete host, suite or CLI module (deno info --json)", async () => {
  const graph = await reachable([...await sources("src/exec/"), ...await sources("src/normalize/")]);
  assert.ok(graph.has("src/exec/executor.ts") && graph.has("src/normalize/claude.ts"), "graph is incomplete");
  assert.deepEqual(offenders(graph, /^src\/(exec|normalize)\//), []);
});

Deno.test("the import-graph check catches a violating module", () => {
  const graph = new Map([["src/exec/bad.ts", ["hosts/cli/fake.ts", "src/exec/env.ts"]]]);
  assert.deepEqual(offenders(graph, /^src\/(exec|normalize)\//), ["src/exec/bad.ts -> hosts/cli/fake.ts"]);
});

Deno.test("the engine (src/) imports no concrete host, suite or CLI module (deno info --json)", async () => {
  const dirs = [
    "src/",
    "src/exec/",
    "src/normalize/",
    "src/runner/",
    "src/server/",
    "src/report/",
    "src/mock_model/",
  ];
  const graph = await reachable((await Promise.all(dirs.map(sources))).flat());
  assert.ok(graph.has("src/config.ts") && graph.has("src/runner/launch_steps.ts"), "graph is incomplete");
  assert.deepEqual(offenders(graph, /^src\//), []);
});
