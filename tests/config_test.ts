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

Deno.test("every problem of a config file is reported at once, one line each with a did-you-mean", () => {
  const text = `
hosts:
  - id: my-agent
    kind: cli
    binary: my-agent
    dialect: claud
    capabilities: { streeming: true }
    capabilityMarkers: { permisionSkip: ["--yolo"] }
    paths:
      streeming: ["-p", "{promt}"]
      plan-stp: ["{prompt}"]
  - id: web
    kind: web
    url: http://127.0.0.1:1/
    lauch: []
    launch: [{ click: "text='{launchr}'" }]
    live: false
goldenPaths:
  - { name: plan-step, mode: streaming, prompt: p }
  - { name: streaming, mode: streaming, prompt: p }
`;
  const error = (() => {
    try {
      parseConfig(text, "c.yaml");
    } catch (caught) {
      return caught;
    }
  })();
  assert.ok(error instanceof UsageError, String(error));
  const lines = error.message.split("\n");
  const expected: RegExp[] = [
    /at hosts\.0\.dialect: unknown dialect "claud": did you mean "claude"\? Dialects are claude, codex/,
    /at hosts\.0\.capabilities\.streeming: unknown field "streeming": did you mean "streaming"\?/,
    /at hosts\.0\.capabilityMarkers\.permisionSkip: unknown field "permisionSkip": did you mean "permissionSkip"\?/,
    /at hosts\.0\.paths\.streeming: unknown golden path "streeming": did you mean "streaming"\?/,
    /at hosts\.0\.paths\.streeming\.1: unknown placeholder "\{promt\}": did you mean "\{prompt\}"\?/,
    /at hosts\.0\.paths\.plan-stp: unknown golden path "plan-stp": did you mean "plan-step"\?/,
    /at hosts\.1\.lauch: unknown field "lauch": did you mean "launch"\?/,
    /at hosts\.1\.launch\.0\.click: unknown placeholder "\{launchr\}": did you mean "\{launcher\}"\?/,
    /at goldenPaths\.1\.name: golden path name "streaming" is taken/,
  ];
  for (const pattern of expected) {
    assert.ok(lines.some((line) => pattern.test(line)), `no line matches ${pattern}:\n${error.message}`);
  }
  assert.equal(lines.length, expected.length, error.message);
  for (const line of lines) assert.match(line, /^Config file "c\.yaml" is malformed at \S+: /);
  // In file order: the first host's problems before the second's, the golden paths last.
  assert.ok(
    lines.findIndex((line) => /hosts\.1/.test(line)) > lines.findLastIndex((l) => /hosts\.0/.test(l)),
  );
});

Deno.test("a config CLI host's capability markers are what the capabilities tier checks", async () => {
  const { capabilitiesTier } = await import("../suite/cli/capabilities.ts");
  const config = parseConfig(
    `
hosts:
  - id: yolo
    kind: cli
    binary: yolo
    dialect: claude
    capabilities: { streaming: true, permissionSkip: true }
    capabilityMarkers: { streaming: ["stream-json"], permissionSkip: ["--yolo"] }
    paths:
      streaming: ["--yolo", "-p", "{prompt}", "--output-format", "stream-json"]
  - id: forgetful
    kind: cli
    binary: forgetful
    dialect: claude
    capabilities: { permissionSkip: true }
    capabilityMarkers: { permissionSkip: ["--yolo"] }
    paths:
      streaming: ["-p", "{prompt}"]
`,
    "markers.yaml",
  );
  const [yolo, forgetful] = configHosts(config);
  assert.ok(yolo?.kind === "cli" && forgetful?.kind === "cli");
  assert.deepEqual(yolo.runner.capabilityMarkers, { streaming: ["stream-json"], permissionSkip: ["--yolo"] });
  const settings = { live: false, mockModel: false } as const;
  const status = async (entry: typeof yolo, id: string) => {
    const test = capabilitiesTier.list(entry, settings).find((found) => found.id === id);
    assert.ok(test, `${entry.id} does not list ${id}`);
    return (await capabilitiesTier.run(entry, test, {} as never, new AbortController().signal)).status;
  };
  assert.equal(await status(yolo, "cli/capabilities/streaming-positive"), "PASS");
  assert.equal(await status(yolo, "cli/capabilities/permissionSkip-positive"), "PASS");
  assert.equal(
    await status(forgetful, "cli/capabilities/permissionSkip-positive"),
    "FAIL",
    "a marker absent",
  );
});

