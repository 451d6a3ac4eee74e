/**
 * The broken variants of the reference agent (hosts/cli/reference_agent.ts): each breaks exactly one
 * behaviour, so the CLI suite must fail exactly the tests that check it (mutation testing of the suite, as
 * hosts/web/reference/variants.ts is for the MCP Apps suite). A `program` variant runs the reference agent with
 * that flaw switched on (reference_agent/flaws.ts), with the reference's very argv; a `host-file` variant is a
 * host file that builds or declares something wrong. The gate (tests/hosts/cli/reference_agent_variants_test.ts)
 * holds each to its `fails`: those tests end with exactly those statuses, every other test PASSes.
 *
 * @module
 */
import type { Status } from "../../src/outcome.ts";

/** One broken behaviour. */
export interface AgentVariant {
  /** The registry id is `reference-agent:<name>`; a `program` variant's name is its flaw's. */
  readonly name: string;
  /** Where the flaw is: the program, or the host file's argv and declarations. */
  readonly kind: "program" | "host-file";
  /** What the variant does wrong, for `conformance list hosts --all`. */
  readonly summary: string;
  /** Every test that must not PASS under it, with the status it must end with. */
  readonly fails: Readonly<Record<string, Status>>;
}

const MOCK = "cli/mock-model/";
const CB = "cli/capability-behavior/";

/** The mock-model tier's three fault tests, each with `status`. */
function faults(status: Status): Record<string, Status> {
  return {
    [`${MOCK}fault-http-500`]: status,
    [`${MOCK}fault-malformed`]: status,
    [`${MOCK}fault-disconnect`]: status,
  };
}

/** Every test of the capability-behaviour tier a run without the model, or a crash at the first tool, fails. */
const SESSION_AND_OWN_RUNS = [
  "agentSelect-negative",
  "agentSelect-positive",
  "permissionSkip-negative",
  "permissionSkip-positive",
  "resume-negative",
  "resume-positive",
  "structuredOutput-negative",
  "structuredOutput-positive",
  "tool-round-trip",
  "toolAllowlist-negative",
  "toolAllowlist-positive",
  "workspaceSandboxed-negative",
  "workspaceSandboxed-positive",
] as const;

/** `names` of the capability-behaviour tier, each FAIL. */
function behavior(...names: readonly string[]): Record<string, Status> {
  return Object.fromEntries(names.map((name) => [`${CB}${name}`, "FAIL"]));
}

/** `names` of the mock-model tier, each FAIL. */
function mockModel(...names: readonly string[]): Record<string, Status> {
  return Object.fromEntries(names.map((name) => [`${MOCK}${name}`, "FAIL"]));
}

/** `names` of `tier`, each FAIL. */
function tier(name: string, ...names: readonly string[]): Record<string, Status> {
  return Object.fromEntries(names.map((test) => [`cli/${name}/${test}`, "FAIL"]));
}

