/**
 * Secrets: fake credentials planted in the harness's environment and printed by a leaky host (API-key shapes,
 * bearer tokens, cookies, and its own allow-listed environment) must appear in no report format, nor in what
 * the harness prints; the host sees its allow-list only. Every registered CLI host's environment is checked
 * the same way, without running it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HOSTS } from "../../hosts/registry.ts";
import { BASELINE_ENV_ALLOW, FORCED_ENV, projectEnv } from "../../src/exec/env.ts";
import { SPAWN_TAG_ENV } from "../../src/exec/escapes.ts";
import { RUN_TAG_ENV } from "../../src/exec/run_tag.ts";
import { GOLDEN_PATHS } from "../../src/exec/host_runner.ts";
import { spawnHarness } from "./_harness.ts";

const LEAKY = decodeURIComponent(new URL("./hosts/leaky.sh", import.meta.url).pathname);

/** A random core no report could contain by chance; a leak of any part of a secret shows it. */
function core(length = 32): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => alphabet[b % alphabet.length])
    .join("");
}

interface Planted {
  readonly value: string;
  /** The part that must never appear (the value minus a public prefix such as `sk-ant-`). */
  readonly secret: string;
}

function planted(prefix: string, length = 32): Planted {
  const secret = core(length);
  return { value: prefix + secret, secret };
}

/** In the harness environment. Two are allow-listed to the host (which prints them), the rest are not. */
const ENV = {
  ANTHROPIC_API_KEY: planted("sk-ant-api03-"),
  AWS_SECRET_ACCESS_KEY: planted("", 40),
  OPENAI_API_KEY: planted("sk-proj-"),
  GH_TOKEN: planted("ghp_", 36),
  DATABASE_PASSWORD: planted("pw-"),
  MY_SESSION_COOKIE: planted("c-"),
} as const;
const HOST_ALLOWED = ["ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY"];

/** Printed by the host in its output. */
const OUTPUT = {
  anthropic: planted("sk-ant-api03-"),
  openai: planted("sk-proj-"),
  google: planted("AIza", 35),
  github: planted("ghp_", 36),
  bearer: planted("eyJ0b2tlbi", 40),
  cookie: planted("s3ss10n-"),
} as const;

const ALL = [...Object.entries(ENV), ...Object.entries(OUTPUT)];

