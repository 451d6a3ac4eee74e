import assert from "node:assert/strict";
import { loadConfig, parseConfig } from "../src/config.ts";
import { UsageError } from "../src/errors.ts";
import { configHosts } from "../hosts/from_config.ts";

const CONFIG = `
hosts:
  - id: my-agent
    kind: cli
    binary: my-agent
    dialect: claude
    capabilities: { streaming: true }
    envAllow: [MY_KEY]
    paths:
      streaming: ["-p", "{prompt}", "--model", "{model}", "--output-format", "stream-json"]
      version-check: ["--version"]
  - id: acme
    kind: web
    url: https://chat.acme.example/
    prompt: { selector: "textarea", key: Enter }
    conversation: { selector: ".messages" }
goldenPaths:
  - name: plan-step
    mode: streaming
    prompt: "Reply with exactly: OK"
`;

Deno.test("a config file's CLI host builds argv from its templates", () => {
  const config = parseConfig(CONFIG, "c.yaml");
  const [cli, web] = configHosts(config);
  assert.equal(cli!.kind, "cli");
  assert.equal(web!.kind, "web");
  if (cli!.kind !== "cli") throw new Error("unreachable");
  const invocation = cli!.runner.build("streaming", { prompt: "hi there", model: "m1" });
  assert.deepEqual(invocation.args, ["-p", "hi there", "--model", "m1", "--output-format", "stream-json"]);
  assert.equal(invocation.capabilities.streaming, true);
  assert.equal(invocation.capabilities.permissionSkip, false);
  assert.deepEqual(invocation.envAllow, ["MY_KEY"]);
  assert.throws(() => cli!.runner.build("resume", { prompt: "x" }), /no argv for golden path "resume"/);
  assert.deepEqual(config.goldenPaths[0]!.name, "plan-step");
});

Deno.test("malformed config files are usage errors naming the file and the field", async () => {
  const cases: [string, RegExp][] = [
    ["hosts: [{ id: x, kind: cli, binary: b, dialect: claude, paths: {} }]", /hosts\.0\.paths/],
    ["hosts: [{ id: X!, kind: cli, binary: b, dialect: claude, paths: { streaming: [] } }]", /hosts\.0\.id/],
    ["hosts: [{ id: x, kind: robot }]", /hosts\.0\.kind/],
    ["hostz: []", /malformed/],
    [
      "hosts: [{ id: a, kind: cli, binary: b, dialect: d, paths: {s: []} }, { id: a, kind: cli, binary: b, dialect: d, paths: {s: []} }]",
      /twice/,
    ],
    ["goldenPaths: [{ name: Bad Name, mode: streaming, prompt: p }]", /goldenPaths\.0\.name/],
    ["a: [", /not valid YAML/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(
      () => parseConfig(text, "bad.yaml"),
      (e: unknown) => e instanceof UsageError && /"bad\.yaml"/.test(e.message) && pattern.test(e.message),
      text,
    );
  }
  await assert.rejects(() => loadConfig("/nonexistent/conformance.yaml"), /does not exist/);
});
