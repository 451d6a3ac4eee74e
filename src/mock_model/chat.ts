/**
 * The mock model of a chat host that renders MCP Apps (the `mcp-use-chat` host): `@copilotkit/aimock` on
 * 127.0.0.1, answering OpenAI-compatible chat requests as a model that follows the launch prompt would.
 *
 * - A turn whose last user message names a tool that the request declares (the launch prompt, "Call the
 *   run_conformance tool now.") and that holds no tool result yet: a call of that tool with no arguments. A
 *   host may prefix the tools of its servers, so a declared tool whose name ends with the named one counts.
 * - Any other turn (the tool's result is back, or a message the View added): a text answer that repeats every
 *   conformance context code the request carried ("The conformance context code is X."), in the order the
 *   request carried them, or `DONE` when it carried none. Repeating all of them, not only the last, keeps a host
 *   that hands superseded context to the model visible in the conversation.
 *
 * aimock answers CORS itself (`Access-Control-Allow-Origin: *`, 204 on a preflight), so a page can call it
 * directly. A journal keeps what each request asked for and how it was answered.
 *
 * @module
 */
import { LLMock } from "@copilotkit/aimock";
import { stopperOf } from "./server.ts";

/** How one request was answered. */
export interface ChatModelTurn {
  /** `tool-call`: the named tool was called; `text`: a text answer. */
  readonly kind: "tool-call" | "text";
  /** The tool called (as the request declared it), for a `tool-call`. */
  readonly tool?: string;
  /** The text answered, for a `text` turn. */
  readonly text?: string;
  /** The tools the request declared. */
  readonly tools: readonly string[];
}

/** A running chat model. Dispose it (or call `stop`) to close the port. */
export interface ChatModel extends AsyncDisposable {
  /** Origin, e.g. `http://127.0.0.1:43123`. */
  readonly url: string;
  /** The OpenAI-compatible base URL a chat host is given: the origin and `/v1`. */
  readonly baseUrl: string;
  /** Every chat request answered, oldest first. */
  journal(): readonly ChatModelTurn[];
  stop(): Promise<void>;
}

interface ParsedRequest {
  tools?: { function?: { name?: unknown } }[];
  messages?: { role?: unknown; content?: unknown }[];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => typeof part?.text === "string" ? part.text : "").join("\n");
  }
  return "";
}

const CONTEXT_CODE = /The conformance context code is (\S+?)\./g;

/**
 * The text answer to a request's messages: every context code they carry, or `DONE`.
 *
 * @example
 * ```ts
 * import { contextAnswer } from "./chat.ts";
 * contextAnswer([{ role: "system", content: "The conformance context code is c1." }]);
 * // "The context codes I was given: c1."
 * ```
 */
export function contextAnswer(messages: readonly { role?: unknown; content?: unknown }[]): string {
  const codes = messages.flatMap((message) =>
    [...textOf(message.content).matchAll(CONTEXT_CODE)].map((match) => match[1]!)
  );
  return codes.length === 0 ? "DONE" : `The context codes I was given: ${codes.join(", ")}.`;
}

/**
 * The declared tool the turn's last user message asks for, when the turn holds no tool result yet.
 *
 * @example
 * ```ts
 * import { requestedTool } from "./chat.ts";
 * requestedTool({
 *   tools: [{ function: { name: "conformance_run_conformance" } }],
 *   messages: [{ role: "user", content: "Call the run_conformance tool now." }],
 * }); // "conformance_run_conformance"
 * ```
 */
export function requestedTool(request: ParsedRequest): string | null {
  const messages = request.messages ?? [];
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) return null;
  if (messages.slice(lastUser + 1).some((message) => message.role === "tool")) return null;
  const asked = /Call the (\S+) tool/.exec(textOf(messages[lastUser]!.content))?.[1];
  if (asked === undefined) return null;
  const declared = (request.tools ?? []).flatMap((tool) =>
    typeof tool.function?.name === "string" ? [tool.function.name] : []
  );
  return declared.find((name) => name === asked) ??
    declared.find((name) => name.endsWith(`_${asked}`) || name.endsWith(`:${asked}`)) ?? null;
}

/** Starts the chat model on 127.0.0.1 (a free port). */
export async function startChatModel(): Promise<ChatModel> {
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent", journalMaxEntries: 0 });
  const journal: ChatModelTurn[] = [];
  let calls = 0;
  mock.on({ predicate: () => true }, (raw) => {
    const request = raw as ParsedRequest;
    const tools = Object.freeze(
      (request.tools ?? []).flatMap((tool) =>
        typeof tool.function?.name === "string" ? [tool.function.name] : []
      ),
    );
    const tool = requestedTool(request);
    if (tool !== null) {
      calls++;
      journal.push(Object.freeze({ kind: "tool-call", tool, tools }));
      return { toolCalls: [{ name: tool, arguments: "{}", id: `call_conformance_${calls}` }] };
    }
    const text = contextAnswer(request.messages ?? []);
    journal.push(Object.freeze({ kind: "text", text, tools }));
    return { content: text };
  });
  await mock.start();
  const url = new URL(mock.url);
  const origin = `${url.protocol}//${url.host}`;
  const stop = stopperOf(mock);
  return {
    url: origin,
    baseUrl: `${origin}/v1`,
    journal: () => Object.freeze([...journal]),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
