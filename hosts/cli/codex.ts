/**
 * `codex` (`codex`, @openai/codex 0.171.0). Pitfalls handled here: exec-level options go before `resume`
 * (`codex exec … resume --last P`); `--skip-git-repo-check` always; stdin must be closed (the executor does);
 * codex ignores `OPENAI_BASE_URL`, so the mock model is a custom model provider in `$CODEX_HOME/config.toml`.
 * There is no blocking-JSON mode and no agent or tool selection on the command line.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const BYPASS = "--dangerously-bypass-approvals-and-sandbox";

/** Options of `codex exec`, which must all precede a `resume` subcommand. */
function execOptions(request: InvocationRequest, json: boolean): string[] {
  return ["exec", ...(json ? ["--json"] : []), "--skip-git-repo-check", BYPASS, ...opt("-m", request.model)];
}

/** The model the mock provider is configured with: a name codex has metadata for, so it prints no warning. */
const MOCK_MODEL = "gpt-5.5";

/** The codex host. */
export const codex = defineRealHost({
  id: "codex",
  binary: "codex",
  install: { package: "@openai/codex", version: "0.171.0" },
  // ACP through the official adapter, a TypeScript wrapper over `codex app-server`.
  acp: {
    args: [],
    adapter: {
      binary: "codex-acp",
      package: "@agentclientprotocol/codex-acp",
      version: "2.6.0",
      runtimes: ["node"],
    },
  },
  envPrefixes: ["OPENAI_*", "CODEX_*"],
  summary: "OpenAI Codex CLI (exec --json)",
  dialect: "codex",
  capabilities: capabilities("streaming", "permissionSkip"),
  capabilityMarkers: { streaming: ["--json"], permissionSkip: [BYPASS] },
  streamShape: { init: "synthetic", terminal: "event" },
  stderrNoise: [
    /^Reading additional input from stdin\.\.\.$/,
    /^WARNING: proceeding, even though we could not create PATH aliases/,
  ],
  envAllow: ["OPENAI_API_KEY", "CODEX_HOME", "CODEX_API_KEY"],
  paths: {
    "streaming": (request) => ({ args: [...execOptions(request, true), request.prompt] }),
    "resume": (request) => ({ args: [...execOptions(request, true), "resume", "--last", request.prompt] }),
    "detached": (request) => ({ args: [...execOptions(request, false), request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "codex has no single-document JSON output; only the exec --json stream",
  },
  toolBehavior: {
    // codex reads and writes through its shell tool: there is no file tool for the model to call.
    tools: {
      read: { name: "exec_command", args: ({ path }) => ({ cmd: `cat '${path}'` }) },
      write: {
        name: "exec_command",
        args: ({ path, content }) => ({ cmd: `printf '%s' '${content}' > '${path}'` }),
      },
      shell: { name: "exec_command", args: ({ command }) => ({ cmd: command }) },
    },
    permissionSkipArgs: [BYPASS],
  },
  mockModel: ({ url, home }) => ({
    env: { CODEX_HOME: `${home}/.codex`, CONFORMANCE_MOCK_API_KEY: "sk-mock-conformance" },
    files: {
      ".codex/config.toml": [
        `model = "${MOCK_MODEL}"`,
        `model_provider = "conformance-mock"`,
        ``,
        `[model_providers.conformance-mock]`,
        `name = "conformance mock model"`,
        `base_url = "${url}/v1"`,
        `wire_api = "responses"`,
        `env_key = "CONFORMANCE_MOCK_API_KEY"`,
        ``,
      ].join("\n"),
    },
  }),
});
