/**
 * `gemini` (`gemini`, @google/gemini-cli 0.61.0). Pitfalls handled here: `--skip-trust` always, or yolo is
 * silently downgraded in an untrusted folder; stdin is appended to `-p`, so it stays closed. For the mock
 * model, `GOOGLE_GEMINI_BASE_URL` alone selects the "gateway" auth type that non-interactive mode rejects
 * ("Invalid auth method selected"), so the temporary HOME's settings pin the API-key auth type.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const YOLO = ["--approval-mode", "yolo"];

function base(request: InvocationRequest, format: string | null): string[] {
  return [
    "-p",
    request.prompt,
    ...(format ? ["--output-format", format] : []),
    "--skip-trust",
    ...YOLO,
    ...opt("-m", request.model),
  ];
}

/** The gemini host. */
export const gemini = defineRealHost({
  id: "gemini",
  binary: "gemini",
  install: { package: "@google/gemini-cli", version: "0.61.0" },
  // Without a model named, ACP mode routes through a flash-lite classifier first, which the mock cannot answer.
  acp: { args: ["--acp"], modelFlag: "-m" },
  envPrefixes: ["GEMINI_*", "GOOGLE_*"],
  summary: "Google Gemini CLI (stream-json)",
  dialect: "gemini",
  capabilities: capabilities("streaming", "permissionSkip"),
  capabilityMarkers: { streaming: ["stream-json"], permissionSkip: ["yolo"] },
  streamShape: { init: "required", terminal: "event" },
  stderrNoise: [
    /^YOLO mode is enabled\. All tool calls will be automatically approved\.$/,
    /^Warning: Basic terminal detected/,
    /^Warning: 256-color support not detected/,
    /^Ripgrep is not available\. Falling back to GrepTool\.$/,
  ],
  envAllow: [
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_USE_GCA",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "GOOGLE_APPLICATION_CREDENTIALS",
  ],
  paths: {
    "streaming": (request) => ({ args: base(request, "stream-json") }),
    "blocking-json": (request) => ({ args: base(request, "json") }),
    "resume": (request) => ({ args: [...base(request, "stream-json"), "--resume", "latest"] }),
    "detached": (request) => ({ args: base(request, null) }),
    "version-check": () => ({ args: ["--version"] }),
  },
  toolBehavior: {
    tools: {
      read: { name: "read_file", args: ({ path }) => ({ file_path: path }) },
      write: { name: "write_file", args: ({ path, content }) => ({ file_path: path, content }) },
      shell: { name: "run_shell_command", args: ({ command }) => ({ command }) },
    },
    permissionSkipArgs: YOLO,
  },
  mockModel: ({ url }) => ({
    env: { GEMINI_API_KEY: "mock-conformance", GOOGLE_GEMINI_BASE_URL: url },
    files: {
      ".gemini/settings.json": JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }) +
        "\n",
    },
    model: "gemini-2.5-flash",
  }),
});
