/**
 * `qwen` (`qwen`, @qwen-code/qwen-code 0.24.4). Pitfalls handled here: the prompt is positional (`-p` is
 * deprecated); the yolo warning is silenced; `--output-format json` is one JSON array written at the end;
 * structured output registers a synthetic tool through `--json-schema`. The mock model is the OpenAI auth type
 * (selected in the temporary HOME's settings) with `OPENAI_BASE_URL`.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { structuredOutputField } from "../../src/exec/tool_behavior.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

function base(request: InvocationRequest, format: string | null): string[] {
  return [
    ...(format ? ["--output-format", format] : []),
    "--yolo",
    ...opt("-m", request.model),
    ...opt("--include-directories", request.workspaceRoot),
  ];
}

/** The schema flag, on every path that prints a result (stream-json carries it in its `result` line too). */
function schema(request: InvocationRequest): string[] {
  return opt("--json-schema", request.jsonSchema);
}

/** The qwen host. */
export const qwen = defineRealHost({
  id: "qwen",
  binary: "qwen",
  install: {
    package: "@qwen-code/qwen-code",
    version: "0.24.4",
    // npm 11 runs no install scripts, which leaves the vendored ripgrep without its exec bit.
    executables: ["node_modules/@qwen-code/qwen-code/vendor/ripgrep/x64-linux/rg"],
  },
  acp: { args: ["--acp"] },
  envPrefixes: ["QWEN_*", "DASHSCOPE_*", "OPENAI_*"],
  summary: "Qwen Code CLI (stream-json, claude-compatible envelope)",
  dialect: "qwen",
  capabilities: capabilities("streaming", "permissionSkip", "structuredOutput"),
  capabilityMarkers: {
    streaming: ["stream-json"],
    permissionSkip: ["--yolo"],
    structuredOutput: ["--json-schema"],
  },
  streamShape: { init: "required", terminal: "event" },
  env: { QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" },
  stderrNoise: [/^Ripgrep not available: .*Falling back to built-in grep\.$/],
  envAllow: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "DASHSCOPE_API_KEY", "QWEN_*"],
  envNames: ["QWEN_HOME", "QWEN_MODEL"],
  paths: {
    "streaming": (request) => ({
      args: [...base(request, "stream-json"), ...schema(request), request.prompt],
    }),
    "blocking-json": (request) => ({
      args: [
        ...base(request, "json"),
        ...(request.jsonSchema ? [...schema(request), "--chat-recording", "false"] : []),
        request.prompt,
      ],
    }),
    "resume": (request) => ({
      args: [...base(request, "stream-json"), "--continue", ...schema(request), request.prompt],
    }),
    "detached": (request) => ({ args: [...base(request, null), request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  toolBehavior: {
    tools: {
      read: { name: "read_file", args: ({ path }) => ({ file_path: path }) },
      write: { name: "write_file", args: ({ path, content }) => ({ file_path: path, content }) },
      shell: { name: "run_shell_command", args: ({ command }) => ({ command }) },
    },
    permissionSkipArgs: ["--yolo"],
    structuredOutput: {
      tool: "structured_output",
      read: (stdout) => structuredOutputField(stdout, "structured_result"),
    },
  },
  mockModel: ({ url }) => ({
    env: { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-mock-conformance", OPENAI_MODEL: "mock-model" },
    files: {
      ".qwen/settings.json": JSON.stringify({ security: { auth: { selectedType: "openai" } } }) + "\n",
    },
    model: "mock-model",
  }),
});
