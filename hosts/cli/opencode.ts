/**
 * `opencode` (`opencode`, opencode-ai 1.18.33). Its `run --format json` stream has no init and no terminal
 * event (EOF ends it). Pitfalls handled here: always name a model (`-m provider/model`), or it falls back to a
 * network model that retries forever offline; the mock provider comes in through `OPENCODE_CONFIG_CONTENT`,
 * and the models catalogue fetch and plugin installs are switched off so a run touches no network.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

function run(request: InvocationRequest, extra: string[], json = true): string[] {
  return [
    "run",
    ...(json ? ["--format", "json"] : []),
    "--auto",
    ...opt("-m", request.model),
    ...opt("--agent", request.agent),
    ...extra,
    request.prompt,
  ];
}

/** The opencode host. */
export const opencode = defineRealHost({
  id: "opencode",
  binary: "opencode",
  install: { package: "opencode-ai", version: "1.18.33" },
  acp: { args: ["acp"] },
  envPrefixes: ["OPENCODE_*", "ANTHROPIC_*", "OPENAI_*", "OPENROUTER_*"],
  summary: "opencode (run --format json; EOF-terminated stream)",
  dialect: "opencode",
  capabilities: capabilities("streaming", "permissionSkip", "agentSelect"),
  capabilityMarkers: { streaming: ["json"], permissionSkip: ["--auto"] },
  streamShape: { init: "synthetic", terminal: "eof" },
  env: {
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  },
  envAllow: [
    "OPENCODE_CONFIG",
    "OPENCODE_CONFIG_DIR",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "OPENROUTER_API_KEY",
  ],
  paths: {
    "streaming": (request) => ({ args: run(request, []) }),
    "resume": (request) => ({ args: run(request, ["--continue"]) }),
    "detached": (request) => ({ args: run(request, [], false) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "opencode run has no single-document JSON output",
  },
  toolBehavior: {
    tools: {
      read: { name: "read", args: ({ path }) => ({ filePath: path }) },
      write: { name: "write", args: ({ path, content }) => ({ filePath: path, content }) },
      shell: { name: "bash", args: ({ command }) => ({ command, description: "conformance probe" }) },
    },
    permissionSkipArgs: ["--auto"],
    agentFiles: (name, instructions) => ({
      [`.opencode/agent/${name}.md`]:
        `---\ndescription: conformance probe agent\nmode: primary\n---\n${instructions}\n`,
    }),
  },
  mockModel: ({ url }) => ({
    env: {
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        autoupdate: false,
        share: "disabled",
        // `opencode acp` takes no -m: its sessions start on the config's model.
        model: "mock/mock-model",
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "conformance mock model",
            options: { baseURL: `${url}/v1`, apiKey: "sk-mock-conformance" },
            models: { "mock-model": { name: "mock model" } },
          },
        },
      }),
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      // opencode installs config-folder dependencies with npm in the background; keep that off the network.
      npm_config_offline: "true",
      npm_config_registry: "http://127.0.0.1:9/",
    },
    files: {},
    model: "mock/mock-model",
  }),
});