/** The table as written. */
const TABLE = [
  {
    name: "never-calls-model",
    kind: "program",
    summary: "answers OK without ever calling the model",
    fails: {
      ...behavior(...SESSION_AND_OWN_RUNS),
      ...mockModel("streaming", "blocking-json", "resume", "detached"),
      ...faults("FAIL"),
    },
  },
  {
    name: "crashes-on-tool-call",
    kind: "program",
    summary: "throws and exits 1 as soon as the model asks for a tool",
    fails: behavior(...SESSION_AND_OWN_RUNS.filter((name) => name !== "agentSelect-positive")),
  },
  {
    name: "crashes-on-refusal",
    kind: "program",
    summary: "throws and exits 1 instead of refusing a tool call its rules forbid",
    fails: behavior("permissionSkip-negative", "toolAllowlist-positive", "workspaceSandboxed-positive"),
  },
  {
    name: "ignores-allowlist",
    kind: "program",
    summary: "offers and runs every tool whatever --tools says",
    fails: behavior("toolAllowlist-positive"),
  },
  {
    name: "writes-outside-root",
    kind: "program",
    summary: "lets Write write anywhere whatever --root says",
    fails: behavior("workspaceSandboxed-positive"),
  },
  {
    name: "refuses-writes",
    kind: "program",
    summary: "refuses every Write, with or without a root",
    fails: behavior("workspaceSandboxed-negative", "workspaceSandboxed-positive"),
  },
  {
    name: "runs-tools-without-bypass",
    kind: "program",
    summary: "runs Write and Bash without --dangerously-skip-permissions",
    fails: behavior("permissionSkip-negative"),
  },
  {
    name: "forgets-session",
    kind: "program",
    summary: "starts a new session on --continue",
    fails: behavior("resume-positive"),
  },
  {
    name: "resume-without-model",
    kind: "program",
    summary: "answers a --continue from the stored transcript without calling the model",
    fails: { ...behavior("resume-positive"), ...mockModel("resume") },
  },
  {
    name: "resumes-unasked",
    kind: "program",
    summary: "continues the latest session even without --continue",
    fails: behavior("resume-negative"),
  },
  {
    name: "loads-every-agent",
    kind: "program",
    summary: "puts every agent file's instructions in the system prompt when no --agent is given",
    fails: behavior("agentSelect-negative"),
  },
  {
    name: "ignores-schema",
    kind: "program",
    summary: "ignores --json-schema: no StructuredOutput tool, no structured result",
    fails: behavior("structuredOutput-positive"),
  },
  {
    name: "offers-structured-output-unasked",
    kind: "program",
    summary: "offers the StructuredOutput tool with no --json-schema",
    fails: behavior("structuredOutput-negative"),
  },
  {
    name: "error-as-success",
    kind: "program",
    summary: "ends a failed model call with a success result and exit 0",
    fails: faults("FAIL"),
  },
  {
    name: "retries-silently",
    kind: "program",
    summary: "retries a failed model call forever, printing nothing",
    fails: faults("FAIL"),
  },
  {
    name: "retries-visibly-forever",
    kind: "program",
    summary: "retries a failed model call forever, each retry announced (api_retry) past its own limit",
    fails: faults("WARN"),
  },
  {
    name: "exit-zero-after-error",
    kind: "program",
    summary: "ends a failed model call with an error result but exit 0",
    fails: faults("WARN"),
  },
  {
    name: "two-terminals",
    kind: "program",
    summary: "writes a result after every model turn, and its last one twice",
    // On a stream the executor stops at the first result: the turns after it are never read.
    fails: { ...behavior("structuredOutput-positive", "tool-round-trip"), ...mockModel("blocking-json") },
  },
  {
    name: "no-init",
    kind: "program",
    summary: "starts its stream without the init event",
    fails: { ...tier("behavior", "streaming", "resume"), ...mockModel("streaming", "resume") },
  },
  {
    name: "leaves-child",
    kind: "program",
    summary: "leaves a `sleep` running in its process group when it exits",
    fails: {
      ...tier("behavior", "streaming", "blocking-json", "resume"),
      ...behavior(...SESSION_AND_OWN_RUNS),
      ...mockModel("streaming", "blocking-json", "resume", "detached"),
      ...faults("FAIL"),
    },
  },
  {
    name: "mismatched-tool-ids",
    kind: "program",
    summary: "streams each tool result under another id than its tool call's",
    fails: behavior("tool-round-trip"),
  },
  {
    name: "drops-usage",
    kind: "program",
    summary: "reports no token usage in its result",
    fails: { [`${CB}tool-round-trip`]: "WARN" },
  },
  {
    name: "version-on-stderr",
    kind: "program",
    summary: "prints --version on stderr, stdout empty",
    fails: tier("behavior", "version-check"),
  },
  {
    name: "empty-argument",
    kind: "host-file",
    summary: "its host file passes an unset model as an empty --model argument",
    fails: tier("constructability", "streaming", "blocking-json", "resume", "detached", "version-check"),
  },
  {
    name: "drops-requested-options",
    kind: "host-file",
    summary: "its host file claims agent, allow-list, schema and root but never passes them",
    fails: {
      ...tier(
        "capabilities",
        "agentSelect-positive",
        "toolAllowlist-positive",
        "structuredOutput-positive",
        "workspaceSandboxed-positive",
      ),
      ...behavior(
        "agentSelect-positive",
        "toolAllowlist-positive",
        "structuredOutput-positive",
        "workspaceSandboxed-positive",
      ),
    },
  },
  {
    name: "unmarked-claims",
    kind: "host-file",
    summary: "its host file declares streaming and bypass markers its argv does not carry",
    fails: tier("capabilities", "streaming-positive", "permissionSkip-positive"),
  },
  {
    name: "disclaims-what-it-passes",
    kind: "host-file",
    summary: "its host file disclaims every capability yet passes them all",
    fails: tier(
      "capabilities",
      "streaming-negative",
      "permissionSkip-negative",
      "agentSelect-negative",
      "toolAllowlist-negative",
      "structuredOutput-negative",
      "workspaceSandboxed-negative",
    ),
  },
] as const satisfies readonly AgentVariant[];

/** The names of the host-file variants. */
export type HostFileFlaw = Extract<typeof TABLE[number], { kind: "host-file" }>["name"];

/** Every variant, in table order. */
export const AGENT_VARIANTS: readonly AgentVariant[] = TABLE;
