/**
 * The reference agent, run as `conformance reference-agent [ARGS…]`: a small agent CLI that keeps every
 * contract the CLI suite checks, the counterpart of the reference MCP Apps host. It asks a model over OpenAI
 * Chat Completions (the base URL from `$HOME/.reference-agent/config.json`, session.ts), runs the model's tool
 * calls under the run's rules (tools.ts) until the model answers, and prints the claude dialect (output.ts).
 * A failed model call is retried twice, visibly (`api_retry`), then the run ends with an error result and
 * exit 1. Startup stays cheap: this module imports nothing outside reference_agent/.
 *
 * Its broken variants (hosts/cli/reference_agent_variants.ts) run this very program with one flaw switched on
 * through the environment (flaws.ts).
 *
 * @module
 */
import { type AgentArgs, parseAgentArgs, UsageError } from "./args.ts";
import { type Flaw, FLAW_ENV, flawOf } from "./flaws.ts";
import { callModel, type ChatMessage, ModelError, type ModelTurn, type ToolSpec } from "./model.ts";
import { type RunUsage, Transcript, VERSION, writeLine } from "./output.ts";
import { agentInstructions, everyAgent, latestSession, readConfig, saveSession } from "./session.ts";
import { offeredTools, runTool, type ToolPolicy } from "./tools.ts";

/** Model turns a run may take before it ends as `max_turns`. */
const MAX_TURNS = 16;

/** The longest wait between two attempts of a flawed agent that retries forever. */
const FOREVER_DELAY_CAP_MS = 1_000;

const SYSTEM =
  "You are the reference agent of the conformance harness. Use the tools to do what the user asks.";