async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await filesUnder(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

function leaksIn(text: string, where: string): string[] {
  return ALL.filter(([, p]) => text.includes(p.secret)).map(([name, p]) => {
    const at = text.indexOf(p.secret);
    return `${name} in ${where}: …${text.slice(Math.max(0, at - 80), at + p.secret.length + 20)}…`;
  });
}

Deno.test("planted credentials reach no report format and no harness output; the host sees its allow-list", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-secrets-" });
  try {
    const envFile = join(dir, "host-env.txt");
    const out = join(dir, "out");
    const argv = ["{prompt}", ...Object.values(OUTPUT).map((p) => p.value)];
    await Deno.writeTextFile(
      join(dir, "leaky.yaml"),
      [
        "hosts:",
        "  - id: leaky",
        "    kind: cli",
        `    binary: ${JSON.stringify(LEAKY)}`,
        "    dialect: claude",
        `    env: { LEAK_ENV_FILE: ${JSON.stringify(envFile)} }`,
        `    envAllow: ${JSON.stringify(HOST_ALLOWED)}`,
        "    paths:",
        `      streaming: ${JSON.stringify(argv)}`,
        "",
      ].join("\n"),
    );
    await using harness = spawnHarness(
      [
        "run",
        "--config",
        join(dir, "leaky.yaml"),
        "--host",
        "leaky",
        "--live",
        "--grep",
        "^cli/behavior/streaming$",
        ...["pretty", "json", "junit", "markdown", "html"].flatMap((name) => ["--reporter", name]),
        "--out",
        out,
      ],
      { env: Object.fromEntries(Object.entries(ENV).map(([name, p]) => [name, p.value])), alsoRun: [LEAKY] },
    );
    const exit = await harness.done;
    assert.equal(exit.code, 1, `the leaky host must fail its test; stderr: ${exit.stderr.slice(0, 2000)}`);

    // The host ran and saw exactly its allow-list (plus what the run forces).
    const ran = await Deno.stat(envFile).then(() => true, () => false);
    assert.ok(
      ran,
      `the leaky host did not run: ${await Deno.readTextFile(join(out, "report.json")).catch(String)}`,
    );
    const hostEnv = new Map(
      (await Deno.readTextFile(envFile)).split("\n").filter((line) => line.includes("=")).map((line) => {
        const eq = line.indexOf("=");
        return [line.slice(0, eq), line.slice(eq + 1)] as const;
      }),
    );
    const allowed = new Set([
      ...BASELINE_ENV_ALLOW,
      ...HOST_ALLOWED,
      ...Object.keys(FORCED_ENV),
      // The per-spawn tag that finds processes escaping the group, and the run's tag its reaper sweeps by:
      // random, not from the user's environment.
      SPAWN_TAG_ENV,
      RUN_TAG_ENV,
      "LEAK_ENV_FILE",
    ]);
    // A shell adds PWD, SHLVL and `_` to what `env` shows; they are not from the harness.
    const stray = [...hostEnv.keys()].filter((name) =>
      !allowed.has(name) && !["PWD", "SHLVL", "_"].includes(name)
    );
    assert.deepEqual(stray, [], `the host saw variables outside its allow-list`);
    for (const name of HOST_ALLOWED) {
      assert.equal(hostEnv.get(name), ENV[name as keyof typeof ENV].value, `${name} was allow-listed`);
    }

    // The report files exist, one per format, and none holds any planted secret.
    const files = await filesUnder(out);
    const names = files.map((file) => file.slice(out.length + 1)).sort();
    for (const expected of [/\.json$/, /\.xml$/, /\.md$/, /\.html$/]) {
      assert.ok(names.some((name) => expected.test(name)), `no ${expected} report in ${names.join(", ")}`);
    }
    const leaks: string[] = [];
    for (const file of files) leaks.push(...leaksIn(await Deno.readTextFile(file), file.slice(dir.length)));
    leaks.push(...leaksIn(exit.stdout, "the harness's stdout (pretty reporter)"));
    leaks.push(...leaksIn(exit.stderr, "the harness's stderr"));
    assert.deepEqual(leaks, [], "planted secrets leaked");

    // The run really carried the host's output into the reports (redacted): else the check above is empty.
    const report = JSON.parse(await Deno.readTextFile(join(out, "report.json")));
    const result = JSON.stringify(report.results);
    assert.match(result, /\[REDACTED\]/, "the report shows no redaction: did the host's output reach it?");
    assert.match(result, /leaky-model|Cookie|failed:/, "the report carries none of the host's output");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every registered CLI host's environment is its allow-list: planted credentials do not pass", () => {
  const parent: Record<string, string> = {
    PATH: "/usr/bin",
    HOME: "/home/someone",
    ...Object.fromEntries(Object.entries(ENV).map(([name, p]) => [name, p.value])),
    SOME_RANDOM_VAR: "x",
  };
  let checked = 0;
  for (const entry of HOSTS) {
    if (entry.kind !== "cli") continue;
    for (const path of GOLDEN_PATHS.filter((p) => entry.runner.goldenPaths.includes(p))) {
      let invocation;
      try {
        invocation = entry.runner.build(path, { prompt: "Reply with exactly: OK", workingDir: "/tmp" });
      } catch {
        continue; // a path the runner cannot build here (e.g. resume without a session): nothing runs
      }
      const env = projectEnv(invocation, parent);
      const allow = [...BASELINE_ENV_ALLOW, ...invocation.envAllow];
      const allowedName = (name: string) =>
        allow.some((rule) => rule.endsWith("*") ? name.startsWith(rule.slice(0, -1)) : rule === name);
      for (const [name, value] of Object.entries(env)) {
        const fromParent = parent[name] === value && !(name in invocation.env) && !(name in FORCED_ENV);
        if (fromParent) {
          assert.ok(
            allowedName(name),
            `${entry.id} ${path}: parent variable ${name} is not in its allow-list`,
          );
        }
      }
      assert.ok(!("SOME_RANDOM_VAR" in env), `${entry.id} ${path}: an unlisted variable passed`);
      checked++;
    }
  }
  assert.ok(checked >= 2, `only ${checked} invocations checked`);
});
