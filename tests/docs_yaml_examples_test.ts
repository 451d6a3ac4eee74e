/**
 * Every ```yaml example of README.md and docs/*.md, as written: a config file (top-level `hosts:` or
 * `goldenPaths:`) loads with `parseConfig` without a problem, an expectations file (`schema:
 * conformance-expectations/…`) with `parseExpectations`, and a fragment of a host entry (its top-level keys
 * are host fields) loads inside a minimal web host. An HTML comment on the line before a block may say
 * `<!-- yaml-example: mistake -->` (the example shows a mistake: it must be refused) or
 * `<!-- yaml-example: skip: REASON -->`; skips stay few. The README's CLI config example is also run, with
 * `my-agent` written here as a script that speaks the claude dialect through the built-in fake host.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parse as parseYaml, stringify } from "yaml";
import { parseConfig } from "../src/config.ts";
import { UsageError } from "../src/errors.ts";
import { fakeHostCommand } from "../src/exec/self.ts";
import { parseExpectations } from "../src/expectations.ts";
import { permissionFlags } from "../src/permissions.ts";
import { ROOT, runToEnd, tempFolder } from "./binary/_run.ts";

interface YamlExample {
  /** `README.md:467`: the file and the line of the opening fence. */
  readonly where: string;
  readonly text: string;
  /** The `yaml-example:` marker on the line before the fence, if any. */
  readonly marker: string | null;
}

const DOCS = ["README.md", ...[...Deno.readDirSync(`${ROOT}docs`)].map((entry) => `docs/${entry.name}`)]
  .filter((file) => file.endsWith(".md")).sort();

function examplesOf(file: string): YamlExample[] {
  const lines = Deno.readTextFileSync(`${ROOT}${file}`).split("\n");
  const examples: YamlExample[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]!.trim() !== "```yaml") continue;
    const end = lines.findIndex((line, at) => at > index && line.trim() === "```");
    assert.ok(end > index, `${file}:${index + 1}: a yaml block that is never closed`);
    const before = lines.slice(0, index).findLast((line) => line.trim() !== "") ?? "";
    examples.push({
      where: `${file}:${index + 1}`,
      text: lines.slice(index + 1, end).join("\n"),
      marker: /<!--\s*yaml-example:\s*(.*?)\s*-->/.exec(before)?.[1] ?? null,
    });
    index = end;
  }
  return examples;
}

const EXAMPLES = DOCS.flatMap(examplesOf);

const ACTION_INPUTS = Object.keys(
  (parseYaml(Deno.readTextFileSync(`${ROOT}action.yml`)) as { inputs: Record<string, unknown> }).inputs,
);

/**
 * A GitHub Actions step list (docs/ci.md): every step that uses the conformance action passes only inputs
 * action.yml declares.
 */
function checkSteps(steps: unknown[], where: string): "workflow" {
  for (const step of steps as { uses?: unknown; with?: Record<string, unknown> }[]) {
    if (typeof step.uses !== "string" || !/\/conformance@/.test(step.uses)) continue;
    for (const input of Object.keys(step.with ?? {})) {
      assert.ok(ACTION_INPUTS.includes(input), `${where}: the action has no input "${input}"`);
    }
  }
  return "workflow";
}

/** Checks one example as written; returns how it was classified. */
function check(example: YamlExample): "config" | "expectations" | "fragment" | "skip" | "workflow" {
  if (example.marker?.startsWith("skip:")) return "skip";
  const data = parseYaml(example.text) as unknown;
  if (Array.isArray(data) && data.every((step) => typeof step === "object" && step && "uses" in step)) {
    return checkSteps(data, example.where);
  }
  const keys = typeof data === "object" && data !== null && !Array.isArray(data) ? Object.keys(data) : [];
  const load = (): "config" | "expectations" | "fragment" => {
    if (typeof (data as { schema?: unknown }).schema === "string" && keys.includes("tests")) {
      parseExpectations(example.text, example.where);
      return "expectations";
    }
    if (keys.includes("hosts") || keys.includes("goldenPaths")) {
      parseConfig(example.text, example.where);
      return "config";
    }
    // A fragment of a web host entry: it must load inside the smallest one.
    const host = {
      id: "fragment",
      kind: "web",
      url: "http://127.0.0.1:1/",
      launch: [{ click: "#go" }],
      live: false,
    };
    parseConfig(stringify({ hosts: [{ ...host, ...(data as object) }] }), example.where);
    return "fragment";
  };
  if (example.marker === "mistake") {
    assert.throws(load, UsageError, `${example.where} shows a mistake, but it loads`);
    return "config";
  }
  return load();
}