Deno.test("user golden paths run in the behaviour and mock-model tiers on hosts that give argv for them", async () => {
  const { behaviorTier } = await import("../suite/cli/behavior.ts");
  const { mockModelTier } = await import("../suite/cli/mock_model.ts");
  const { constructabilityTier } = await import("../suite/cli/constructability.ts");
  const { HOSTS } = await import("../hosts/registry.ts");
  const config = parseConfig(
    `
hosts:
  - id: own
    kind: cli
    binary: own
    dialect: claude
    paths:
      plan-step: ["plan", "{prompt}"]
      version-check: ["--version"]
  - id: modal
    kind: cli
    binary: modal
    dialect: claude
    paths:
      blocking-json: ["-p", "{prompt}", "--output-format", "json"]
goldenPaths:
  - { name: plan-step, mode: streaming, prompt: "Plan it" }
  - { name: batch-step, mode: blocking-json, prompt: "Batch it" }
  - { name: quiet-step, mode: detached, prompt: "Quietly" }
`,
    "paths.yaml",
  );
  const [own, modal] = configHosts(config);
  assert.ok(own?.kind === "cli" && modal?.kind === "cli");
  const settings = { live: true, mockModel: true, goldenPaths: config.goldenPaths };
  const ids = (tier: typeof behaviorTier, entry: typeof own) =>
    tier.list(entry, settings).map((test) => test.id);
  assert.deepEqual(ids(behaviorTier, own), ["cli/behavior/version-check", "cli/behavior/plan-step"]);
  assert.deepEqual(ids(behaviorTier, modal), ["cli/behavior/blocking-json", "cli/behavior/batch-step"]);
  const claude = HOSTS.find((entry) => entry.id === "claude-code");
  assert.ok(claude?.kind === "cli");
  const mock = ids(mockModelTier, claude);
  for (const name of ["plan-step", "batch-step", "quiet-step"]) {
    assert.ok(mock.includes(`cli/mock-model/${name}`));
  }
  // The host's own argv for a user path is the one built, with the path's own prompt.
  const test = { id: "cli/constructability/plan-step", title: "" };
  const outcome = await constructabilityTier.run(
    { ...own, runner: { ...own.runner, detect: () => Promise.resolve("/bin/true") } },
    test,
    {
      ...settings,
      timeoutMultiplier: 1,
      headful: false,
      trace: "off",
      outDir: null,
      signal: AbortSignal.abort(),
    },
    new AbortController().signal,
  );
  assert.equal(outcome.status, "PASS", outcome.message);
  assert.deepEqual((outcome.details as { args: string[] }).args, ["plan", "Plan it"]);
});

Deno.test("the command prints every problem of a config file on its own line and exits 2", async () => {
  const { PERMISSION_FLAGS } = await import("../src/permissions.ts");
  const { ROOT, runToEnd, tempFolder } = await import("./binary/_run.ts");
  await using folder = await tempFolder("conformance-config-problems-");
  await Deno.writeTextFile(
    `${folder.path}/c.yaml`,
    'hosts:\n  - { id: a, kind: cli, binary: deno, dialect: claud, paths: { streeming: ["{promt}"] } }\n',
  );
  const { code, stderr } = await runToEnd(
    Deno.execPath(),
    ["run", "--quiet", ...PERMISSION_FLAGS, `${ROOT}main.ts`, "list", "hosts", "--config", "c.yaml"],
    { cwd: folder.path },
  );
  assert.equal(code, 2, stderr);
  const lines = stderr.trim().split("\n").filter((line) => !line.includes("Failed to resolve"));
  assert.deepEqual(lines.map((line) => /malformed at (\S+):/.exec(line)?.[1]), [
    "hosts.0.dialect",
    "hosts.0.paths.streeming",
    "hosts.0.paths.streeming.0",
  ]);
  for (const line of lines) {
    assert.match(line, /^conformance: Config file "c\.yaml" is malformed at .*did you mean/);
  }
});

Deno.test("argv templates fill every request placeholder and drop a flag whose value was not asked for", async () => {
  const { fillArgv } = await import("../hosts/from_config.ts");
  const values = {
    prompt: "P",
    model: "",
    cwd: "/w",
    agent: "a1",
    tools: "t1,t2",
    jsonSchema: "",
    workspace: "",
  };
  assert.deepEqual(
    fillArgv([
      "-p",
      "{prompt}",
      "--model",
      "{model}",
      "--agent",
      "{agent}",
      "--tools={tools}",
      "--cd",
      "{cwd}",
    ], values),
    ["-p", "P", "--agent", "a1", "--tools=t1,t2", "--cd", "/w"],
  );
  assert.deepEqual(fillArgv(["--schema", "{jsonSchema}", "{prompt}"], values), ["P"]);
  // A host claiming agentSelect through {agent} passes the capabilities tier's probe.
  const { capabilitiesTier } = await import("../suite/cli/capabilities.ts");
  const [agent] = configHosts(parseConfig(
    `hosts: [{ id: ag, kind: cli, binary: ag, dialect: claude, capabilities: { agentSelect: true }, paths: { streaming: ["--agent", "{agent}", "{prompt}"] } }]`,
    "agent.yaml",
  ));
  assert.ok(agent?.kind === "cli");
  const test = { id: "cli/capabilities/agentSelect-positive", title: "" };
  const outcome = await capabilitiesTier.run(agent, test, {} as never, new AbortController().signal);
  assert.equal(outcome.status, "PASS", outcome.message);
});

