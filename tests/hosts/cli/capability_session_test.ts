/**
 * The capability-behaviour session's combined runs (suite/cli/capability_session.ts) on a stand-in CLI: a small
 * agent, a real program run as a host is, that talks to the scripted mock model over loopback (OpenAI chat),
 * runs its Read, Write and Bash tools, keeps its session in its HOME (`--continue`), reads an agent file
 * (`--agent`), offers only the tools of `--tools` and refuses Bash without `--yolo`. Each fault it can be told to have (`STANDIN_FAULT`) is one a
 * real CLI could have, and each test proves what the session then judges, and on which run:
 *
 * - with none, the resume that selects the agent judges `agentSelect-positive`, and the fresh run without the
 *   bypass is both `permissionSkip-negative` and the controls of `resume` and `structuredOutput`: three runs;
 *   where it claims an allow-list, the resume allowing only Read judges `toolAllowlist-positive` instead (and
 *   never with the agent, which then rides on the fresh run);
 * - when the resume drops the allow-list, the refusal does not pass there and the allow-list runs on its own;
 * - when the host sends the refusal back to the model and then exits non-zero, `permissionSkip-negative` still
 *   passes (a refusal may end the host), and the controls get a clean fresh run of their own;
 * - when the host cannot resume with an agent, `resume` gets a resume of its own and `agentSelect` its own run;
 * - when the host sends the agent's file unselected, the control fails and the selected agent is judged on its
 *   own run, never on the resume;
 * - where its resume drops the agent, the fresh run without the bypass selects it; a refusal there may be the
 *   agent's, so the bypass taken out gets its own run, while a Bash that ran anyway is judged there;
 * - where it claims only a schema, the resume given the schema judges `structuredOutput-positive`; when the
 *   resume drops the schema, that check runs on its own;
 * - when Bash runs without the bypass, `permissionSkip-negative` fails on the combined run.
 */
import assert from "node:assert/strict";
import type { Outcome } from "../../../src/outcome.ts";
import { capabilityBehaviorTier } from "../../../suite/cli/capability_behavior.ts";
import { type Claims, standIn } from "./_standin_agent.ts";
import { headlessSettings } from "../../_settings.ts";

const CASES = [
  "permissionSkip-negative",
  "toolAllowlist-positive",
  "resume-positive",
  "resume-negative",
  "structuredOutput-negative",
  "structuredOutput-positive",
  "agentSelect-positive",
  "agentSelect-negative",
] as const;
type Case = typeof CASES[number];

/** The session's cases on the stand-in with `fault`, all at once as a run starts them. */
async function session(fault: string, claims: Claims = "agent"): Promise<Record<Case, Outcome>> {
  const { entry } = standIn(fault, claims);
  const settings = headlessSettings({ mockModel: true, timeoutMultiplier: 2 });
  const tests = capabilityBehaviorTier.list(entry, settings);
  const claimed: Record<string, boolean> = {
    "agentSelect-positive": claims === "agent" || claims === "both" || claims === "agent-fresh",
    "toolAllowlist-positive": claims === "allow-list" || claims === "both",
    "structuredOutput-positive": claims === "schema",
  };
  const listed = CASES.filter((name) => claimed[name] ?? true);
  const outcomes = await Promise.all(listed.map((name) => {
    const test = tests.find((candidate) => candidate.id === `cli/capability-behavior/${name}`);
    assert.ok(test, `the tier lists ${name}`);
    return capabilityBehaviorTier.run(entry, test, settings, settings.signal);
  }));
  return Object.fromEntries(listed.map((name, at) => [name, outcomes[at]])) as Record<Case, Outcome>;
}

/** The session's model turns, as the session's checks report them. */
function turns(outcome: Outcome): string[] {
  return (outcome.details as { mockTurns?: string[] } | undefined)?.mockTurns ?? [];
}

function statuses(outcomes: Record<Case, Outcome>): Record<string, string> {
  return Object.fromEntries(Object.entries(outcomes).map(([name, outcome]) => [name, outcome.status]));
}

const ALL_PASS = Object.fromEntries(
  CASES.filter((name) => name !== "toolAllowlist-positive" && name !== "structuredOutput-positive").map((
    name,
  ) => [name, "PASS"]),
);
// The first run's three tool calls and final answer, the resume's answer, the fresh run's two calls (the
// probe's read, its control, then Bash) and answer.
const THREE_RUNS = [
  "tool-call",
  "tool-call",
  "tool-call",
  "final",
  "final",
  "tool-call",
  "tool-call",
  "final",
];
/** A resume that asks for the probe's read and Bash, and answers. */
const RESUME_WITH_CALLS = ["tool-call", "tool-call", "final"];

