/**
 * `pi` (`pi`, @mariozechner/pi-coding-agent 0.73.1). pi has no permission system (nothing to bypass), no
 * blocking-JSON mode and no agent selection. In `--mode json` it exits 0 even when the model call failed, so
 * success is read only from the stream. The mock model is a custom provider in `models.json` under a
 * temporary `PI_CODING_AGENT_DIR`.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

function json(request: InvocationRequest, extra: string[]): string[] {
  return [
    "--mode",
    "json",
    ...extra,
    ...opt("--model", request.model),
    ...(request.tools ? ["--tools", request.tools.join(",")] : []),
    "-p",
    request.prompt,
  ];
}

/** A `models.json` provider named `mock` that speaks OpenAI Chat Completions to the mock model. */
export function piModelsConfig(url: string): Record<string, unknown> {
  return {
    providers: {
      mock: {
        baseUrl: `${url}/v1`,
        api: "openai-completions",
        apiKey: "sk-mock-conformance",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: "mock-model", reasoning: false }],
      },
    },
  };
}

/** The pi host. */
export const pi = defineRealHost({
  id: "pi",
  binary: "pi",
  install: { package: "@mariozechner/pi-coding-agent", version: "0.73.1" },
  // pi has only `--mode rpc`: ACP through the community adapter, which has no version flag.
  acp: {
    args: [],
    adapter: { binary: "pi-acp", package: "pi-acp", version: "0.0.34", runtimes: ["node"], versionArgs: [] },
  },
  envPrefixes: ["PI_CODING_AGENT_*", "ANTHROPIC_*", "OPENAI_*", "GEMINI_*", "OPENROUTER_*"],
  summary: "pi coding agent (--mode json; lookahead terminal on agent_end)",
  dialect: "pi",
  capabilities: capabilities("streaming", "toolAllowlist"),
  capabilityMarkers: { streaming: ["json"] },
  streamShape: { init: "required", terminal: "eof" },
  envAllow: [
    "PI_CODING_AGENT_DIR",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "OPENROUTER_API_KEY",
  ],
  paths: {
    "streaming": (request) => ({ args: json(request, []) }),
    "resume": (request) => ({ args: json(request, ["--continue"]) }),
    "detached": (request) => ({ args: [...opt("--model", request.model), "-p", request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "pi has no single-document JSON output (text mode prints only the final text)",
  },
  toolBehavior: {
    tools: {
      read: { name: "read", args: ({ path }) => ({ path }) },
      write: { name: "write", args: ({ path, content }) => ({ path, content }) },
      shell: { name: "bash", args: ({ command }) => ({ command }) },
    },
  },
  mockModel: ({ url, home }) => ({
    env: { PI_CODING_AGENT_DIR: `${home}/.pi/agent`, PI_OFFLINE: "1" },
    files: { ".pi/agent/models.json": JSON.stringify(piModelsConfig(url), null, 2) + "\n" },
    model: "mock/mock-model",
  }),
});
