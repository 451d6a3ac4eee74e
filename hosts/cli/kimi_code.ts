/**
 * `kimi-code` (`kimi`, @moonshot-ai/kimi-code 2.1.0, needs Node ≥ 22.19: `hosts:install` puts one first on its
 * PATH). Pitfalls handled here: `-p` cannot be combined with `--yolo` or `--auto` (kimi exits 1), so no
 * permission bypass can be requested in print mode: `-p` runs under kimi's own auto policy, and the runner
 * disclaims `permissionSkip` rather than claim a bypass it cannot pass; `--agent` cannot be combined with
 * `--continue`, so agent selection is dropped on resume. The stream carries no usage. The mock model comes in through kimi's `KIMI_MODEL_*`
 * environment overlay (an OpenAI-compatible provider), with no config file.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

function stream(request: InvocationRequest, resume: boolean): string[] {
  return [
    "--output-format",
    "stream-json",
    ...(resume ? ["--continue"] : opt("--agent", request.agent)),
    ...opt("--add-dir", request.workspaceRoot),
    ...opt("-m", request.model),
    "-p",
    request.prompt,
  ];
}

/** The kimi-code host. */
export const kimiCode = defineRealHost({
  id: "kimi-code",
  binary: "kimi",
  install: { package: "@moonshot-ai/kimi-code", version: "2.1.0", runtimes: ["node"] },
  acp: { args: ["acp"] },
  envPrefixes: ["KIMI_*", "MOONSHOT_*"],
  summary: "Moonshot Kimi Code CLI (stream-json, {role} lines)",
  dialect: "kimi",
  capabilities: capabilities("streaming", "agentSelect"),
  capabilityMarkers: { streaming: ["stream-json"] },
  streamShape: { init: "required", terminal: "eof" },
  env: { KIMI_CODE_NO_AUTO_UPDATE: "1" },
  envAllow: ["KIMI_API_KEY", "KIMI_BASE_URL", "KIMI_CODE_HOME", "KIMI_MODEL_*"],
  envNames: ["KIMI_MODEL_NAME", "KIMI_MODEL_API_KEY", "KIMI_MODEL_BASE_URL", "KIMI_MODEL_PROVIDER_TYPE"],
  paths: {
    "streaming": (request) => ({ args: stream(request, false) }),
    "resume": (request) => ({ args: stream(request, true) }),
    "detached": (request) => ({ args: [...opt("-m", request.model), "-p", request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "kimi's --output-format is text or stream-json only",
  },
  toolBehavior: {
    tools: {
      read: { name: "Read", args: ({ path }) => ({ path }) },
      write: { name: "Write", args: ({ path, content }) => ({ path, content }) },
      shell: { name: "Bash", args: ({ command }) => ({ command }) },
    },
    // Project agents are discovered in .kimi-code/agents/ (or .agents/agents/) of the working folder.
    agentFiles: (name, instructions) => ({
      [`.kimi-code/agents/${name}.md`]:
        `---\nname: ${name}\ndescription: conformance probe agent\n---\n${instructions}\n`,
    }),
  },
  mockModel: ({ url }) => ({
    env: {
      KIMI_MODEL_NAME: "mock-model",
      KIMI_MODEL_API_KEY: "sk-mock-conformance",
      KIMI_MODEL_PROVIDER_TYPE: "openai",
      KIMI_MODEL_BASE_URL: `${url}/v1`,
      // Offline, kimi's exit waits about 2 s on its telemetry upload (a DNS lookup that cannot answer).
      KIMI_DISABLE_TELEMETRY: "1",
    },
    files: {},
  }),
});
