/**
 * The one list of hosts. Adding a host is one file in `hosts/cli/`, `hosts/web/` or `hosts/desktop/` plus one
 * line here; every tier is parametrised over this list. An agent CLI goes in {@linkcode CLI_HOSTS}: its install
 * pin ({@linkcode PINNED_HOSTS}) and its part of the permission set ({@linkcode REGISTRY_PERMISSIONS}, which
 * `deno task permissions` writes into src/host_permissions.ts and deno.json) come from its file.
 *
 * @module
 */
import type { HostEntry } from "../src/host.ts";
import type { HostPermissions } from "../src/permissions.ts";
import type { RealHost } from "./cli/_real_host.ts";
import { PINNED_APPS_HOSTS, type PinnedHost } from "./installed.ts";
import { fakeHost } from "./cli/fake.ts";
import { fakeMinimalHost } from "./cli/fake_minimal.ts";
import { FAKE_VARIANT_HOSTS } from "./cli/fake_variants.ts";
import { REFERENCE_AGENT_HOST, REFERENCE_AGENT_VARIANT_HOSTS } from "./cli/reference_agent.ts";
import { claudeCode } from "./cli/claude_code.ts";
import { codex } from "./cli/codex.ts";
import { gemini } from "./cli/gemini.ts";
import { opencode } from "./cli/opencode.ts";
import { pi } from "./cli/pi.ts";
import { omp } from "./cli/omp.ts";
import { kimiCode } from "./cli/kimi_code.ts";
import { qwen } from "./cli/qwen.ts";
import { copilot } from "./cli/copilot.ts";
import { cline } from "./cli/cline.ts";
import { amp } from "./cli/amp.ts";
import { auggie } from "./cli/auggie.ts";
import { kilo } from "./cli/kilo.ts";
import { droid } from "./cli/droid.ts";
import { continueCli } from "./cli/continue.ts";
import { crush } from "./cli/crush.ts";
import { grok } from "./cli/grok.ts";
import { REFERENCE_HOST, REFERENCE_VARIANT_HOSTS } from "./web/reference.ts";
import { MCP_UI_HOST } from "./web/mcp_ui.ts";
import { MCP_INSPECTOR_HOST } from "./web/mcp_inspector.ts";
import { MCP_USE_HOST } from "./web/mcp_use.ts";
import { MCP_USE_CHAT_HOST } from "./web/mcp_use_chat.ts";
import { CHATGPT_HOST } from "./web/chatgpt.ts";
import { CLAUDE_AI_HOST } from "./web/claude_ai.ts";
import { MISTRAL_HOST } from "./web/mistral.ts";
import { VSCODE_HOST } from "./desktop/vscode.ts";
import { GOOSE_HOST } from "./desktop/goose.ts";
import { CURSOR_HOST } from "./desktop/cursor.ts";

/** The real agent CLIs, in listing order: each one file in hosts/cli/ built by `defineRealHost`. */
export const CLI_HOSTS: readonly RealHost[] = [
  claudeCode,
  codex,
  gemini,
  opencode,
  pi,
  omp,
  kimiCode,
  qwen,
  copilot,
  cline,
  amp,
  auggie,
  kilo,
  continueCli,
  droid,
  crush,
  grok,
];

/** Every built-in host, in listing order. */
export const HOSTS: readonly HostEntry[] = [
  fakeHost,
  fakeMinimalHost,
  REFERENCE_AGENT_HOST,
  ...CLI_HOSTS.map((host) => host.entry),
  REFERENCE_HOST,
  MCP_UI_HOST,
  MCP_INSPECTOR_HOST,
  MCP_USE_HOST,
  MCP_USE_CHAT_HOST,
  CHATGPT_HOST,
  CLAUDE_AI_HOST,
  MISTRAL_HOST,
  VSCODE_HOST,
  GOOSE_HOST,
  CURSOR_HOST,
  ...REFERENCE_VARIANT_HOSTS,
  ...REFERENCE_AGENT_VARIANT_HOSTS,
  ...FAKE_VARIANT_HOSTS,
];

/** Hosts a plain `conformance run` uses when none is named. */
export const DEFAULT_HOSTS: readonly string[] = ["fake", "fake-minimal", "reference"];

/** The install pins of the real agent CLIs, from their host files: what `hosts:install` installs. */
export const PINNED_HOSTS: readonly PinnedHost[] = CLI_HOSTS.map((host) => host.pin);

/** The ACP adapters of the agent CLIs that speak ACP through one (host ids `<id>-acp`), installed beside them. */
export const PINNED_ACP_ADAPTERS: readonly PinnedHost[] = CLI_HOSTS.flatMap((host) =>
  host.acpPin ? [host.acpPin] : []
);

/** The pin of an agent CLI's host id, or `undefined`. */
export function pinFor(host: string): PinnedHost | undefined {
  return PINNED_HOSTS.find((pin) => pin.host === host);
}

/** What the registry's hosts add to the engine's permission baseline (src/permissions.ts). */
export const REGISTRY_PERMISSIONS: HostPermissions = Object.freeze({
  hostBinaries: unique([
    ...CLI_HOSTS.map((host) => host.runner.binary),
    ...CLI_HOSTS.flatMap((host) => host.acpPin ? [host.acpPin.binary] : []),
  ]),
  appsHostBinaries: unique(PINNED_APPS_HOSTS.map((pin) => pin.binary)),
  hostEnv: unique(CLI_HOSTS.flatMap((host) => host.envPrefixes)),
  hostEnvNames: unique(CLI_HOSTS.flatMap((host) => host.envNames)),
});

function unique(names: readonly string[]): readonly string[] {
  return Object.freeze([...new Set(names)]);
}