Deno.test("a clean host: three runs; the resume judges the agent, the fresh run the refusal and the controls", async () => {
  const outcomes = await session("none");
  assert.deepEqual(statuses(outcomes), ALL_PASS, JSON.stringify(outcomes, null, 1));
  assert.deepEqual(turns(outcomes["resume-positive"]), THREE_RUNS);
  const agent = outcomes["agentSelect-positive"].details as { run?: string; args?: string[] };
  assert.equal(agent.run, "the session's resume, with the agent selected");
  assert.ok(agent.args?.includes("--continue") && agent.args.includes("--agent"));
  const refusal = outcomes["permissionSkip-negative"].details as {
    args: string[];
    refusedCall: { landed: boolean };
    observed: { refusal: { via: string }; control: string };
  };
  assert.ok(!refusal.args.includes("--yolo") && refusal.args.includes("json"), "no bypass, document path");
  assert.equal(refusal.refusedCall.landed, false);
  assert.equal(refusal.observed.refusal.via, "a tool result sent back to the model");
  assert.match(refusal.observed.control, /^the read of the probe file/);
});

Deno.test("a host with an allow-list and no agent files: the resume allowing only Read judges the allow-list", async () => {
  const outcomes = await session("none", "allow-list");
  assert.equal(outcomes["agentSelect-negative"].status, "SKIP");
  for (const name of CASES.filter((name) => !name.startsWith("agentSelect") && name in outcomes)) {
    assert.equal(outcomes[name].status, "PASS", `${name}: ${outcomes[name].message}`);
  }
  const allowList = outcomes["toolAllowlist-positive"].details as { run?: string; args: string[] };
  assert.equal(allowList.run, "the session's resume, allowing only the read tool");
  assert.ok(allowList.args.includes("--continue") && allowList.args.includes("--tools"));
  assert.deepEqual(turns(outcomes["resume-positive"]), THREE_RUNS.toSpliced(4, 1, ...RESUME_WITH_CALLS));
});

Deno.test("a host with both: the resume carries the allow-list, never with the agent, which rides on the fresh run", async () => {
  const outcomes = await session("none", "both");
  for (const [name, outcome] of Object.entries(outcomes)) {
    assert.equal(outcome.status, "PASS", `${name}: ${outcome.message}`);
  }
  const allowList = outcomes["toolAllowlist-positive"].details as { run?: string; args: string[] };
  assert.equal(allowList.run, "the session's resume, allowing only the read tool");
  assert.ok(!allowList.args.includes("--agent"));
  assert.equal(
    (outcomes["agentSelect-positive"].details as { run?: string }).run,
    "the session's fresh run without the bypass, with the agent selected",
  );
});

Deno.test("an allow-list the resume drops: the refusal does not pass there, so it runs on its own", async () => {
  const outcomes = await session("allowlist-ignored-on-resume", "allow-list");
  assert.equal(outcomes["toolAllowlist-positive"].status, "PASS");
  const allowList = outcomes["toolAllowlist-positive"].details as { run?: string; args: string[] };
  assert.equal(allowList.run, undefined);
  assert.ok(!allowList.args.includes("--continue"));
  assert.equal(outcomes["resume-positive"].status, "PASS");
});

Deno.test("a host with a schema and neither an agent nor an allow-list: the resume given the schema judges it", async () => {
  const outcomes = await session("none", "schema");
  for (const [name, outcome] of Object.entries(outcomes)) {
    assert.equal(
      outcome.status,
      name === "agentSelect-negative" ? "SKIP" : "PASS",
      `${name}: ${outcome.message}`,
    );
  }
  const structured = outcomes["structuredOutput-positive"].details as { run?: string; args: string[] };
  assert.equal(structured.run, "the session's resume, given the schema");
  assert.ok(structured.args.includes("--continue") && structured.args.includes("--json-schema"));
  // The resume's model calls the structured-output tool, then answers.
  assert.deepEqual(turns(outcomes["resume-positive"]), THREE_RUNS.toSpliced(4, 1, "tool-call", "final"));
});

Deno.test("a schema the resume drops: structured output does not pass there, so it runs on its own", async () => {
  const outcomes = await session("schema-ignored-on-resume", "schema");
  assert.equal(outcomes["structuredOutput-positive"].status, "PASS");
  const structured = outcomes["structuredOutput-positive"].details as { run?: string; path: string };
  assert.equal(structured.run, undefined);
  assert.equal(structured.path, "blocking-json");
  assert.equal(outcomes["resume-positive"].status, "PASS");
  assert.equal(outcomes["structuredOutput-negative"].status, "PASS");
});

