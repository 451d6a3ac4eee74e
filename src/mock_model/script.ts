/**
 * A scripted mock model: `@copilotkit/aimock` on 127.0.0.1 answering one test's script of model turns (a tool
 * call with arguments, then a final answer once the tool's result comes back) on every provider surface aimock
 * serves (Anthropic Messages, OpenAI Chat Completions and Responses, Gemini; streaming and not), with a journal
 * of every request the CLI sent, kept for the test's assertions.
 *
 * The script is one aimock fixture for requests that declare tools: which turn answers is decided by how many
 * tool results the current turn (the messages after the last `user` message, as aimock's `hasToolResult`
 * reads it) already holds: with `n` of them, the script's call `n` if it has one, else the final answer. One
 * call is aimock's leg-1/leg-2 pair (`hasToolResult` false, then true); a list of calls runs them one after
 * another in one host run. A host that answers a call with no tool result (an interrupted tool, say) is asked
 * again, but the script asks for tools at most {@linkcode REASKS} times more than it has calls (counted from
 * the start or the last `rescript`); then it answers finally, so such a host ends instead of looping until its
 * wall clock stops it. Requests that declare no tools (titles, summaries, side calls) get a
 * plain `OK` with zero usage. Each fixture's response factory records the request as aimock parsed it
 * (aimock's own journal keeps only bodies under 64 KiB, and kimi's and omp's system prompts are larger), so
 * the journal holds the whole conversation each request carried. One server serves one test.
 *
 * @module
 */
import { LLMock } from "@copilotkit/aimock";
import { stopperOf } from "./server.ts";

/** A tool call the model makes: the host's tool name and its arguments. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The call id the model gives; default `call_conformance_<n>`. */
  readonly id?: string;
}

/** Token counts the mock reports for one model turn. */
export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
}

/** One test's script. */
export interface ModelScript {
  /** The tool call of the first turn; absent (and no `toolCalls`): the first turn is the final answer. */
  readonly toolCall?: ScriptedToolCall;
  /**
   * Tool calls made one after another, each once the previous one's result is back; the final answer follows
   * the last. Takes the place of `toolCall`. Ids default to `call_conformance_<n>`, counting from 1.
   */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** The final answer's text. Default `DONE`. */
  readonly finalText?: string;
  /** Usage reported with the tool-call turn. Default 101 in, 11 out. */
  readonly toolCallUsage?: ScriptedUsage;
  /** Usage reported with the final answer. Default 203 in, 7 out. */
  readonly finalUsage?: ScriptedUsage;
}

/** How many more times than it has calls a script asks for tools before it answers finally. */
export const REASKS = 3;

/** Which scripted turn answered a request. */
export type ScriptedTurnKind = "tool-call" | "final" | "side";

/** A message of a journalled request, as aimock parsed it (every surface is mapped to chat messages). */
export interface JournalMessage {
  readonly role: string;
  readonly content: string;
  /** Tool-call ids of an assistant message, or the id a `tool` message answers. */
  readonly toolCallIds: readonly string[];
}

/** One request the scripted model served. */
export interface ScriptedRequest {
  /** Which turn answered it. */
  readonly turn: ScriptedTurnKind;
  /** For a `tool-call` turn: which of the script's calls it made, counting from 0. */
  readonly call?: number;
  readonly model: string;
  readonly stream: boolean;
  /** The names of the tools the request declared. */
  readonly tools: readonly string[];
  readonly messages: readonly JournalMessage[];
  /** The usage the mock reported with its answer. */
  readonly usage: ScriptedUsage;
}

/** A running scripted model. Dispose it to close the port. */
export interface ScriptedModel extends AsyncDisposable {
  /** Origin, e.g. `http://127.0.0.1:43123`. */
  readonly url: string;
  readonly port: number;
  /** Every model request served, oldest first, with the conversation it carried. */
  journal(): readonly ScriptedRequest[];
  /** Method, path and status of every HTTP request aimock saw (its own journal). */
  requests(): readonly { method: string; path: string; status: number }[];
  /** Answers the requests from now on by `script` (a later host run on the same model); the journal stays. */
  rescript(script: ModelScript): void;
  stop(): Promise<void>;
}

const DEFAULT_TOOL_USAGE: ScriptedUsage = { input: 101, output: 11 };
const DEFAULT_FINAL_USAGE: ScriptedUsage = { input: 203, output: 7 };
const SIDE_USAGE: ScriptedUsage = { input: 0, output: 0 };

interface ParsedRequest {
  model?: unknown;
  stream?: unknown;
  tools?: { function?: { name?: unknown } }[];
  messages?: {
    role?: unknown;
    content?: unknown;
    tool_call_id?: unknown;
    tool_calls?: { id?: unknown }[];
  }[];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) =>
      typeof part === "string" ? part : typeof part?.text === "string" ? part.text : JSON.stringify(part)
    ).join("\n");
  }
  return content === null || content === undefined ? "" : JSON.stringify(content);
}