/** Runs the agent and resolves to its exit code: 0 done, 1 failed, 2 a usage mistake. */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: AgentArgs;
  let flaw: Flaw | null;
  try {
    parsed = parseAgentArgs(args);
    flaw = flawOf(Deno.env.get(FLAW_ENV));
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof TypeError)) throw error;
    writeLine(Deno.stderr, `reference-agent: ${error.message}`);
    return 2;
  }
  if (parsed.version) {
    writeLine(flaw === "version-on-stderr" ? Deno.stderr : Deno.stdout, `reference-agent ${VERSION}`);
    return 0;
  }
  const cwd = Deno.cwd();
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(parsed, flaw, cwd);
  } catch (error) {
    writeLine(Deno.stderr, `reference-agent: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  return await run(parsed, flaw, cwd, prepared);
}

/** What a run needs before its first model call: config, rules, the session to continue, the system prompt. */
async function prepare(parsed: AgentArgs, flaw: Flaw | null, cwd: string) {
  const config = await readConfig();
  let root: string | null = null;
  if (parsed.root !== null) {
    try {
      root = await Deno.realPath(parsed.root);
    } catch {
      throw new Error(`the workspace root "${parsed.root}" does not exist`);
    }
  }
  const policy: ToolPolicy = {
    bypass: parsed.bypass,
    allowed: parsed.tools,
    root,
    schema: parsed.schema,
    cwd,
    flaw,
  };
  const continued = (parsed.resume && flaw !== "forgets-session") || flaw === "resumes-unasked";
  const session = continued ? await latestSession(cwd) : null;
  const agent = parsed.agent !== null
    ? await agentInstructions(cwd, parsed.agent)
    : flaw === "loads-every-agent"
    ? await everyAgent(cwd)
    : "";
  const system = agent === "" ? SYSTEM : `${SYSTEM}\n\n${agent}`;
  return { config, policy, session, system, model: parsed.model ?? config.model };
}

async function run(
  parsed: AgentArgs,
  flaw: Flaw | null,
  cwd: string,
  prepared: Awaited<ReturnType<typeof prepare>>,
): Promise<number> {
  const { policy, session, system } = prepared;
  const sessionId = session?.id ?? crypto.randomUUID();
  const transcript = new Transcript(parsed.outputFormat, sessionId);
  const tools = offeredTools(policy);
  if (flaw !== "no-init") transcript.init(prepared.model, cwd, tools.map((tool) => tool.name));
  if (flaw === "leaves-child") {
    // A helper started in the agent's own process group and never waited for: it outlives the agent.
    new Deno.Command("sh", { args: ["-c", "sleep 300"], stdin: "null", stdout: "null", stderr: "null" })
      .spawn().unref();
  }
  const history: ChatMessage[] = [...session?.messages ?? [], { role: "user", content: parsed.prompt }];
  const usage: RunUsage = { input: 0, output: 0 };
  const finish = (ok: boolean, text: string, extra: { error?: string; structured?: unknown } = {}) => {
    const result = { ok, text, usage: flaw === "drops-usage" ? null : usage, ...extra };
    transcript.result(result);
    if (flaw === "two-terminals") transcript.result(result);
  };
  if (flaw === "never-calls-model" || (flaw === "resume-without-model" && session !== null)) {
    // Answers from nothing (or from the transcript it resumed) instead of asking the model.
    const text = session?.messages.findLast((message) => message.role === "assistant")?.content ?? "OK";
    transcript.text(text);
    finish(true, text);
    return 0;
  }
  let structured: unknown;
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const answer = await ask(
      prepared,
      [{ role: "system", content: system }, ...history],
      tools,
      transcript,
      flaw,
    );
    if (answer instanceof ModelError) {
      if (flaw === "error-as-success") {
        finish(true, "");
        return 0;
      }
      finish(false, "", { error: answer.message });
      return flaw === "exit-zero-after-error" ? 0 : 1;
    }
    usage.input += answer.usage.input;
    usage.output += answer.usage.output;
    if (answer.text !== "") transcript.text(answer.text);
    history.push({
      role: "assistant",
      content: answer.text === "" ? null : answer.text,
      ...(answer.toolCalls.length > 0 ? { tool_calls: answer.toolCalls } : {}),
    });
    if (answer.toolCalls.length === 0) {
      const schema = flaw === "ignores-schema" ? null : policy.schema;
      if (schema && structured === undefined) {
        finish(false, answer.text, { error: "the model gave no structured output for the --json-schema" });
        return 1;
      }
      await saveSession(cwd, { id: sessionId, messages: history });
      finish(true, answer.text, structured === undefined ? {} : { structured });
      return 0;
    }
    if (flaw === "crashes-on-tool-call") {
      throw new Error(`crashed on the tool call ${answer.toolCalls[0]!.id}`);
    }
    structured = await runCalls(answer, policy, transcript, history, flaw) ?? structured;
    if (flaw === "two-terminals") transcript.result({ ok: true, text: "", usage });
  }
  transcript.result({ ok: false, text: "", error: `max turns (${MAX_TURNS}) reached`, usage });
  return 1;
}

/** Runs one turn's tool calls, streams them and their results, and adds the results to the history. */
async function runCalls(
  answer: ModelTurn,
  policy: ToolPolicy,
  transcript: Transcript,
  history: ChatMessage[],
  flaw: Flaw | null,
): Promise<unknown> {
  transcript.toolUse(answer.toolCalls.map((call) => ({
    id: call.id,
    name: call.function.name,
    input: parsedInput(call.function.arguments),
  })));
  let structured: unknown;
  for (const call of answer.toolCalls) {
    const outcome = await runTool(call, policy);
    if (outcome.denied && flaw === "crashes-on-refusal") {
      throw new Error(`crashed refusing ${call.function.name}`);
    }
    if (outcome.denied) transcript.denied(call.id, call.function.name, outcome.content);
    transcript.toolResult(
      flaw === "mismatched-tool-ids" ? `${call.id}-result` : call.id,
      outcome.content,
      outcome.isError,
    );
    history.push({ role: "tool", tool_call_id: call.id, content: outcome.content });
    if (outcome.structured !== undefined) structured = outcome.structured;
  }
  return structured;
}

/**
 * One model turn, tried again after a retryable failure (twice, each announced by an `api_retry` event after
 * a doubling delay), or the failure that ended it. The flawed agents retry every failure forever.
 */
async function ask(
  prepared: Awaited<ReturnType<typeof prepare>>,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  transcript: Transcript,
  flaw: Flaw | null,
): Promise<ModelTurn | ModelError> {
  const { config } = prepared;
  const forever = flaw === "retries-silently" || flaw === "retries-visibly-forever";
  for (let attempt = 1;; attempt++) {
    try {
      return await callModel({ ...config, model: prepared.model }, messages, tools);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      if (!forever && (!error.retryable || attempt > config.maxRetries)) return error;
      const delay = Math.min(
        config.retryDelayMs * 2 ** (attempt - 1),
        forever ? FOREVER_DELAY_CAP_MS : Infinity,
      );
      if (flaw !== "retries-silently") transcript.retry(attempt, config.maxRetries, delay, error.message);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function parsedInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
