/**
 * The reference agent's model client: one streamed OpenAI Chat Completions call (`POST /v1/chat/completions`,
 * `stream: true`, server-sent events), as most agent CLIs make it, read into the turn's text, tool calls and
 * usage. A failed call is a {@linkcode ModelError} that says whether trying again may help.
 *
 * @module
 */

/** Where the model is and how to ask it, from `~/.reference-agent/config.json`. */
export interface ModelConfig {
  /** Origin of the Chat Completions API, e.g. `http://127.0.0.1:43123`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: string;
}

/** A tool call as the wire carries it. */
export interface WireToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A message of the conversation, in Chat Completions shape. */
export interface ChatMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string | null;
  readonly tool_calls?: readonly WireToolCall[];
  readonly tool_call_id?: string;
}

/** A tool offered to the model. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** What one model turn answered. */
export interface ModelTurn {
  readonly text: string;
  readonly toolCalls: readonly WireToolCall[];
  readonly usage: { readonly input: number; readonly output: number };
}

/** A model call that failed; `retryable` when a later attempt may succeed (HTTP 5xx or 429, a cut stream). */
export class ModelError extends Error {
  override readonly name = "ModelError";
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

/**
 * Makes one model call. Throws {@linkcode ModelError} for an HTTP error, a refused or cut connection, and a
 * body that is not an event stream of chunks.
 */
export async function callModel(
  config: ModelConfig,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): Promise<ModelTurn> {
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${config.apiKey}` },
      body: JSON.stringify({
        model: config.model,
        stream: true,
        stream_options: { include_usage: true },
        messages,
        ...(tools.length > 0 ? { tools: tools.map((tool) => ({ type: "function", function: tool })) } : {}),
      }),
    });
  } catch (error) {
    throw new ModelError(`cannot reach the model at ${config.baseUrl}: ${describe(error)}`, true);
  }
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    throw new ModelError(
      `the model answered HTTP ${response.status}: ${errorMessage(body)}`,
      response.status >= 500 || response.status === 429,
    );
  }
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    throw new ModelError(`the model's stream was cut: ${describe(error)}`, true);
  }
  return readEventStream(body);
}

interface ChunkChoice {
  delta?: {
    content?: string | null;
    tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
  };
}

/** The turn a whole event stream carries. Throws {@linkcode ModelError} when it is not one, or ends early. */
export function readEventStream(body: string): ModelTurn {
  let text = "";
  const calls: { id: string; name: string; arguments: string }[] = [];
  const usage = { input: 0, output: 0 };
  let done = false;
  for (const line of body.split(/\r?\n/)) {
    if (line.trim() === "" || line.startsWith(":")) continue;
    if (!line.startsWith("data:")) {
      throw new ModelError(
        `the model's answer is not an event stream: ${JSON.stringify(line.slice(0, 80))}`,
        false,
      );
    }
    const data = line.slice(5).trim();
    if (data === "[DONE]") {
      done = true;
      break;
    }
    let chunk: { choices?: ChunkChoice[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new ModelError(
        `the model sent a chunk that is not JSON: ${JSON.stringify(data.slice(0, 80))}`,
        false,
      );
    }
    const delta = chunk.choices?.[0]?.delta;
    if (typeof delta?.content === "string") text += delta.content;
    for (const part of delta?.tool_calls ?? []) {
      const at = part.index ?? calls.length;
      const call = calls[at] ??= { id: "", name: "", arguments: "" };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
    if (chunk.usage) {
      usage.input += chunk.usage.prompt_tokens ?? 0;
      usage.output += chunk.usage.completion_tokens ?? 0;
    }
  }
  if (!done) throw new ModelError("the model's stream ended before [DONE]", true);
  return {
    text,
    toolCalls: calls.map((call, index) => ({
      id: call.id || `call_${index + 1}`,
      type: "function",
      function: { name: call.name, arguments: call.arguments || "{}" },
    })),
    usage,
  };
}

function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // Not JSON: the start of the body says it.
  }
  return body.slice(0, 200) || "no body";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
