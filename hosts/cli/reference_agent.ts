/**
 * `reference-agent`: the built-in reference agent CLI (`conformance reference-agent`, reference_agent/), a
 * test-only host that keeps every contract of the CLI suite, and its broken variants `reference-agent:<name>`
 * (the table in hosts/cli/reference_agent_variants.ts). It has no model service of its own: every run, the
 * behaviour tier's too, is pointed at the mock model through its config file in the sandbox's HOME, as a real
 * CLI is. A variant whose flaw is in the program differs only by the environment variable naming the flaw, so
 * its argv is the reference's; a host-file variant builds its own argv or declarations.
 *
 * @module
 */
import { selfCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import {
  CAPABILITY_FLAGS,
  type GoldenPath,
  type HostCapabilities,
  type HostRunner,
  type InvocationRequest,
  NO_CAPABILITIES,
} from "../../src/exec/host_runner.ts";
import { structuredOutputField } from "../../src/exec/tool_behavior.ts";
import { type ArgvPlan, cliRunner } from "./_runner.ts";
import { opt } from "./_real_host.ts";
import { AGENT_VARIANTS, type AgentVariant, type HostFileFlaw } from "./reference_agent_variants.ts";

const BYPASS = "--dangerously-skip-permissions";

/** The variable the program reads its flaw from (reference_agent/flaws.ts; the program imports nothing here). */
const FLAW_ENV = "CONFORMANCE_REFERENCE_AGENT_FLAW";

const ALL: HostCapabilities = Object.freeze(
  Object.fromEntries(CAPABILITY_FLAGS.map((flag) => [flag, true])),
) as unknown as HostCapabilities;

const FORMATS: Readonly<Record<string, string>> = {
  "streaming": "stream-json",
  "resume": "stream-json",
  "blocking-json": "json",
  "detached": "text",
};

/** The argv of a prompt path; a host-file flaw changes what it carries. */
function argv(path: GoldenPath, request: InvocationRequest, flaw: HostFileFlaw | null): string[] {
  const requested = flaw === "drops-requested-options" ? [] : [
    ...opt("--agent", request.agent),
    ...opt("--tools", request.tools?.join(",")),
    ...opt("--root", request.workspaceRoot),
    ...opt("--json-schema", request.jsonSchema),
  ];
  return [
    "-p",
    request.prompt,
    "--output-format",
    FORMATS[path]!,
    ...(path === "resume" ? ["--continue"] : []),
    BYPASS,
    // An unset model as an empty argument: the bug `opt` exists to prevent.
    ...(flaw === "empty-argument" ? ["--model", request.model ?? ""] : opt("--model", request.model)),
    ...requested,
  ];
}

/**
 * Where Deno keeps its module cache. From source the agent is `deno run … main.ts reference-agent`; in a
 * sandbox, whose HOME and XDG_CACHE_HOME are fresh, Deno would compile it again on every run.
 */
function denoDir(): Record<string, string> {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return { DENO_DIR: explicit };
  const home = Deno.env.get("HOME");
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? (home ? `${home}/.cache` : undefined);
  return cache === undefined ? {} : { DENO_DIR: `${cache}/deno` };
}

function runnerOf(variant: AgentVariant | null): HostRunner {
  const flaw = variant?.kind === "host-file" ? variant.name as HostFileFlaw : null;
  const name = variant ? `reference-agent:${variant.name}` : "reference-agent";
  const path = (golden: GoldenPath) => (request: InvocationRequest): ArgvPlan => ({
    args: argv(golden, request, flaw),
  });
  return cliRunner({
    name,
    binary: "conformance",
    dialect: "claude",
    capabilities: flaw === "disclaims-what-it-passes" ? NO_CAPABILITIES : ALL,
    streamShape: { init: "required", terminal: "event" },
    capabilityMarkers: flaw === "unmarked-claims"
      ? {
        streaming: ["--stream-events"],
        permissionSkip: ["--skip-permission-prompts"],
        workspaceSandboxed: ["--root"],
      }
      : flaw === "disclaims-what-it-passes"
      ? {}
      : { streaming: ["stream-json"], permissionSkip: [BYPASS], workspaceSandboxed: ["--root"] },
    mockModelOnly: true,
    detect: () => Promise.resolve(selfCommand("reference-agent").binary),
    command: () => selfCommand("reference-agent"),
    env: { ...denoDir(), ...(variant?.kind === "program" ? { [FLAW_ENV]: variant.name } : {}) },
    envAllow: [],
    missingPath: (golden) =>
      `The reference agent has no golden path "${golden}": use streaming, blocking-json, resume, detached or version-check`,
    paths: {
      "streaming": path("streaming"),
      "blocking-json": path("blocking-json"),
      "resume": path("resume"),
      "detached": path("detached"),
      "version-check": () => ({
        args: flaw === "empty-argument" ? ["--version", "--model", ""] : ["--version"],
      }),
    },
    toolBehavior: {
      tools: {
        read: { name: "Read", args: ({ path }) => ({ path }) },
        write: { name: "Write", args: ({ path, content }) => ({ path, content }) },
        shell: { name: "Bash", args: ({ command }) => ({ command }) },
      },
      permissionSkipArgs: [BYPASS],
      agentFiles: (agent, instructions) => ({ [`.reference-agent/agents/${agent}.md`]: instructions }),
      structuredOutput: { tool: "StructuredOutput", read: structuredOutputField },
    },
    mockModel: ({ url }) => ({
      env: {},
      files: {
        ".reference-agent/config.json": JSON.stringify({
          baseUrl: url,
          apiKey: "sk-reference-agent-mock",
          model: "reference-model",
          retryDelayMs: 200,
        }),
      },
    }),
  });
}

function entryOf(variant: AgentVariant | null): CliHostEntry {
  const runner = runnerOf(variant);
  return {
    id: runner.name,
    kind: "cli",
    summary: variant
      ? `Reference agent, broken: ${variant.summary}`
      : "built-in reference agent CLI (claude stream-json) against the mock model: passes every CLI tier",
    testOnly: true,
    ...(variant ? { variantOf: "reference-agent" } : {}),
    capabilities: CAPABILITY_FLAGS.filter((flag) => runner.capabilities[flag]),
    runner,
  };
}

/** Registry entry of `reference-agent`. */
export const REFERENCE_AGENT_HOST: CliHostEntry = entryOf(null);

/** Registry entries of the broken variants, `reference-agent:<name>`, in table order. */
export const REFERENCE_AGENT_VARIANT_HOSTS: readonly CliHostEntry[] = AGENT_VARIANTS.map(entryOf);
