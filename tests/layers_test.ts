/**
 * The layers of docs/architecture.md, checked on the real import graph of every module (`deno info --json`:
 * value, type and dynamic imports): which folder may import which ({@linkcode DEPS}), no import cycle among
 * the repository's modules, and no `Deno` API in what is bundled for the browser
 * ({@linkcode BROWSER_BUNDLES}).
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ASSETS } from "../tools/build_assets.ts";

/** Repository-relative module path → the repository modules it imports. */
type Graph = ReadonlyMap<string, readonly string[]>;

/** The import graph and which of its edges are type-only (`import type`), as `module -> target`. */
interface ModuleGraph {
  readonly imports: Graph;
  readonly typeOnly: ReadonlySet<string>;
}

const ROOT = new URL("../", import.meta.url);

/**
 * Modules below every layer that any module may import: error classes, file-name parts, quoting, the bounded
 * reader, time.
 */
const LEAVES = ["src/errors.ts", "src/file_name.ts", "src/quote.ts", "src/read_bounded.ts", "src/time.ts"];

/**
 * Which module may import which, in the manner of Playwright's `DEPS.list`. A key is a folder (ending in
 * `/`) or one module; a module follows the rule of the longest key that covers it; the rule lists the folders
 * and modules it may import (`*`: anything; `type:` before one: only with `import type`). Every module
 * must be covered by a key.
 */
const DEPS: Readonly<Record<string, readonly string[]>> = {
  // Contracts: the capability protocol, the outcome model, the shapes of a host entry and a suite driver.
  "src/protocol.ts": [],
  "src/outcome.ts": [],
  "src/fixtures.ts": ["src/protocol.ts"],
  "src/suite.ts": ["src/host.ts", "src/outcome.ts"],
  // A host entry names the two interfaces the engine drives a host through; they are declared beside the
  // engine parts that drive them (which know nothing of any concrete host), so only their types come up.
  "src/host.ts": [
    "type:src/exec/host_runner.ts",
    // The capability kinds an MCP Apps host entry lists.
    "type:src/protocol.ts",
    "type:src/runner/host.ts",
    "type:src/runner/suite_server.ts",
  ],
  // Leaves.
  "src/errors.ts": [],
  "src/file_name.ts": [],
  "src/quote.ts": [],
  "src/read_bounded.ts": ["src/errors.ts"],
  "src/time.ts": [],
  // The engine: never a concrete host, suite or the application.
  "src/": ["src/"],
  "src/normalize/": ["src/normalize/", ...LEAVES],
  "src/exec/": ["src/exec/", "src/normalize/", "src/permissions.ts", ...LEAVES],
  "src/mock_model/": ["src/mock_model/", "src/exec/", ...LEAVES],
  "src/server/": ["src/server/", "src/protocol.ts", "src/fixtures.ts", ...LEAVES],
  "src/runner/": [
    "src/runner/",
    "src/exec/",
    "src/protocol.ts",
    "src/fixtures.ts",
    "src/suggest.ts",
    ...LEAVES,
  ],
  "src/report/": ["src/report/", "src/outcome.ts", ...LEAVES],
  // Hosts, then suites (a suite may look a host up in hosts/registry.ts; a host never names a test).
  "hosts/": ["hosts/", "src/"],
  // The fake ACP agent's variants are switched by the variable its module names.
  "hosts/cli/fake_acp.ts": ["hosts/", "src/", "fake_acp_agent/mod.ts"],
  "suite/": ["suite/", "hosts/", "src/"],
  // The application.
  "cli/": ["cli/", "suite/", "hosts/", "src/"],
  "fake_host/": ["fake_host/", "src/"],
  // The reference agent is re-invoked per host run, like the fake host: it imports nothing outside its folder.
  "reference_agent/": ["reference_agent/"],
  // So is the scripted fake ACP agent, per ACP test.
  "fake_acp_agent/": ["fake_acp_agent/"],
  // The reaper is started as `conformance __reaper` and must not pay for loading the CLI.
  "main.ts": ["cli/", "fake_host/", "reference_agent/", "fake_acp_agent/", "src/exec/reaper.ts"],
  "mod.ts": ["src/"],
  "tools/": ["*"],
  "tests/": ["*"],
};