Deno.test("every YAML example of the README and docs/ loads as written", () => {
  assert.ok(EXAMPLES.length >= 5, `found only ${EXAMPLES.length} examples`);
  const kinds = new Map<string, string>();
  for (const example of EXAMPLES) {
    try {
      kinds.set(example.where, check(example));
    } catch (error) {
      assert.fail(`${example.where}: ${error instanceof Error ? error.message : error}`);
    }
  }
  const skipped = [...kinds].filter(([, kind]) => kind === "skip");
  assert.ok(skipped.length <= 2, `too many skipped examples: ${skipped.map(([where]) => where).join(", ")}`);
  assert.ok([...kinds.values()].includes("expectations") && [...kinds.values()].includes("config"));
});

/** The README's config example with a CLI host: the one the README promises runs as written. */
function readmeCliExample(): YamlExample {
  const example = examplesOf("README.md").find((found) => /kind: cli/.test(found.text));
  assert.ok(example, "the README has no CLI config example");
  return example;
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

Deno.test("the README's CLI config example passes every test on a host that speaks claude", async () => {
  const example = readmeCliExample();
  const config = parseConfig(example.text, example.where);
  const host = config.hosts.find((entry) => entry.kind === "cli");
  assert.ok(host?.kind === "cli");
  await using folder = await tempFolder("conformance-readme-config-");
  await Deno.mkdir(`${folder.path}/bin`);
  // `my-agent`: the built-in fake host, which speaks claude stream-json and answers OK to any plain prompt.
  const self = fakeHostCommand({ execPath: Deno.execPath(), mainModule: Deno.mainModule });
  const env = ["HOME", "DENO_DIR", "XDG_CACHE_HOME"].flatMap((name) => {
    const value = Deno.env.get(name);
    return value === undefined ? [] : [`export ${name}=${quote(value)}`];
  });
  const script = ["#!/bin/sh", ...env, `exec ${[self.binary, ...self.args].map(quote).join(" ")} "$@"`, ""];
  await Deno.writeTextFile(`${folder.path}/bin/${host.binary}`, script.join("\n"), { mode: 0o755 });
  await Deno.writeTextFile(`${folder.path}/conformance.yaml`, example.text);
  // The permission set of a binary built as the README says (--also-run my-agent --also-env MY_AGENT_API_KEY).
  const flags = permissionFlags([host.binary], host.envAllow);
  const { code, stderr } = await runToEnd(Deno.execPath(), [
    "run",
    "--quiet",
    ...flags,
    `${ROOT}main.ts`,
    "run",
    "--config",
    "conformance.yaml",
    "--host",
    host.id,
    "--live",
    "--reporter",
    "json",
    "--out",
    "reports",
  ], { cwd: folder.path, env: { PATH: `${folder.path}/bin:${Deno.env.get("PATH") ?? ""}` } });
  assert.equal(code, 0, `exit ${code}:\n${stderr}`);
  const report = JSON.parse(await Deno.readTextFile(`${folder.path}/reports/report.json`)) as {
    results: { test: string; status: string; message: string }[];
  };
  const bad = report.results.filter((result) => result.status !== "PASS" && result.status !== "SKIP");
  assert.deepEqual(bad.map((result) => `${result.test}: ${result.status} ${result.message}`), []);
  const passed = new Set(
    report.results.filter((result) => result.status === "PASS").map((result) => result.test),
  );
  for (
    const id of [
      "cli/capabilities/streaming-positive",
      "cli/capabilities/permissionSkip-positive",
      "cli/behavior/streaming",
      "cli/behavior/version-check",
      "cli/behavior/plan-step",
      "cli/constructability/plan-step",
    ]
  ) {
    assert.ok(
      passed.has(id),
      `${id} did not pass: ${JSON.stringify(report.results.find((r) => r.test === id))}`,
    );
  }
  // What is skipped is what the example gives no argv for.
  for (const result of report.results.filter((found) => found.status === "SKIP")) {
    assert.match(result.message, /unsupported/, `${result.test}: ${result.message}`);
  }
});
