/**
 * `claude-code` (`claude`, @anthropic-ai/claude-code 2.1.332). Pitfalls handled here: `stream-json` needs
 * `--verbose` with `-p`; as root the permission bypass is refused unless `IS_SANDBOX=1`; background tasks
 * can hold stdout open after `result`, so they are disabled.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { structuredOutputField } from "../../src/exec/tool_behavior.ts";
import { capabilities, defineRealHost, opt, runningAsRoot } from "./_real_host.ts";

const BYPASS = "--dangerously-skip-permissions";

/**
 * The permission part of argv: the bypass; with a workspace root, the same mode by name and the root added.
 * The mode stays the bypass so that the root is the one thing a sandboxed run changes against its control
 * (acceptEdits would refuse writes outside the working folder by itself, whatever the root).
 */
function permissions(request: InvocationRequest): string[] {
  return request.workspaceRoot
    ? ["--permission-mode", "bypassPermissions", "--add-dir", request.workspaceRoot]
    : [BYPASS];
}

function selection(request: InvocationRequest): string[] {
  return [
    ...opt("--model", request.model),
    ...opt("--agent", request.agent),
    ...(request.tools ? ["--tools", request.tools.join(",")] : []),
  ];
}

const streaming = (request: InvocationRequest, resume: boolean) => ({
  args: [
    "-p",
    request.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    ...(resume ? ["--continue"] : []),
    ...permissions(request),
    ...selection(request),
  ],
});

/** The claude-code host. */
export const claudeCode = defineRealHost({
  id: "claude-code",
  binary: "claude",
  install: { package: "@anthropic-ai/claude-code", version: "2.1.332" },
  // ACP through the official adapter (research: acp.md), which runs Claude through the Agent SDK.
  acp: {
    args: [],
    adapter: {
      binary: "claude-agent-acp",
      package: "@agentclientprotocol/claude-agent-acp",
      version: "0.101.0",
      runtimes: ["node"],
    },
  },
  envPrefixes: ["ANTHROPIC_*", "CLAUDE_*", "AWS_*", "GOOGLE_*"],
  summary: "Anthropic Claude Code CLI (stream-json)",
  dialect: "claude",
  capabilities: capabilities(
    "streaming",
    "permissionSkip",
    "agentSelect",
    "toolAllowlist",
    "structuredOutput",
    "workspaceSandboxed",
  ),
  capabilityMarkers: {
    streaming: ["stream-json"],
    permissionSkip: [BYPASS],
    workspaceSandboxed: ["--permission-mode"],
    structuredOutput: ["--json-schema"],
  },
  streamShape: { init: "required", terminal: "event" },
  env: {
    CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1",
    ...(runningAsRoot() ? { IS_SANDBOX: "1" } : {}),
  },
  envAllow: [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_MODEL",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "AWS_*",
    "GOOGLE_APPLICATION_CREDENTIALS",
  ],
  // Bedrock's credentials, region and profile.
  envNames: [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
  ],
  paths: {
    "streaming": (request) => streaming(request, false),
    "resume": (request) => streaming(request, true),
    "blocking-json": (request) => ({
      args: [
        "-p",
        request.prompt,
        "--output-format",
        "json",
        ...permissions(request),
        ...opt("--model", request.model),
        ...(request.jsonSchema ? ["--json-schema", request.jsonSchema, "--no-session-persistence"] : []),
      ],
    }),
    "detached": (request) => ({
      args: ["-p", request.prompt, ...permissions(request), ...opt("--model", request.model)],
    }),
    "version-check": () => ({ args: ["--version"] }),
  },
  toolBehavior: {
    tools: {
      read: { name: "Read", args: ({ path }) => ({ file_path: path }) },
      write: { name: "Write", args: ({ path, content }) => ({ file_path: path, content }) },
      shell: { name: "Bash", args: ({ command }) => ({ command, description: "conformance probe" }) },
    },
    permissionSkipArgs: [BYPASS],
    agentFiles: (name, instructions) => ({
      [`.claude/agents/${name}.md`]:
        `---\nname: ${name}\ndescription: conformance probe agent\n---\n${instructions}\n`,
    }),
    structuredOutput: { tool: "StructuredOutput", read: structuredOutputField },
  },
  mockModel: ({ url }) => ({
    env: {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: "sk-ant-mock-conformance",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
    files: {},
  }),
});
