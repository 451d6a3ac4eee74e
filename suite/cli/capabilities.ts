/**
 * `cli/capabilities/<flag>-<positive|negative>`: every capability flag is an argv fact, checked against the
 * runner's own invocation. A claimed flag (`-positive`) must show its marker; a disclaimed flag (`-negative`,
 * always checked) must not, so a runner can neither claim what it does not pass nor pass what it disclaims.
 *
 * Markers: for agent, tools and structured output, the requested value itself (a probe agent name, tool name
 * or schema) must reach argv, or must not; for streaming, permission skip and workspace sandboxing, the
 * runner's declared `capabilityMarkers` (argv elements, or `NAME=value` environment entries), and for the
 * negative direction the markers any registered runner declares for that flag. No process is started.
 *
 * @module
 */
import { HOSTS } from "../../hosts/registry.ts";
import {
  CAPABILITY_FLAGS,
  type GoldenPath,
  type HostCapabilities,
  type HostInvocation,
  type HostRunner,
  type InvocationRequest,
} from "../../src/exec/host_runner.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { fail, type Outcome } from "../../src/outcome.ts";
import { passed } from "./evidence.ts";
import type { TestCase } from "../../src/suite.ts";
import type { CliTier } from "./tier.ts";
import { capabilityTitle } from "./titles.ts";

type Flag = keyof HostCapabilities;

const PREFIX = "cli/capabilities/";
const PROMPT = "Reply with exactly: OK";
const AGENT = "conformance-agent-probe";
const TOOL = "conformance_tool_probe";
const SCHEMA = '{"type":"object","title":"conformance-schema-probe"}';
const WORKSPACE = "/tmp/conformance-workspace-probe";

/** The path and request each flag is checked with, and the probe value that must (or must not) reach argv. */
function probeFor(
  runner: HostRunner,
  flag: Flag,
): { path: GoldenPath; request: InvocationRequest; probe?: string } {
  switch (flag) {
    case "agentSelect":
      return { path: "streaming", request: { prompt: PROMPT, agent: AGENT }, probe: AGENT };
    case "toolAllowlist":
      return { path: "streaming", request: { prompt: PROMPT, tools: [TOOL] }, probe: TOOL };
    case "structuredOutput":
      return {
        path: runner.goldenPaths.includes("blocking-json") ? "blocking-json" : "streaming",
        request: { prompt: PROMPT, jsonSchema: SCHEMA },
        probe: SCHEMA,
      };
    case "workspaceSandboxed":
      return { path: "streaming", request: { prompt: PROMPT, workspaceRoot: WORKSPACE } };
    default:
      return { path: "streaming", request: { prompt: PROMPT } };
  }
}

/** Every marker any registered runner (not a broken variant, whose markers may be wrong) declares for a flag. */
function knownMarkers(flag: Flag): string[] {
  return [
    ...new Set(
      HOSTS.flatMap((entry) =>
        entry.kind === "cli" && !entry.variantOf ? [...(entry.runner.capabilityMarkers?.[flag] ?? [])] : []
      ),
    ),
  ];
}

/** Whether a marker shows in the invocation: an argv element equal to it, or an env entry `NAME=value`. */
function shows(invocation: HostInvocation, marker: string): boolean {
  if (invocation.args.includes(marker)) return true;
  return Object.entries(invocation.env).some(([name, value]) => `${name}=${value}` === marker);
}

/** Whether a probe value reached argv (inside any argument) or the environment. */
function reaches(invocation: HostInvocation, probe: string): boolean {
  return invocation.args.some((arg) => arg.includes(probe)) ||
    Object.values(invocation.env).some((value) => value.includes(probe));
}

/** The test id of a flag for a runner: the direction its claim puts it in. */
function testId(runner: HostRunner, flag: Flag): string {
  return `${PREFIX}${flag}-${runner.capabilities[flag] ? "positive" : "negative"}`;
}

/** The capabilities tier. */
export const capabilitiesTier: CliTier = {
  name: "capabilities",
  timeoutMs: 15_000,
  list(entry: CliHostEntry): TestCase[] {
    return CAPABILITY_FLAGS.map((flag) => ({
      id: testId(entry.runner, flag),
      title: capabilityTitle(flag, entry.runner.capabilities[flag]),
    }));
  },
  run(entry, test): Promise<Outcome> {
    return Promise.resolve(check(entry.runner, test.id));
  },
};

function check(runner: HostRunner, id: string): Outcome {
  const match = /^cli\/capabilities\/(\w+)-(positive|negative)$/.exec(id);
  const flag = match?.[1] as Flag | undefined;
  if (!flag || !CAPABILITY_FLAGS.includes(flag)) return fail(`unknown capability test "${id}"`);
  const claimed = runner.capabilities[flag];
  if ((match?.[2] === "positive") !== claimed) {
    return fail(
      `the runner ${claimed ? "claims" : "disclaims"} ${flag}, but the test checks the other direction`,
    );
  }
  const { path, request, probe } = probeFor(runner, flag);
  if (!runner.goldenPaths.includes(path)) {
    return claimed
      ? fail(`not testable: ${flag} is claimed but the "${path}" golden path it needs is unsupported`)
      : passed({ goldenPaths: [...runner.goldenPaths] }, {
        path,
        note: `no "${path}" path, so nothing can carry ${flag}`,
      });
  }
  let invocation: HostInvocation;
  try {
    invocation = runner.build(path, request);
  } catch (error) {
    return fail(`building the "${path}" invocation threw: ${error instanceof Error ? error.message : error}`);
  }
  const details = { path, args: [...invocation.args] };
  if (probe !== undefined) {
    const reached = reaches(invocation, probe);
    if (claimed && !reached) {
      return fail(`${flag} is claimed but the requested ${JSON.stringify(probe)} is not in argv`, details);
    }
    if (!claimed && reached) {
      return fail(
        `${flag} is disclaimed but the requested ${JSON.stringify(probe)} reaches argv anyway`,
        details,
      );
    }
  }
  const own = [...(runner.capabilityMarkers?.[flag] ?? [])];
  if (claimed) {
    if (probe === undefined && own.length === 0) {
      return fail(
        `${flag} is claimed but the runner declares no marker for it in capabilityMarkers`,
        details,
      );
    }
    const missing = own.filter((marker) => !shows(invocation, marker));
    if (missing.length > 0) {
      return fail(`${flag} is claimed but its marker(s) ${JSON.stringify(missing)} are absent`, details);
    }
    return passed({ ...(probe === undefined ? {} : { probeInArgv: probe }), markersShown: own }, details);
  }
  const known = knownMarkers(flag);
  const present = known.filter((marker) => shows(invocation, marker));
  if (present.length > 0) {
    return fail(`${flag} is disclaimed but marker(s) ${JSON.stringify(present)} are present`, details);
  }
  return passed({
    ...(probe === undefined ? {} : { probeNotInArgv: probe }),
    markersAbsent: known,
    argc: invocation.args.length,
  }, details);
}