/**
 * The browser bundles' entry points (`tools/build_assets.ts` builds one asset from each) and what the modules
 * they reach may import: the in-iframe suite and the two host pages run in a browser, so only the protocol,
 * the fixture names and the leaves come from the engine.
 */
const BROWSER_BUNDLES: Readonly<Record<string, readonly string[]>> = {
  "suite/apps/main.ts": [
    "suite/apps/main.ts",
    "suite/apps/harness/",
    "suite/apps/catalogue/",
    "src/protocol.ts",
    "src/fixtures.ts",
    // The apps side's table of default deadlines, which the in-iframe tests share with the Runner: a module
    // with no imports and no Deno API (what it reaches is checked here like the rest of the bundle).
    "src/runner/deadlines.ts",
    ...LEAVES,
  ],
  "hosts/web/reference/host_page.ts": [
    "hosts/web/reference/",
    "src/protocol.ts",
    "src/fixtures.ts",
    ...LEAVES,
  ],
  "hosts/web/mcp_ui/page.tsx": ["hosts/web/mcp_ui/", ...LEAVES],
};

const MODULE = /\.(ts|tsx|mts|js|mjs)$/;
const SKIPPED_DIRS = new Set(["node_modules", "dist"]);

/** Every module file under `root` (repository-relative) outside hidden folders, `node_modules` and `dist`. */
async function moduleFiles(root: URL, dir = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir || ".", root))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory && !entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) {
      files.push(...await moduleFiles(root, `${path}/`));
    } else if (entry.isFile && MODULE.test(entry.name)) files.push(path);
  }
  return files.sort();
}

interface DenoInfo {
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
  }[];
}

/**
 * The import graph of every module under `root`, from one `deno info --json` of a scratch module importing
 * them all (with `root`'s `deno.json`). Fails the test when a module is missing from the graph.
 */
async function importGraph(root: URL): Promise<ModuleGraph> {
  const files = await moduleFiles(root);
  const scratch = await Deno.makeTempDir({ prefix: "layers-" });
  try {
    const all = `${scratch}/all.ts`;
    await Deno.writeTextFile(
      all,
      files.map((file) => `import ${JSON.stringify(new URL(file, root).href)};\n`).join(""),
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", fileURLToPath(new URL("deno.json", root)), all],
      cwd: fileURLToPath(root),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as DenoInfo;
    const local = (specifier: string | undefined) => specifier?.startsWith(root.href) ?? false;
    const relative = (href: string) => href.slice(root.href.length);
    const graph = new Map<string, string[]>();
    const typeOnly = new Set<string>();
    for (const module of info.modules.filter((module) => local(module.specifier))) {
      const name = relative(module.specifier);
      const imports = new Set<string>();
      for (const dep of module.dependencies ?? []) {
        const code = dep.code?.specifier, type = dep.type?.specifier;
        if (local(code)) imports.add(relative(code!));
        if (local(type)) imports.add(relative(type!));
        if (local(type) && !local(code)) typeOnly.add(`${name} -> ${relative(type!)}`);
      }
      graph.set(name, [...imports].sort());
    }
    assert.deepEqual(files.filter((file) => !graph.has(file)), [], "modules missing from the import graph");
    return { imports: graph, typeOnly };
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

function covers(key: string, module: string): boolean {
  return key === "*" || key === module || (key.endsWith("/") && module.startsWith(key));
}

/** The longest key of `deps` that covers `module`. */
function ruleOf(deps: Readonly<Record<string, readonly string[]>>, module: string): string | undefined {
  return Object.keys(deps).filter((key) => covers(key, module)).sort((a, b) => b.length - a.length)[0];
}

/** Whether the rule entry `allowed` lets `module` import `target` (a `type:` entry: only as a type). */
function admits(graph: ModuleGraph, allowed: string, module: string, target: string): boolean {
  if (!allowed.startsWith("type:")) return covers(allowed, target);
  return covers(allowed.slice("type:".length), target) && graph.typeOnly.has(`${module} -> ${target}`);
}

/** Every import the table does not allow, as `module -> target`, and every module no rule covers. */
function forbiddenImports(graph: ModuleGraph, deps = DEPS): string[] {
  return [...graph.imports].flatMap(([module, imports]) => {
    const key = ruleOf(deps, module);
    if (key === undefined) return [`${module}: no rule in DEPS covers it`];
    const allowed = deps[key] ?? [];
    return imports.filter((target) => !allowed.some((entry) => admits(graph, entry, module, target))).map((
      target,
    ) => `${module} -> ${target} (rule "${key}")`);
  });
}

/** One path per import cycle (per strongly connected component), as `a -> b -> … -> a`. */
function importCycles(graph: Graph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const component = new Set(stack.splice(stack.indexOf(module)));
    const path = cyclePath(graph, module, component);
    if (path) cycles.push(fromSmallest(path).join(" -> "));
  };
  for (const module of [...graph.keys()].sort()) if (!index.has(module)) visit(module);
  return cycles;
}

/** The shortest path from `start` back to itself inside `component`, or undefined when there is none. */
function cyclePath(graph: Graph, start: string, component: ReadonlySet<string>): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const module = queue[i]!;
    for (const target of graph.get(module) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [module];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(target) && target !== start) {
        previous.set(target, module);
        queue.push(target);
      }
    }
  }
  return undefined;
}

