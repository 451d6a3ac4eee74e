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

const LAUNCH_HOST = `
hosts:
  - id: inspector
    kind: web
    url: http://127.0.0.1:6274/
    launch:
      - click: "[role=switch]"
        force: true
        unless: "text='Connected'"
      - click: "role=tab[name='Apps']"
      - click: "text='{launcher}'"
      - fill: "textarea[name=args]"
        text: "{}"
      - select: "select#tool"
        option: "{launcher}"
      - press: Enter
        on: "#composer"
      - waitFor: "iframe"
        timeoutMs: 30000
    teardown: [{ click: "role=button[name=Close]" }]
    cancel: [{ click: "role=button[name=Cancel]", optional: true }]
    server: { listen: "127.0.0.1:6280", second: "127.0.0.1:6281" }
    live: false
`;

Deno.test("a web host launched by steps needs no prompt or conversation, and its step lists decide its capabilities", () => {
  const config = parseConfig(LAUNCH_HOST, "inspector.yaml");
  const host = config.hosts[0]!;
  assert.ok(host.kind === "web");
  assert.equal(host.prompt, undefined);
  assert.equal(host.launch?.length, 7);
  assert.deepEqual(host.launch?.[0], { click: "[role=switch]", force: true, unless: "text='Connected'" });
  assert.deepEqual(host.launch?.[5], { press: "Enter", on: "#composer" });
  assert.deepEqual(host.server, {
    listen: "127.0.0.1:6280",
    second: "127.0.0.1:6281",
    cspOrigins: "local",
    allowOrigins: [],
  });
  const [entry] = configHosts(config);
  assert.ok(entry !== undefined && entry.kind === "web");
  assert.ok(!entry.capabilities.includes("conversationContains"), "no conversation: not serviced");
  assert.ok(entry.capabilities.includes("triggerTeardown") && entry.capabilities.includes("cancelTool"));
  assert.ok(entry.capabilities.includes("clickTrigger"));

  const bare = parseConfig(
    `hosts: [{ id: b, kind: web, url: "http://127.0.0.1:1/", launch: [{ click: "#go" }], conversation: { selector: li } }]`,
    "b.yaml",
  );
  const [plain] = configHosts(bare);
  assert.ok(plain !== undefined && plain.kind === "web");
  assert.ok(plain.capabilities.includes("conversationContains"), "a conversation given: serviced");
  assert.ok(!plain.capabilities.includes("triggerTeardown") && !plain.capabilities.includes("cancelTool"));
});

Deno.test("a malformed launch vocabulary is a usage error naming the file, the field and the fix", () => {
  const host = (fields: string) =>
    `hosts:\n  - id: x\n    kind: web\n    url: http://127.0.0.1:1/\n    live: false\n${fields}`;
  const cases: [string, RegExp][] = [
    [host(`    launch: [{ click: "" }]\n`), /at hosts\.0\.launch\.0\.click: a selector must not be empty/],
    [host(`    launch: [{ click: "  " }]\n`), /hosts\.0\.launch\.0\.click: a selector must not be empty/],
    [
      host(`    launch: [{ click: "#a", forse: true }]\n`),
      /at hosts\.0\.launch\.0\.forse: a click step has no "forse": did you mean "force"\?/,
    ],
    [
      host(`    launch: [{ clik: "#a" }]\n`),
      /at hosts\.0\.launch\.0: a step names its kind.*did you mean "click"/,
    ],
    [host(`    launch: [{ click: "#a", fill: "#b" }]\n`), /hosts\.0\.launch\.0: a step has one kind/],
    [host(`    launch: [{ fill: "#a" }]\n`), /hosts\.0\.launch\.0\.text: a fill step needs "text"/],
    [host(`    launch: [{ select: "#a", option: "" }]\n`), /hosts\.0\.launch\.0\.option: name the option/],
    [
      host(`    launch: [{ click: "text='{launchr}'" }]\n`),
      /hosts\.0\.launch\.0\.click: unknown placeholder "\{launchr\}": did you mean "\{launcher\}"\?/,
    ],
    [
      host(`    launch: [{ click: "#a" }]\n    teardown: [{ click: "#b", unless: "{servrUrl}" }]\n`),
      /hosts\.0\.teardown\.0\.unless: unknown placeholder "\{servrUrl\}": did you mean "\{serverUrl\}"\?/,
    ],
    [host(`    launch: [{ click: "#a", timeoutMs: -1 }]\n`), /hosts\.0\.launch\.0\.timeoutMs/],
    [host(`    launch: []\n`), /hosts\.0\.launch: give at least one step/],
    [host(`    conversation: { selector: li }\n`), /hosts\.0\.launch: give launch steps or a prompt/],
    [
      host(`    prompt: { selector: "#p" }\n`),
      /hosts\.0\.conversation: a host launched by prompt alone needs/,
    ],
    [
      host(`    launch: [{ fill: "#url", text: "{serverUrl}" }]\n`),
      /hosts\.0\.launch: \{serverUrl\} has a value only when the harness starts the server/,
    ],
    [
      host(`    launch: [{ click: "#a" }]\n    server: { listen: "127.0.0.1:99999" }\n`),
      /hosts\.0\.server\.listen: use HOST:PORT/,
    ],
    [host(`    launch: [{ click: "#a" }]\n    server: { listne: ":1" }\n`), /hosts\.0\.server/],
    [
      host(`    launch: [{ click: "#a" }]\n    server: { listen: ":1", cspOrigins: tunnel }\n`),
      /hosts\.0\.server\.cspOrigins/,
    ],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(
      () => parseConfig(text, "bad.yaml"),
      (e: unknown) => e instanceof UsageError && /"bad\.yaml"/.test(e.message) && pattern.test(e.message),
      `${text}\n${
        (() => {
          try {
            parseConfig(text, "bad.yaml");
            return "(parsed)";
          } catch (error) {
            return String(error);
          }
        })()
      }`,
    );
  }
  // {serverUrl} with a server, and JSON braces in a text, are fine.
  parseConfig(
    host(
      `    launch: [{ fill: "#url", text: "{serverUrl}" }, { fill: "#args", text: '{"a": 1}' }, { fill: "#b", text: "{}" }]\n    server: { listen: "127.0.0.1:0" }\n`,
    ),
    "good.yaml",
  );
});