function journalEntry(
  request: ParsedRequest,
  turn: ScriptedTurnKind,
  usage: ScriptedUsage,
  call?: number,
): ScriptedRequest {
  return Object.freeze({
    turn,
    ...(call === undefined ? {} : { call }),
    model: typeof request.model === "string" ? request.model : "",
    stream: request.stream === true,
    tools: Object.freeze(
      (request.tools ?? []).flatMap((tool) =>
        typeof tool.function?.name === "string" ? [tool.function.name] : []
      ),
    ),
    messages: Object.freeze((request.messages ?? []).map((message) =>
      Object.freeze({
        role: typeof message.role === "string" ? message.role : "",
        content: textOf(message.content),
        toolCallIds: Object.freeze(
          typeof message.tool_call_id === "string"
            ? [message.tool_call_id]
            : (message.tool_calls ?? []).flatMap((call) => typeof call.id === "string" ? [call.id] : []),
        ),
      })
    )),
    usage,
  });
}

/** Usage in the field names every aimock surface falls back to (chat names; the others map them). */
function usageOverride(usage: ScriptedUsage) {
  return { usage: { prompt_tokens: usage.input, completion_tokens: usage.output } };
}

/**
 * Starts a scripted model on 127.0.0.1.
 *
 * @example
 * ```ts
 * await using model = await startScriptedModel({
 *   toolCall: { name: "read", arguments: { path: "notes.txt" } },
 *   finalText: "DONE",
 * });
 * const res = await fetch(`${model.url}/v1/chat/completions`, {
 *   method: "POST",
 *   body: JSON.stringify({
 *     model: "m",
 *     messages: [{ role: "user", content: "read notes.txt" }],
 *     tools: [{ type: "function", function: { name: "read", parameters: {} } }],
 *   }),
 * });
 * console.log((await res.json()).choices[0].message.tool_calls[0].function.name); // "read"
 * ```
 */
export async function startScriptedModel(script: ModelScript): Promise<ScriptedModel> {
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent", journalMaxEntries: 0 });
  const journal: ScriptedRequest[] = [];
  let current = script;
  // Tool-call answers since the start or the last rescript.
  let asked = 0;
  const declaresTools = (request: ParsedRequest) => (request.tools ?? []).length > 0;
  mock.on({ predicate: (request) => declaresTools(request as ParsedRequest) }, (raw) => {
    const request = raw as ParsedRequest;
    const calls = current.toolCalls ?? (current.toolCall ? [current.toolCall] : []);
    const step = toolResultsInTurn(request);
    const call = asked < calls.length + REASKS ? calls[step] : undefined;
    if (call) {
      asked++;
      const usage = current.toolCallUsage ?? DEFAULT_TOOL_USAGE;
      journal.push(journalEntry(request, "tool-call", usage, step));
      return {
        toolCalls: [{
          name: call.name,
          arguments: JSON.stringify(call.arguments),
          id: call.id ?? `call_conformance_${step + 1}`,
        }],
        ...usageOverride(usage),
      };
    }
    const usage = current.finalUsage ?? DEFAULT_FINAL_USAGE;
    journal.push(journalEntry(request, "final", usage));
    return { content: current.finalText ?? "DONE", ...usageOverride(usage) };
  });
  mock.on({ predicate: () => true }, (request) => {
    journal.push(journalEntry(request as ParsedRequest, "side", SIDE_USAGE));
    return { content: "OK", ...usageOverride(SIDE_USAGE) };
  });
  await mock.start();
  const url = new URL(mock.url);
  const stop = stopperOf(mock);
  return {
    url: `${url.protocol}//${url.host}`,
    port: Number(url.port),
    journal: () => Object.freeze([...journal]),
    requests: () =>
      mock.getRequests().map((entry) => ({
        method: entry.method,
        path: entry.path,
        status: entry.response.status,
      })),
    rescript: (next) => void (current = next, asked = 0),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** How many tool results the current turn holds: the `tool` messages after the last `user` message. */
function toolResultsInTurn(request: ParsedRequest): number {
  const messages = request.messages ?? [];
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  return messages.slice(lastUser + 1).filter((message) => message.role === "tool").length;
}

/** The sum of the usage the mock reported over the non-side turns of a journal. */
export function reportedUsage(journal: readonly ScriptedRequest[]): ScriptedUsage {
  return journal.reduce(
    (sum, request) => ({ input: sum.input + request.usage.input, output: sum.output + request.usage.output }),
    { input: 0, output: 0 },
  );
}
