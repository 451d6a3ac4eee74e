/**
 * `grok` (grok-cli, @vibe-kit/grok-cli 0.0.34, a community CLI for OpenAI-compatible chat APIs; not xAI's own
 * Grok Build). What its `dist/index.js` does, and what a run here showed: `grok -p PROMPT` (headless mode) runs
 * the whole agent loop and only then prints the conversation, one OpenAI-style message per line (`{role:"user"}`
 * echoing the prompt, `{role:"assistant", content, tool_calls?}`, `{role:"tool", tool_call_id, content}`), so
 * its stream has no init, no usage and no terminal event, and nothing comes out while it works. Headless mode
 * approves every tool (`ConfirmationService` `allOperations`) and has no flag to ask instead, so no permission
 * bypass is claimed; there is no resume, no JSON document, no agent, tool list or schema. A thrown error is
 * `{"role":"assistant","content":"Error: …"}` and exit 1, but a failed model call is caught inside the agent and
 * printed as the reply `Sorry, I encountered an error: Grok API error: …` with exit 0. `--version` prints the
 * `1.0.1` hard-coded in its commander set-up, whatever the package version. The mock model is reached through
 * `GROK_BASE_URL` (the `openai` SDK's base URL), `GROK_API_KEY` and `GROK_MODEL`, with no config file.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

function headless(request: InvocationRequest): string[] {
  return [...opt("-d", request.workingDir), ...opt("-m", request.model), "-p", request.prompt];
}

/** The grok host. */
export const grok = defineRealHost({
  id: "grok",
  binary: "grok",
  install: { package: "@vibe-kit/grok-cli", version: "0.0.34", printedVersion: "1.0.1" },
  acpUnsupported:
    "grok-cli 0.0.34 has no ACP mode (none in --help, no ACP strings in its dist/) and no adapter on npm",
  envPrefixes: ["GROK_*"],
  summary: "grok-cli (-p; OpenAI-style {role} lines printed when the run is over, EOF-terminated)",
  dialect: "grok",
  capabilities: capabilities(),
  capabilityMarkers: {},
  streamShape: { init: "synthetic", terminal: "eof" },
  envAllow: ["GROK_API_KEY", "GROK_BASE_URL", "GROK_MODEL", "GROK_MAX_TOKENS"],
  paths: {
    "streaming": (request) => ({ args: headless(request) }),
    "detached": (request) => ({ args: headless(request) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "grok -p prints JSON lines only; it has no single-document JSON output",
    "resume": "grok has no way to continue a session from the command line",
  },
  toolBehavior: {
    tools: {
      read: { name: "view_file", args: ({ path }) => ({ path }) },
      write: { name: "create_file", args: ({ path, content }) => ({ path, content }) },
      shell: { name: "bash", args: ({ command }) => ({ command }) },
    },
  },
  mockModel: ({ url }) => ({
    env: { GROK_BASE_URL: `${url}/v1`, GROK_API_KEY: "sk-mock-conformance", GROK_MODEL: "mock-model" },
    files: {},
  }),
});