Deno.test("an agent the resume cannot carry rides on the fresh run; refused there, the bypass gets its own run", async () => {
  const outcomes = await session("none", "agent-fresh");
  assert.deepEqual(statuses(outcomes), ALL_PASS, JSON.stringify(outcomes, null, 1));
  const agent = outcomes["agentSelect-positive"].details as { run?: string; args: string[] };
  assert.equal(agent.run, "the session's fresh run without the bypass, with the agent selected");
  assert.ok(agent.args.includes("--agent") && !agent.args.includes("--yolo"));
  const refusal = outcomes["permissionSkip-negative"].details as { args: string[] };
  assert.ok(
    !refusal.args.includes("--agent") && !refusal.args.includes("--yolo"),
    "judged without the agent",
  );
  // The fresh run with the agent, then the bypass's own: each asks for the probe's read and Bash, and answers.
  assert.deepEqual(turns(outcomes["resume-positive"]), [...THREE_RUNS, "tool-call", "tool-call", "final"]);
});

Deno.test("Bash run without the bypass with the agent selected: that fresh run is the refusal's FAIL", async () => {
  const outcomes = await session("no-permissions", "agent-fresh");
  assert.equal(outcomes["permissionSkip-negative"].status, "FAIL");
  const refusal = outcomes["permissionSkip-negative"].details as { args: string[] };
  assert.ok(refusal.args.includes("--agent"), "judged on the run that selected the agent");
  assert.equal(outcomes["agentSelect-positive"].status, "PASS");
  assert.deepEqual(turns(outcomes["resume-positive"]), THREE_RUNS);
});

Deno.test("a refusal sent back before the host exits non-zero passes; the controls judge a clean fresh run", async () => {
  const outcomes = await session("refusal-exits");
  assert.deepEqual(statuses(outcomes), ALL_PASS, JSON.stringify(outcomes, null, 1));
  assert.equal((outcomes["permissionSkip-negative"].details as { exitCode: number }).exitCode, 2);
  // The fresh run exited after sending the refusal back; the clean one after it is text only.
  assert.deepEqual(turns(outcomes["resume-negative"]), [...THREE_RUNS, "final"]);
  assert.equal((outcomes["resume-negative"].details as { exitCode: number }).exitCode, 0);
  assert.equal((outcomes["structuredOutput-negative"].details as { exitCode: number }).exitCode, 0);
});

Deno.test("a host that cannot resume with an agent: resume gets its own resume, the agent its own run", async () => {
  const outcomes = await session("agent-breaks-resume");
  assert.deepEqual(statuses(outcomes), ALL_PASS, JSON.stringify(outcomes, null, 1));
  // The resume with the agent exited before asking the model; the clean resume answered.
  assert.deepEqual(turns(outcomes["resume-positive"]), THREE_RUNS);
  assert.equal((outcomes["resume-positive"].details as { exitCode: number }).exitCode, 0);
  const agent = outcomes["agentSelect-positive"].details as { run?: string; args?: string[] };
  assert.equal(agent.run, undefined, "judged on its own run");
  // Its own run, against a model of its own: one text answer.
  assert.deepEqual(turns(outcomes["agentSelect-positive"]), ["final"]);
});

Deno.test("an agent sent unselected fails the control, and the selected agent is judged on its own run", async () => {
  const outcomes = await session("agent-always");
  assert.equal(outcomes["agentSelect-negative"].status, "FAIL");
  assert.match(outcomes["agentSelect-negative"].message ?? "", /although no agent was selected/);
  assert.equal(outcomes["agentSelect-positive"].status, "PASS");
  assert.equal((outcomes["agentSelect-positive"].details as { run?: string }).run, undefined);
});

Deno.test("Bash run without the bypass fails permissionSkip-negative on the fresh run", async () => {
  const outcomes = await session("no-permissions");
  assert.equal(outcomes["permissionSkip-negative"].status, "FAIL");
  assert.match(
    outcomes["permissionSkip-negative"].message ?? "",
    /without the permission bypass ran although it should have been refused: \$HOME\/work\/conformance-marker-unbypassed\.txt exists/,
  );
  for (const name of ["resume-positive", "resume-negative", "structuredOutput-negative"] as const) {
    assert.equal(outcomes[name].status, "PASS", name);
  }
});
