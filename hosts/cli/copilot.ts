/**
 * `copilot` (`copilot`, @github/copilot 1.0.102). Headless is `-p PROMPT` with `--allow-all-tools` (required
 * for non-interactive mode) and `--output-format json` (JSONL session events ended by a `result` line with
 * the exit code). Pitfalls handled here: the npm package is a Node loader that runs a native single-executable
 * binary, which unpacks its ~235 MB JavaScript package on first use into `~/.cache/copilot/pkg` (5 to 10 s
 * per fresh HOME, and a `Package extraction took N ms` line on stderr): `COPILOT_PKG_CACHE_HOME` keeps that
 * unpacked copy in the `hosts:install` cache, shared by every sandboxed run; auto-update is off. Copilot talks
 * to GitHub's service unless a BYOK provider is set: the mock model is `COPILOT_PROVIDER_BASE_URL` (an
 * OpenAI-compatible endpoint) with `COPILOT_OFFLINE=true`, which needs no GitHub sign-in and skips
 * telemetry and GitHub's MCP server.
 *
 * @module
 */
import { join } from "node:path";
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { hostsCacheDir } from "../installed.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const SKIP = "--allow-all-tools";

function prompt(request: InvocationRequest, json: boolean, extra: string[] = []): string[] {
  return [
    "-p",
    request.prompt,
    ...(json ? ["--output-format", "json"] : []),
    SKIP,
    "--no-auto-update",
    ...opt("--model", request.model),
    ...opt("--agent", request.agent),
    ...(request.tools ? ["--available-tools", ...request.tools] : []),
    ...opt("--add-dir", request.workspaceRoot),
    ...extra,
  ];
}

/** The copilot host. */
export const copilot = defineRealHost({
  id: "copilot",
  binary: "copilot",
  install: { package: "@github/copilot", version: "1.0.102" },
  // Only COPILOT_* (its sign-in token is COPILOT_GITHUB_TOKEN): the generic GH_TOKEN and GITHUB_TOKEN it also
  // reads are GitHub credentials of the user, not the agent's, and stay out of its environment.
  // Hidden from --help; present in the bundle and the changelog. `--stdio` as acpx passes it.
  acp: { args: ["--acp", "--stdio"] },
  envPrefixes: ["COPILOT_*"],
  summary: "GitHub Copilot CLI (-p, --output-format json session events)",
  dialect: "copilot",
  capabilities: capabilities("streaming", "permissionSkip", "agentSelect", "toolAllowlist"),
  capabilityMarkers: { streaming: ["--output-format"], permissionSkip: [SKIP] },
  streamShape: { init: "synthetic", terminal: "event" },
  env: {
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PKG_CACHE_HOME: join(hostsCacheDir(), "copilot"),
  },
  stderrNoise: [/^Package extraction took \d+ms$/],
  envAllow: ["COPILOT_*"],
  // What copilot 1.0.102 reads of the user's setup: its sign-in token, home, model and service, and the BYOK
  // provider's settings (its other COPILOT_* variables are its tests', telemetry's and debugging's).
  envNames: [
    "COPILOT_GITHUB_TOKEN",
    "COPILOT_HOME",
    "COPILOT_MODEL",
    "COPILOT_API_URL",
    "COPILOT_OFFLINE",
    "COPILOT_PROVIDER_TYPE",
    "COPILOT_PROVIDER_BASE_URL",
    "COPILOT_PROVIDER_API_KEY",
    "COPILOT_PROVIDER_BEARER_TOKEN",
    "COPILOT_PROVIDER_MODEL_ID",
    "COPILOT_PROVIDER_WIRE_API",
    "COPILOT_PROVIDER_HEADERS",
    "COPILOT_PROVIDER_AZURE_API_VERSION",
  ],
  paths: {
    "streaming": (request) => ({ args: prompt(request, true) }),
    "resume": (request) => ({ args: prompt(request, true, ["--continue"]) }),
    "detached": (request) => ({ args: [...prompt(request, false), "-s"] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json":
      "copilot's --output-format json is a JSONL event stream; it has no single-document output",
  },
  // Copilot's own tool names and arguments, as its model requests declare them at 1.0.102.
  toolBehavior: {
    tools: {
      read: { name: "view", args: ({ path }) => ({ path }) },
      write: { name: "create", args: ({ path, content }) => ({ path, file_text: content }) },
      shell: { name: "bash", args: ({ command }) => ({ command, description: "conformance probe" }) },
    },
    permissionSkipArgs: [SKIP],
    // A repository's custom agents: `--agent NAME` puts the file's body into the model's instructions.
    agentFiles: (name, instructions) => ({
      [`.github/agents/${name}.agent.md`]:
        `---\nname: ${name}\ndescription: conformance probe agent\n---\n${instructions}\n`,
    }),
  },
  mockModel: ({ url }) => ({
    env: {
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
      COPILOT_PROVIDER_TYPE: "openai",
      COPILOT_PROVIDER_API_KEY: "sk-mock-conformance",
      COPILOT_MODEL: "mock-model",
    },
    files: {},
    model: "mock-model",
  }),
});
