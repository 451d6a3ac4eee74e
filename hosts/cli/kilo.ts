/**
 * `kilo` (Kilo Code CLI, `@kilocode/cli` 7.7.7), a fork of opencode: its `run --format json` stream is
 * opencode's dialect (no init, no terminal event, EOF ends it), and its variables are opencode's renamed
 * `KILO_*`. Pinned at 7.7.7, not 7.8.1: the npm registry holds no `@kilocode/cli-linux-x64` at 7.8.1 (its
 * newest is 7.7.9, with no `@kilocode/cli` 7.7.9), so 7.8.1's postinstall fails; 7.7.7 is the newest
 * `@kilocode/cli` whose platform binary package is there (npm installs it as an optionalDependency). Pitfalls
 * handled here: always name a model (`-m provider/model`), or it falls back to Kilo's own gateway and waits
 * silently offline; the mock provider comes in through `KILO_CONFIG_CONTENT`, and the models catalogue fetch,
 * default plugins and self-update are switched off so a run touches no network.
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

/** The Kilo Code host. */
export const kilo = defineRealHost({
  id: "kilo",
  binary: "kilo",
  install: { package: "@kilocode/cli", version: "7.7.7" },
  acp: { args: ["acp"] },
  envPrefixes: ["KILO_*", "ANTHROPIC_*", "OPENAI_*", "OPENROUTER_*"],
  summary: "Kilo Code CLI (opencode fork: run --format json; EOF-terminated stream)",
  dialect: "opencode",
  capabilities: capabilities("streaming", "permissionSkip", "agentSelect"),
  capabilityMarkers: { streaming: ["json"], permissionSkip: ["--auto"] },
  streamShape: { init: "synthetic", terminal: "eof" },
  env: {
    KILO_DISABLE_AUTOUPDATE: "1",
    KILO_DISABLE_SHARE: "1",
    KILO_DISABLE_LSP_DOWNLOAD: "1",
    // Never attach to a kilo daemon the user has running, no PostHog telemetry, and none of the codebase
    // indexing and file watching a one-shot run does not need (they cost it tens of seconds).
    KILO_NO_DAEMON: "1",
    KILO_TELEMETRY_LEVEL: "off",
    KILO_DISABLE_CODEBASE_INDEXING: "1",
    KILO_EXPERIMENTAL_DISABLE_FILEWATCHER: "1",
  },
  envAllow: [
    "KILO_CONFIG",
    "KILO_CONFIG_DIR",
    "KILO_API_KEY",
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
    "blocking-json": "kilo run has no single-document JSON output (--format is default or json events)",
  },
  // opencode's tools and parameters (read/write take `filePath`, bash a `description`), and its agent files
  // under `.kilo/agent/` (the binary's own help: "Put new commands and agents in .kilo/").
  toolBehavior: {
    tools: {
      read: { name: "read", args: ({ path }) => ({ filePath: path }) },
      write: { name: "write", args: ({ path, content }) => ({ filePath: path, content }) },
      shell: { name: "bash", args: ({ command }) => ({ command, description: "conformance probe" }) },
    },
    permissionSkipArgs: ["--auto"],
    agentFiles: (name, instructions) => ({
      [`.kilo/agent/${name}.md`]:
        `---\ndescription: conformance probe agent\nmode: primary\n---\n${instructions}\n`,
    }),
  },
  mockModel: ({ url }) => ({
    env: {
      KILO_CONFIG_CONTENT: JSON.stringify({
        autoupdate: false,
        share: "disabled",
        snapshot: false,
        // Only the mock: Kilo's own gateway and its other built-in providers would fetch their model lists.
        enabled_providers: ["mock"],
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "conformance mock model",
            options: { baseURL: `${url}/v1`, apiKey: "sk-mock-conformance" },
            models: { "mock-model": { name: "mock model" } },
          },
        },
      }),
      KILO_DISABLE_MODELS_FETCH: "1",
      KILO_DISABLE_DEFAULT_PLUGINS: "1",
      // Like opencode, it installs config-folder dependencies with npm in the background; keep that offline.
      npm_config_offline: "true",
      npm_config_registry: "http://127.0.0.1:9/",
    },
    files: {},
    model: "mock/mock-model",
  }),
});
