/**
 * The capabilities an MCP Apps host entry lists (`conformance list hosts`, the board) are the ones its host
 * services: the Runner dispatches a request to the host's method of that kind, and a host without the method,
 * or whose method answers unsupported, SKIPs the tests that need it. So, for every web and desktop entry of the
 * registry and a YAML host configured both ways: each listed kind has a method, and each method of a kind that
 * is not listed answers unsupported at once, for every form of its request, before the host is set up (it
 * cannot reach a browser then, so a method that tried would throw or hang here).
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../hosts/registry.ts";
import { configHosts } from "../../hosts/from_config.ts";
import { parseConfig } from "../../src/config.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import {
  CAPABILITY_KINDS,
  type CapabilityKind,
  type CapabilityRequest,
  DIALOG_KINDS,
} from "../../src/protocol.ts";
import type { CapabilityContext, Host } from "../../src/runner/host.ts";

/** Every form of each request kind that a host may answer differently. */
function requestsOf(kind: CapabilityKind): CapabilityRequest[] {
  switch (kind) {
    case "confirmDialog":
      return DIALOG_KINDS.map((dialog) => ({ kind, dialog, url: "http://127.0.0.1:1/link" }));
    case "checkLinkOpen":
      return [{ kind, url: "http://127.0.0.1:1/link" }];
    case "conversationContains":
      return [{ kind, marker: "marker", timeoutMs: 10 }];
    case "toggleTheme":
      return [{ kind, to: "dark" }, { kind, to: "light" }];
    case "readConsole":
      return [{ kind, pattern: "x", timeoutMs: 10 }];
    case "streamPartialInput":
      return [{ kind, arguments: [] }];
    default:
      return [{ kind } as CapabilityRequest];
  }
}

type Method = (request: CapabilityRequest, context: CapabilityContext) => Promise<unknown>;

/** Each kind `entry` lists has a method on `host`; each other method of `host` answers unsupported. */
async function check(entry: AppsHostEntry, host: Host): Promise<void> {
  const methods = CAPABILITY_KINDS.filter((kind) => typeof host[kind] === "function");
  for (const kind of entry.capabilities) {
    assert.ok(methods.includes(kind), `${entry.id} lists ${kind} but its host has no ${kind} method`);
  }
  const context: CapabilityContext = { signal: AbortSignal.abort(new Error("not set up")), timeoutMs: 10 };
  for (const kind of methods.filter((kind) => !entry.capabilities.includes(kind))) {
    for (const request of requestsOf(kind)) {
      const answer = await (host[kind] as Method).call(host, request, context).catch((error) => ({
        threw: String(error).slice(0, 200),
      }));
      assert.deepEqual(
        answer,
        { ok: false, unsupported: true },
        `${entry.id} does not list ${kind}, yet its host services ${JSON.stringify(request)}: list it, or ` +
          `answer unsupported`,
      );
    }
  }
}

const APPS = HOSTS.filter((entry): entry is AppsHostEntry => entry.kind !== "cli");

Deno.test("every MCP Apps host of the registry services exactly the capabilities it lists", async () => {
  assert.ok(APPS.length > 0);
  for (const entry of APPS) await check(entry, entry.create());
});

Deno.test("a YAML web host lists conversation, teardown and cancel exactly when configured", async () => {
  const host = (id: string, extra: string) =>
    `  - id: ${id}\n    kind: web\n    url: http://127.0.0.1:1/\n    live: false\n` +
    `    launch: [{ click: "#launch-{launcher}" }]\n${extra}`;
  const yaml = `hosts:\n${host("bare", "")}${
    host(
      "full",
      '    conversation: { selector: ".t" }\n    teardown: [{ click: "#close" }]\n' +
        '    cancel: [{ click: "#cancel" }]\n',
    )
  }`;
  const entries = configHosts(parseConfig(yaml, "hosts.yaml")) as AppsHostEntry[];
  assert.deepEqual(entries.map((entry) => entry.id), ["bare", "full"]);
  const [plain, configured] = entries as [AppsHostEntry, AppsHostEntry];
  for (const kind of ["conversationContains", "triggerTeardown", "cancelTool"] as const) {
    assert.ok(!plain.capabilities.includes(kind), `bare lists ${kind}`);
    assert.ok(configured.capabilities.includes(kind), `full does not list ${kind}`);
  }
  for (const entry of entries) await check(entry, entry.create());
});
