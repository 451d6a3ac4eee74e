/**
 * `cline` (`cline`, cline 3.0.65). Headless is the positional prompt with `--json` (JSONL hook and agent
 * events ended by `run_result`); tools are auto-approved by default, and `--auto-approve true` says so.
 * Pitfalls handled here: by default a run starts (or joins) a background "hub" daemon that detaches into a
 * process group of its own and outlives the run; `CLINE_SESSION_BACKEND_MODE=local` keeps the session in
 * the process. With no provider configured it uses Cline's own service, which offline retries for more than
 * a minute before failing. The mock model is an `openai-compatible` provider in the temporary HOME's
 * `~/.cline/data/settings/providers.json` (an entry without `updatedAt` is silently dropped).
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const SKIP = ["--auto-approve", "true"];

function run(request: InvocationRequest, json: boolean): string[] {
  return [
    ...(json ? ["--json"] : []),
    ...SKIP,
    ...opt("-m", request.model),
    request.prompt,
  ];
}

/** The providers file `cline auth -p openai-compatible -b URL -k KEY -m MODEL` writes. */
function providers(baseUrl: string): string {
  const settings = {
    provider: "openai-compatible",
    apiKey: "sk-mock-conformance",
    model: "mock-model",
    baseUrl,
  };
  return JSON.stringify({
    version: 1,
    lastUsedProvider: "openai-compatible",
    modes: {},
    providers: {
      "openai-compatible": { settings, updatedAt: "2026-01-01T00:00:00.000Z", tokenSource: "manual" },
    },
  }) + "\n";
}

/** The cline host. */
export const cline = defineRealHost({
  id: "cline",
  binary: "cline",
  install: { package: "cline", version: "3.0.65" },
  acp: { args: ["--acp"] },
  envPrefixes: ["CLINE_*"],
  summary: "Cline CLI (--json hook and agent events)",
  dialect: "cline",
  capabilities: capabilities("streaming", "permissionSkip"),
  capabilityMarkers: { streaming: ["--json"], permissionSkip: ["--auto-approve"] },
  streamShape: { init: "required", terminal: "event" },
  env: { CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" },
  stderrNoise: [
    /^Warning: AI SDK Warning System: To turn off warning logging, set the AI_SDK_LOG_WARNINGS global to false\.$/,
    /^DeprecationWarning: AI SDK Warning \(.*\): Deprecated: "providerOptions key 'openai-compatible'"\. Use 'openaiCompatible' instead\.$/,
    /^\s+at \S+ \(\/\$bunfs\/root\/chunk-[a-z0-9]+\.js:\d+:\d+\)$/,
  ],
  envAllow: ["CLINE_*"],
  // What cline 3.0.65 reads of the user's setup: its credential, provider and model, and its folders and
  // settings files (its other CLINE_* variables are its hub daemon's, its tests' and its debugging's).
  envNames: [
    "CLINE_API_KEY",
    "CLINE_PROVIDER",
    "CLINE_MODEL",
    "CLINE_DIR",
    "CLINE_DATA_DIR",
    "CLINE_PROVIDER_SETTINGS_PATH",
    "CLINE_GLOBAL_SETTINGS_PATH",
    "CLINE_MCP_SETTINGS_PATH",
  ],
  paths: {
    "streaming": (request) => ({ args: run(request, true) }),
    "detached": (request) => ({ args: run(request, false) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "cline --json is a JSONL event stream; it has no single-document output",
    "resume": "cline resumes only a named session (--id <session-id>); it has no continue-the-latest flag",
  },
  // Cline's own tool names and arguments, as its model requests declare them at 3.0.65.
  toolBehavior: {
    tools: {
      read: { name: "read_files", args: ({ path }) => ({ files: [{ path }] }) },
      write: { name: "editor", args: ({ path, content }) => ({ path, new_text: content }) },
      shell: { name: "run_commands", args: ({ command }) => ({ commands: [command] }) },
    },
    permissionSkipArgs: SKIP,
  },
  mockModel: ({ url }) => ({
    env: {},
    files: { ".cline/data/settings/providers.json": providers(`${url}/v1`) },
    model: "mock-model",
  }),
});
