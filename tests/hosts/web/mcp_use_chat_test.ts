/**
 * The built-in `mcp-use-chat` host end to end: the real mcp-use Inspector (installed by `deno task
 * hosts:install`) started on a free loopback port in its own process group, its Chat tab pointed at the local
 * mock model, the whole MCP Apps catalogue run through chat turns headless, every result as
 * hosts/expectations/mcp-use-chat.yaml or this gate's table says, exactly (tests/_exact.ts), every View
 * launched by a tool call the mock model made, and nothing left running. Ignored only when it is not installed
 * (or there is no Chromium); a broken install fails.
 */
import assert from "node:assert/strict";
import {
  MCP_USE_CHAT_HOST,
  MCP_USE_CHAT_ID,
  mcpUseChatConfig,
  type McpUseChatHost,
  mcpUseChatStorage,
  mcpUseChatYaml,
} from "../../../hosts/web/mcp_use_chat.ts";
import { MCP_USE_BINARY } from "../../../hosts/web/mcp_use_process.ts";
import { yamlHostCapabilities } from "../../../hosts/web/yaml_host.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import { parseConfig } from "../../../src/config.ts";
import { loadExpectations } from "../../../src/expectations.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import type { HostSetupOptions } from "../../../src/runner/host.ts";
import { runApps } from "./_apps_run.ts";
import { mcpUseInstalled } from "./_mcp_use.ts";
import { exactMismatches, type GateRow } from "../../_exact.ts";

const ignore = !mcpUseInstalled() || chromiumPath() === null;

const EXPECTATIONS = new URL("../../../hosts/expectations/mcp-use-chat.yaml", import.meta.url).pathname;

/** The SKIPs of what the Chat tab does not have or does not advertise, with the words each message says. */
const GATE: Readonly<Record<string, GateRow>> = {
  "apps/lifecycle/tool-input-partial-stop": { status: "SKIP", because: "sent no tool-input-partial" },
  "apps/lifecycle/tool-cancelled": { status: "SKIP", because: 'does not support "cancelTool"' },
  "apps/lifecycle/teardown-notify": { status: "SKIP", because: "sent no ui/resource-teardown" },
  "apps/lifecycle/teardown-await": { status: "SKIP", because: "was not torn down" },
  "apps/visibility/app-tool-hidden": { status: "SKIP", because: 'does not support "readModelToolList"' },
  "apps/visibility/empty-array-hidden": { status: "SKIP", because: 'does not support "readModelToolList"' },
  "apps/visibility/cross-server-blocked": { status: "SKIP", because: "No second server is connected" },
  // Seen on mcp-use's Tools tab both ways (it granted fullscreen in one run, not in another).
  "apps/display/change-notifies-context": { status: ["SKIP", "PASS"], because: "did not grant fullscreen" },
  // Not settled, so not listed as the host's failure: in full runs on 2026-12-05 it FAILed twice in five
  // (no object-src violation within the probe's 3 s, both on a loaded machine) and PASSed alone every time,
  // also right after the View grew past the viewport. Whether the host or the probe's wait is at fault is open.
  "apps/security/csp-object-src": { status: ["PASS", "FAIL"], because: "raised no object-src violation" },
  "apps/download-file/confirm": { status: "SKIP", because: "confirmDialog unsupported" },
  "apps/sampling/create-message": { status: "SKIP", because: "confirmDialog unsupported" },
};

Deno.test("the Chat tab's description is a YAML web host launched by a prompt, with a conversation", () => {
  const yaml = mcpUseChatYaml({ id: "my-mcp-use-chat", port: 6275, listen: "127.0.0.1:6281" });
  const [config] = parseConfig(yaml, "my-mcp-use-chat.yaml").hosts;
  assert.ok(config?.kind === "web");
  assert.deepEqual(mcpUseChatConfig({ id: "my-mcp-use-chat", port: 6275, listen: "127.0.0.1:6281" }), config);
  assert.equal(config.url, "http://localhost:6275/inspector");
  assert.equal(config.live, false);
  assert.equal(config.prompt?.selector, "[data-testid=chat-input]");
  assert.match(config.prompt?.text ?? "", /\{launcher\}/);
  const capabilities = yamlHostCapabilities(config);
  assert.ok(capabilities.includes("conversationContains"), "the Chat tab has a conversation");
  assert.ok(!capabilities.includes("cancelTool"));
  const storage = mcpUseChatStorage("http://127.0.0.1:4000/v1");
  assert.deepEqual(JSON.parse(storage["mcp-inspector-llm-config"]!), {
    provider: "openai-compatible",
    apiKey: "mock",
    model: "conformance-mock",
    baseUrl: "http://127.0.0.1:4000/v1",
  });
  assert.equal(storage["mcp-inspector:chat-mode"], "byok");
  assert.equal(MCP_USE_CHAT_HOST.requiresLive, undefined, "runs offline, without --live");
  assert.equal(MCP_USE_CHAT_HOST.program, MCP_USE_BINARY, "the mcp-use install and pin");
});

Deno.test({
  name: "the mcp-use Chat tab runs the whole apps catalogue from mock-model turns, every result as expected",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const sets = await loadExpectations([EXPECTATIONS]);
  const hosts: McpUseChatHost[] = [];
  const entry: AppsHostEntry = {
    ...MCP_USE_CHAT_HOST,
    create: () => {
      const host = MCP_USE_CHAT_HOST.create() as McpUseChatHost;
      const setup = host.setup.bind(host);
      host.setup = async (options: HostSetupOptions) => {
        hosts.push(host);
        await setup(options);
      };
      return host;
    },
  };
  const outcomes = await runApps(entry);
  const setupFailed = [...outcomes.values()].find((outcome) =>
    /Host setup failed/.test(outcome.message ?? "")
  );
  assert.equal(setupFailed, undefined, `the installed mcp-use Inspector starts: ${setupFailed?.message}`);
  const surprises = exactMismatches({
    outcomes,
    listed: (test) => {
      const listed = sets.get(MCP_USE_CHAT_ID)?.tests.get(test);
      return listed && { statuses: listed.statuses, reason: listed.reason };
    },
    table: GATE,
  });
  assert.deepEqual(surprises, [], "every result is as hosts/expectations/mcp-use-chat.yaml and the gate say");
  for (const test of sets.get(MCP_USE_CHAT_ID)?.tests.keys() ?? []) {
    assert.ok(outcomes.has(test), `${test}: listed in ${EXPECTATIONS} but not in the catalogue`);
  }
  // The conversation fallbacks ran against a real conversation: the View's message and the model's answer.
  assert.equal(outcomes.get("apps/messages/add-to-conversation")?.status, "PASS");
  assert.equal(outcomes.get("apps/model-context/last-wins")?.status, "PASS");
  assert.equal(hosts.length, 1);
  const host = hosts[0]!;
  // Each launcher rendered from a call the mock model made, with the launcher among the tools it was given.
  const called = host.modelJournal().flatMap((turn) => turn.kind === "tool-call" ? [turn.tool] : []);
  for (const launcher of ["run_conformance", "run_conformance_nocsp", "run_conformance_precedence"]) {
    assert.ok(called.includes(launcher), `the mock model called ${launcher}: ${called.join(", ")}`);
  }
  const pid = host.processPid;
  assert.ok(pid !== null);
  assert.equal(await groupAlive(pid), false, "the Inspector's process group is gone");
  assert.deepEqual(await host.browserSurvivors(), [], "no browser process is left");
});
