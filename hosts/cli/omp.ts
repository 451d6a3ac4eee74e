/**
 * `omp` (`omp`, @oh-my-pi/pi-coding-agent 18.2.3, a Bun script: `hosts:install` puts bun first on its PATH).
 * Same event family as pi. Pitfalls handled here: `--cwd` is passed explicitly (started in HOME, omp would
 * switch to a temp folder); tool approval is skipped with `--auto-approve`. The mock model is a custom
 * provider in `~/.omp/agent/models.yml` of the temporary HOME.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";
import { stringify } from "yaml";
import { piModelsConfig } from "./pi.ts";

function json(request: InvocationRequest, extra: string[]): string[] {
  return [
    "--mode",
    "json",
    "--auto-approve",
    ...extra,
    ...opt("--cwd", request.workingDir),
    ...opt("--model", request.model),
    ...(request.tools ? ["--tools", request.tools.join(",")] : []),
    "-p",
    request.prompt,
  ];
}

/** The omp host. */
export const omp = defineRealHost({
  id: "omp",
  binary: "omp",
  install: { package: "@oh-my-pi/pi-coding-agent", version: "18.2.3", runtimes: ["bun"] },
  acp: { args: ["acp"] },
  envPrefixes: ["PI_CODING_AGENT_*", "ANTHROPIC_*", "OPENAI_*", "GEMINI_*", "OPENROUTER_*"],
  summary: "oh-my-pi coding agent (--mode json; pi event family)",
  dialect: "pi",
  capabilities: capabilities("streaming", "permissionSkip", "toolAllowlist"),
  capabilityMarkers: { streaming: ["json"], permissionSkip: ["--auto-approve"] },
  streamShape: { init: "required", terminal: "eof" },
  // omp narrates a slow start on stderr ("Still starting after 12s — phase: …", then its log path).
  stderrNoise: [/^Still starting after \d+s/, /^\s+logs: /],
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
    "detached": (request) => ({
      args: [
        "--auto-approve",
        ...opt("--cwd", request.workingDir),
        ...opt("--model", request.model),
        "-p",
        request.prompt,
      ],
    }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "omp has no single-document JSON output (structured output only over SDK/RPC)",
  },
  toolBehavior: {
    tools: {
      read: { name: "read", args: ({ path }) => ({ path, i: "conformance probe" }) },
      write: { name: "write", args: ({ path, content }) => ({ path, content, i: "conformance probe" }) },
      shell: { name: "bash", args: ({ command }) => ({ command, i: "conformance probe" }) },
    },
    permissionSkipArgs: ["--auto-approve"],
  },
  mockModel: ({ url }) => ({
    env: { PI_OFFLINE: "1" },
    files: { ".omp/agent/models.yml": stringify(piModelsConfig(url)) },
    model: "mock/mock-model",
  }),
});
