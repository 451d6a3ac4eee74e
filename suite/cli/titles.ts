/**
 * The titles of the CLI tests whose ids come from a golden path or a capability flag: what each checks, in
 * words, for reports. Rows of the scripted and composition tables carry their own `title`.
 *
 * @module
 */
import type { HostCapabilities } from "../../src/exec/host_runner.ts";

const PATH_WORDS: Readonly<Record<string, string>> = {
  streaming: "the streaming path",
  "blocking-json": "the blocking JSON path",
  resume: "the resume path",
  detached: "the detached path",
  "version-check": "the version check",
};

/** Words for a golden path; a user's own path (from the config file) by its name. */
function pathWords(path: string): string {
  return PATH_WORDS[path] ?? `the user golden path "${path}"`;
}

/** `cli/constructability/<path>`. */
export function constructabilityTitle(path: string): string {
  return `The runner builds a well-formed invocation for ${pathWords(path)}`;
}

/** `cli/behavior/<path>`. */
export function behaviorTitle(path: string): string {
  return `The host follows the stream contract on ${pathWords(path)}`;
}

/** `cli/mock-model/<path>` and `cli/mock-model/fault-<fault>`. */
export function mockModelTitle(name: string): string {
  return name.startsWith("fault-")
    ? `Against a local mock model that fails (${
      name.slice("fault-".length)
    }), the host ends with a clear error`
    : `Against a local mock model, ${pathWords(name)} ends with the model's answer`;
}

const FLAG_WORDS: Readonly<Record<keyof HostCapabilities, string>> = {
  streaming: "streaming output",
  permissionSkip: "skipping permission prompts",
  agentSelect: "selecting an agent",
  toolAllowlist: "a tool allow-list",
  structuredOutput: "structured (schema) output",
  workspaceSandboxed: "a sandboxed workspace",
};

/** `cli/capabilities/<flag>-positive|negative`. */
export function capabilityTitle(flag: keyof HostCapabilities, claimed: boolean): string {
  return claimed
    ? `The claimed capability ${FLAG_WORDS[flag]} shows in the invocation`
    : `The unclaimed capability ${FLAG_WORDS[flag]} leaves no trace in the invocation`;
}
