/**
 * A local mock model for the agent CLIs: `@copilotkit/aimock` on 127.0.0.1, answering every provider API it
 * knows (Anthropic Messages, OpenAI Chat Completions and Responses over HTTP and WebSocket, Gemini, …) with
 * one fixed reply, or with one fault. The mock-model tier points each real CLI at it, so a run needs no
 * credentials, no network and spends no tokens.
 *
 * @module
 */
import { LLMock } from "@copilotkit/aimock";

/** A fault the mock model injects into every model request. */
export type MockFault =
  /** Every request answers HTTP 500 with a JSON error body. */
  | "http-500"
  /** Every request answers 200 with a body that is not valid JSON or SSE. */
  | "malformed"
  /** The streamed answer starts, then the connection is cut after the first chunk. */
  | "disconnect";

/** Every fault, in report order. */
export const MOCK_FAULTS: readonly MockFault[] = ["http-500", "malformed", "disconnect"];

/** Options of {@linkcode startMockModel}. */
export interface MockModelOptions {
  /** The assistant's whole reply. Default `OK`. */
  reply?: string;
  /** A fault to inject into every request; none by default. */
  fault?: MockFault;
  /** Port to bind on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /**
   * Stream a long reply slowly (4 characters every 200 ms, about half a minute in all), so that a client can
   * cancel a turn while the model is still answering (the ACP tier's `cli/acp/cancel`).
   */
  slow?: boolean;
}

/** One request the mock model served, as its journal records it. */
export interface MockModelRequest {
  method: string;
  path: string;
  status: number;
  model?: string;
  /** The fault this request was served, from the journal: an HTTP 500, a malformed body, a cut stream. */
  fault?: MockFault;
}

/** The fault a journal entry's response shows it served, if any. */
function servedFault(
  response: { status: number; chaosAction?: string; interruptReason?: string },
): MockFault | undefined {
  if (response.status === 500) return "http-500";
  if (response.chaosAction === "malformed") return "malformed";
  if (response.interruptReason === "truncateAfterChunks") return "disconnect";
  return undefined;
}

/** A running mock model. Dispose it (or call `stop`) to close the port. */
export interface MockModel extends AsyncDisposable {
  /** Origin, e.g. `http://127.0.0.1:43123` (no trailing slash, no path). */
  readonly url: string;
  readonly port: number;
  readonly fault: MockFault | null;
  /** Requests served so far, oldest first. */
  requests(): MockModelRequest[];
  stop(): Promise<void>;
}

/**
 * The Node HTTP server inside aimock's `LLMock` (a field its types keep private), for `closeAllConnections`;
 * `undefined` when a release moves it.
 */
function serverOf(mock: LLMock): { closeAllConnections?: () => void } | undefined {
  return (mock as unknown as { serverInstance?: { server?: { closeAllConnections?: () => void } } })
    .serverInstance?.server;
}

/**
 * The stop of a started `LLMock`, safe to call twice. A close waits for every open connection, and a host that
 * is gone may have left one (a child that left its group, a request cut mid-body): the connections go first,
 * so the stop, and the run's interrupt, are never held by a client. The plain and the scripted mock model
 * (src/mock_model/script.ts) both stop this way.
 */
export function stopperOf(mock: LLMock): () => Promise<void> {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    const closing = mock.stop();
    serverOf(mock)?.closeAllConnections?.();
    await closing;
  };
}

/**
 * Starts the mock model on 127.0.0.1.
 *
 * @example
 * ```ts
 * await using model = await startMockModel({ reply: "OK" });
 * const res = await fetch(`${model.url}/v1/chat/completions`, {
 *   method: "POST",
 *   body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
 * });
 * console.log((await res.json()).choices[0].message.content); // "OK"
 * ```
 */
export async function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  const reply = options.reply ?? "OK";
  const fault = options.fault ?? null;
  const mock = new LLMock({
    host: "127.0.0.1",
    port: options.port ?? 0,
    logLevel: "silent",
    journalMaxEntries: 0,
    ...(fault === "malformed" ? { chaos: { malformedRate: 1 } } : {}),
  });
  const always = { predicate: () => true };
  if (fault === "http-500") {
    mock.on(always, {
      error: { message: "mock model: injected internal server error", type: "server_error" },
      status: 500,
    });
  } else if (fault === "disconnect") {
    // A long reply in small chunks, cut after the third: the stream has begun when it breaks. The pause between
    // chunks lets the first ones reach the socket before aimock destroys it.
    mock.on(always, { content: `${reply} ${"and more ".repeat(20)}` }, {
      chunkSize: 4,
      latency: 20,
      truncateAfterChunks: 3,
    });
  } else if (options.slow) {
    // Counting, not a repeated phrase: gemini's loop detection ends a turn whose chunks repeat.
    const counting = Array.from({ length: 150 }, (_, i) => i + 1).join(" ");
    mock.on(always, { content: `${reply} ${counting}` }, { chunkSize: 4, latency: 200 });
  } else {
    mock.on(always, { content: reply });
  }
  await mock.start();
  const url = new URL(mock.url);
  const origin = `${url.protocol}//${url.host}`;
  const stop = stopperOf(mock);
  return {
    url: origin,
    port: Number(url.port),
    fault,
    requests: () =>
      mock.getRequests().map((entry) => {
        const body = entry.body as { model?: unknown } | null | undefined;
        const request: MockModelRequest = {
          method: entry.method,
          path: entry.path,
          status: entry.response.status,
        };
        if (body && typeof body.model === "string") request.model = body.model;
        const served = servedFault(entry.response);
        if (served) request.fault = served;
        return request;
      }),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