/** The cycle `path` (first module repeated at the end) rotated to start at its smallest module name. */
function fromSmallest(path: readonly string[]): string[] {
  const ring = path.slice(0, -1);
  const first = ring.indexOf([...ring].sort()[0]!);
  const rotated = [...ring.slice(first), ...ring.slice(0, first)];
  return [...rotated, rotated[0]!];
}

/** Every module reachable from `entry`, itself included. */
function reachable(graph: Graph, entry: string): string[] {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const module = pending.pop()!;
    if (seen.has(module)) continue;
    seen.add(module);
    pending.push(...graph.get(module) ?? []);
  }
  return [...seen].sort();
}

/** Imports of a browser bundle's modules outside what {@linkcode BROWSER_BUNDLES} allows it. */
function browserImports(graph: Graph, bundles = BROWSER_BUNDLES): string[] {
  return Object.entries(bundles).flatMap(([entry, allowed]) => {
    if (!graph.has(entry)) return [`${entry}: the browser entry is not in the import graph`];
    return reachable(graph, entry).flatMap((module) =>
      (graph.get(module) ?? []).filter((target) => !allowed.some((a) => covers(a, target))).map((target) =>
        `${module} -> ${target} (bundled from ${entry})`
      )
    );
  });
}

/** Source text without comments (a `//` right after `:` is a URL, not a comment). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** Whether code uses the `Deno` global (`Deno.x`, `Deno["x"]`, `typeof Deno`). */
function usesDeno(code: string): boolean {
  return /\bDeno\s*[.[]|typeof\s+Deno\b/.test(code);
}

Deno.test("every module imports only what the layer table allows, and no modules import each other in a cycle", async () => {
  const modules = await importGraph(ROOT);
  const graph = modules.imports;
  assert.ok(
    graph.has("src/exec/executor.ts") && graph.has("cli/mod.ts") && graph.has("hosts/web/mcp_ui/page.tsx"),
  );
  assert.deepEqual(forbiddenImports(modules), []);
  assert.deepEqual(importCycles(graph), []);
});

Deno.test("the browser bundles reach only the protocol, the fixture names and the leaves, and use no Deno API", async () => {
  const graph = (await importGraph(ROOT)).imports;
  assert.equal(
    ASSETS.length,
    Object.keys(BROWSER_BUNDLES).length,
    "every asset's entry is in BROWSER_BUNDLES",
  );
  assert.deepEqual(browserImports(graph), []);
  const bundled = [...new Set(Object.keys(BROWSER_BUNDLES).flatMap((entry) => reachable(graph, entry)))];
  const sources = await Promise.all(
    bundled.map(async (module) => [module, await Deno.readTextFile(new URL(module, ROOT))]),
  );
  assert.deepEqual(
    sources.filter(([, source]) => usesDeno(withoutComments(source!))).map(([module]) => module),
    [],
  );
  for (const asset of ASSETS) assert.ok(!/\bDeno\b/.test(await asset.build()), `${asset.path} names Deno`);
});

Deno.test("the checks report a planted upward import, a planted cycle and a Deno use in a browser module", async () => {
  const modules = await importGraph(ROOT);
  const graph = modules.imports;
  const planted = (module: string, target: string) =>
    new Map([...graph, [module, [...graph.get(module) ?? [], target]]]);
  const withTypeOnly = (imports: Graph) => ({ imports, typeOnly: modules.typeOnly });
  // Only the cycles a plant adds: the checks on the real graph (above) report any the repository has.
  const before = new Set(importCycles(graph));
  const newCycles = (planted: Graph) => importCycles(planted).filter((cycle) => !before.has(cycle));
  const upward = planted("src/normalize/events.ts", "cli/run.ts");
  assert.deepEqual(forbiddenImports(withTypeOnly(upward)), [
    'src/normalize/events.ts -> cli/run.ts (rule "src/normalize/")',
  ]);
  const cycles = newCycles(upward);
  assert.equal(cycles.length, 1, cycles.join("\n"));
  assert.match(cycles[0]!, /^(\S+) -> .*src\/normalize\/events\.ts -> cli\/run\.ts -> .*\1$/);
  const valueImport = {
    imports: graph,
    typeOnly: new Set([...modules.typeOnly].filter((e) => !e.startsWith("src/host.ts"))),
  };
  assert.deepEqual(forbiddenImports(valueImport), [
    'src/host.ts -> src/exec/host_runner.ts (rule "src/host.ts")',
    'src/host.ts -> src/protocol.ts (rule "src/host.ts")',
    'src/host.ts -> src/runner/host.ts (rule "src/host.ts")',
    'src/host.ts -> src/runner/suite_server.ts (rule "src/host.ts")',
  ]);
  const cycle = planted("src/suggest.ts", "src/config.ts");
  assert.deepEqual(forbiddenImports(withTypeOnly(cycle)), []);
  const plantedCycles = newCycles(cycle);
  assert.equal(plantedCycles.length, 1, plantedCycles.join("\n"));
  assert.match(plantedCycles[0]!, /^src\/config\.ts -> .*src\/suggest\.ts -> src\/config\.ts$/);
  const browser = planted("suite/apps/harness/env.ts", "src/exec/executor.ts");
  assert.deepEqual(
    browserImports(browser).filter((line) => line.includes("harness/env.ts")),
    ["suite/apps/harness/env.ts -> src/exec/executor.ts (bundled from suite/apps/main.ts)"],
  );
  assert.ok(
    usesDeno("const home = Deno.env.get('HOME');") && !usesDeno(withoutComments("// Deno.env is not here\n")),
  );
  assert.ok(!usesDeno(withoutComments("/** Deno.exit */ const url = 'http://x'; // Deno.args")));
});

Deno.test("the import graph of real files catches a planted upward import and its cycle (scratch repository)", async () => {
  const root = await Deno.makeTempDir({ prefix: "layers-repo-" });
  try {
    const write = async (path: string, text: string) => {
      await Deno.mkdir(new URL(".", `file://${root}/${path}`), { recursive: true });
      await Deno.writeTextFile(`${root}/${path}`, text);
    };
    await write("deno.json", "{}\n");
    await write(
      "src/normalize/events.ts",
      'import { run } from "../../cli/run.ts";\nexport const events = run;\n',
    );
    await write(
      "cli/run.ts",
      'import type { events } from "../src/normalize/events.ts";\nexport const run = 1;\n' +
        "export type Events = typeof events;\n",
    );
    const modules = await importGraph(new URL(`file://${root}/`));
    assert.deepEqual(forbiddenImports(modules), [
      'src/normalize/events.ts -> cli/run.ts (rule "src/normalize/")',
    ]);
    assert.deepEqual(modules.typeOnly, new Set(["cli/run.ts -> src/normalize/events.ts"]));
    assert.deepEqual(importCycles(modules.imports), ["cli/run.ts -> src/normalize/events.ts -> cli/run.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