Deno.test("a config CLI host points at the mock model as its mockModel says, with {url} and {home} filled in", () => {
  const config = parseConfig(
    `
hosts:
  - id: mocked
    kind: cli
    binary: mocked
    dialect: claude
    mockModel:
      env: { MOCKED_BASE_URL: "{url}/v1" }
      files: { ".mocked/config.json": '{"endpoint": "{url}", "home": "{home}"}' }
      model: mock-small
    paths: { streaming: ["{prompt}"] }
`,
    "mock.yaml",
  );
  const [mocked] = configHosts(config);
  assert.ok(mocked?.kind === "cli" && mocked.runner.mockModel);
  assert.deepEqual(mocked.runner.mockModel({ url: "http://127.0.0.1:9", home: "/tmp/h" }), {
    env: { MOCKED_BASE_URL: "http://127.0.0.1:9/v1" },
    files: { ".mocked/config.json": '{"endpoint": "http://127.0.0.1:9", "home": "/tmp/h"}' },
    model: "mock-small",
  });
  const typo = CONFIG.replace("    envAllow: [MY_KEY]\n", "    mockModel: { env: { U: '{ulr}' } }\n");
  assert.throws(
    () => parseConfig(typo, "m.yaml"),
    /at hosts\.0\.mockModel\.env\.U: unknown placeholder "\{ulr\}": did you mean "\{url\}"\?/,
  );
});

Deno.test("a mistyped choice gets the closest allowed value", () => {
  assert.throws(
    () => parseConfig("hosts: [{ id: x, kind: clii }]", "k.yaml"),
    /at hosts\.0\.kind: .*did you mean "cli"\?/,
  );
  assert.throws(
    () =>
      parseConfig(
        "hosts: [{ id: y, kind: cli, binary: b, dialect: claude, paths: { streaming: [a] }, streamShape: { init: requird, terminal: event } }]",
        "k.yaml",
      ),
    /at hosts\.0\.streamShape\.init: .*did you mean "required"\?/,
  );
});

Deno.test("a web host's server.listen beyond loopback is refused unless allowRemote: true, as serve's --listen", () => {
  const web = (server: string) =>
    "hosts:\n  - id: mine\n    kind: web\n    url: https://chat.example\n" +
    `    launch: [{ click: "#a" }]\n    server: ${server}\n`;
  for (
    const [server, field] of [
      ['{ listen: "0.0.0.0:6280" }', "listen"],
      ['{ listen: "127.0.0.1:6280", second: "192.168.1.5:6281" }', "second"],
    ]
  ) {
    assert.throws(
      () => parseConfig(web(server!), "remote.yaml"),
      (e: unknown) =>
        e instanceof UsageError &&
        new RegExp(`hosts\\.0\\.server\\.${field}: ".*" is not a loopback address: add allowRemote: true`)
          .test(e.message),
    );
  }
  const allowed = parseConfig(web('{ listen: "0.0.0.0:6280", allowRemote: true }'), "remote.yaml");
  assert.equal(allowed.hosts[0]!.kind === "web" && allowed.hosts[0]!.server?.allowRemote, true);
  assert.ok(parseConfig(web('{ listen: "[::1]:6280" }'), "local.yaml"));
});

Deno.test("a field left out is named as missing, not in the schema library's words", () => {
  const text = "hosts:\n  - id: a\n    kind: cli\n    binary: x\n    paths: { streaming: ['-p'] }\n";
  let message = "";
  try {
    parseConfig(text, "c.yaml");
  } catch (error) {
    message = (error as Error).message;
  }
  assert.equal(
    message,
    'Config file "c.yaml" is malformed at hosts.0.dialect: field "dialect" is missing (give a string)',
  );
  assert.doesNotMatch(message, /received undefined|Invalid input/);
});

Deno.test("a web host's server is listen (the harness starts it) or url (another server), never both", () => {
  const web = (server: string) =>
    "hosts:\n  - id: mine\n    kind: web\n    url: https://chat.example\n" +
    `    launch: [{ click: "#a" }]\n    server: ${server}\n`;
  const pointed = parseConfig(web('{ url: "http://127.0.0.1:6290/mcp" }'), "url.yaml").hosts[0]!;
  assert.equal(pointed.kind === "web" && pointed.server?.url, "http://127.0.0.1:6290/mcp");
  for (
    const [server, message] of [
      [
        '{ listen: "127.0.0.1:6280", url: "http://127.0.0.1:6290/mcp" }',
        /give listen .* or url .*, not both/,
      ],
      ["{}", /give listen .* or url .*, not both/],
      [
        '{ url: "http://127.0.0.1:6290/mcp", second: "127.0.0.1:6281" }',
        /second and allowRemote do not apply/,
      ],
      ['{ url: "ftp://127.0.0.1/mcp" }', /give an http\(s\) URL/],
    ] as const
  ) {
    assert.throws(
      () => parseConfig(web(server), "both.yaml"),
      (e: unknown) =>
        e instanceof UsageError && /hosts\.0\.server/.test(e.message) && message.test(e.message),
      server,
    );
  }
});
