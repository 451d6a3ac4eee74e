/**
 * `droid` (Factory Droid, `droid exec`, 0.225.2). Pitfalls handled here: the npm wrapper `@factory/cli` is a
 * Node shim whose binary comes from a platform package (npm runs no install scripts here, and the wrapper's
 * 0.225.1 has no `@factory/cli-linux-x64@0.225.1` on the registry), so the pin is the platform package and its
 * 0.225.2 executable; `exec` is read-only unless `--skip-permissions-unsafe` (or `--auto`) is passed; there is
 * no `--continue` in exec mode (a session resumes only by its id, `-s <id>`). The mock model is a BYOK custom
 * model (`customModels` in `~/.factory/settings.json`, provider `generic-chat-completion-api`), which needs no
 * Factory login.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const BYPASS = "--skip-permissions-unsafe";
const PLATFORM = "@factory/cli-linux-x64";

function exec(request: InvocationRequest, format: string | null): string[] {
  return [
    "exec",
    ...(format ? ["--output-format", format] : []),
    BYPASS,
    ...opt("-m", request.model),
    ...(request.tools ? ["--only-tools", request.tools.join(",")] : []),
    ...opt("--cwd", request.workingDir),
    request.prompt,
  ];
}

/** The droid host. */
export const droid = defineRealHost({
  id: "droid",
  binary: "droid",
  install: {
    package: PLATFORM,
    version: "0.225.2",
    entry: `node_modules/${PLATFORM}/bin/droid`,
    executables: [`node_modules/${PLATFORM}/bin/droid`],
  },
  acp: { args: ["exec", "--output-format", "acp"] },
  envPrefixes: ["FACTORY_*"],
  summary: "Factory Droid (droid exec --output-format stream-json)",
  dialect: "droid",
  capabilities: capabilities("streaming", "permissionSkip", "toolAllowlist"),
  capabilityMarkers: { streaming: ["stream-json"], permissionSkip: [BYPASS] },
  streamShape: { init: "required", terminal: "event" },
  envAllow: ["FACTORY_API_KEY"],
  paths: {
    "streaming": (request) => ({ args: exec(request, "stream-json") }),
    "blocking-json": (request) => ({ args: exec(request, "json") }),
    "detached": (request) => ({ args: exec(request, null) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  toolBehavior: {
    tools: {
      read: { name: "Read", args: ({ path }) => ({ file_path: path }) },
      write: { name: "Create", args: ({ path, content }) => ({ file_path: path, content }) },
      shell: {
        name: "Execute",
        args: ({ command }) => ({ command, riskLevel: "medium", riskLevelReason: "conformance probe" }),
      },
    },
    permissionSkipArgs: [BYPASS],
  },
  unsupportedPaths: {
    "resume": "droid exec resumes a session only by its id (-s <id>); it has no --continue or --last",
  },
  mockModel: ({ url }) => ({
    env: {},
    files: {
      ".factory/settings.json": JSON.stringify({
        customModels: [{
          model: "mock-model",
          displayName: "conformance mock model",
          baseUrl: `${url}/v1`,
          apiKey: "sk-mock-conformance",
          provider: "generic-chat-completion-api",
          maxOutputTokens: 1024,
        }],
      }) + "\n",
    },
    model: "custom:mock-model",
  }),
});
