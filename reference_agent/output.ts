/**
 * What the reference agent prints, in the claude dialect the harness reads with its `claude` normaliser:
 * `stream-json` writes one event per line as the run goes (init, assistant text and tool use, tool results,
 * retries, denials, one result last); `json` writes only the result document at the end; `text` only the
 * final answer, its failure on stderr. Every line is written whole, straight to the file descriptor.
 *
 * @module
 */
import type { OutputFormat } from "./args.ts";

/** The run's totals, as the result reports them. */
export interface RunUsage {
  input: number;
  output: number;
}

/** How the run ended. */
export interface RunResult {
  readonly ok: boolean;
  readonly text: string;
  /** Why it failed. */
  readonly error?: string;
  readonly usage: RunUsage | null;
  readonly structured?: unknown;
}

const encoder = new TextEncoder();

/** The run's output channel. */
export class Transcript {
  readonly #format: OutputFormat;
  readonly #session: string;

  constructor(format: OutputFormat, session: string) {
    this.#format = format;
    this.#session = session;
  }

  /** The session start. */
  init(model: string, cwd: string, tools: readonly string[]): void {
    this.#event({ type: "system", subtype: "init", model, cwd, tools, reference_agent_version: VERSION });
  }

  /** The assistant's text of one turn. */
  text(text: string): void {
    this.#event({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } });
  }

  /** The tool calls of one turn. */
  toolUse(calls: readonly { id: string; name: string; input: unknown }[]): void {
    const content = calls.map((call) => ({
      type: "tool_use",
      id: call.id,
      name: call.name,
      input: call.input,
    }));
    this.#event({ type: "assistant", message: { role: "assistant", content } });
  }

  /** A call the run's rules refused, before its error result. */
  denied(id: string, tool: string, reason: string): void {
    this.#event({ type: "system", subtype: "permission_denied", tool_use_id: id, tool, reason });
  }

  /** A tool's result. */
  toolResult(id: string, content: string, isError: boolean): void {
    const block = { type: "tool_result", tool_use_id: id, content, is_error: isError };
    this.#event({ type: "user", message: { role: "user", content: [block] } });
  }

  /** A failed model call about to be tried again. */
  retry(attempt: number, maxRetries: number, delayMs: number, error: string): void {
    this.#event({
      type: "system",
      subtype: "api_retry",
      attempt,
      max_retries: maxRetries,
      retry_delay_ms: delayMs,
      error,
    });
  }

  /** The run's end: the result event, the result document, or the final text (a failure on stderr). */
  result(result: RunResult): void {
    const document = {
      type: "result",
      subtype: result.ok ? "success" : "error_during_execution",
      is_error: !result.ok,
      result: result.text,
      ...(result.error === undefined ? {} : { error: result.error }),
      ...(result.usage
        ? { usage: { input_tokens: result.usage.input, output_tokens: result.usage.output } }
        : {}),
      ...(result.structured === undefined ? {} : { structured_output: result.structured }),
      session_id: this.#session,
    };
    if (this.#format !== "text") writeLine(Deno.stdout, JSON.stringify(document));
    else if (result.ok) writeLine(Deno.stdout, result.text);
    else writeLine(Deno.stderr, `reference-agent: ${result.error}`);
  }

  #event(event: Record<string, unknown>): void {
    if (this.#format === "stream-json") {
      writeLine(Deno.stdout, JSON.stringify({ ...event, session_id: this.#session }));
    }
  }
}

/** The version `--version` prints. */
export const VERSION = "1.0.0";

/** Writes one whole line to a file descriptor. */
export function writeLine(target: { writeSync(p: Uint8Array): number }, line: string): void {
  const bytes = encoder.encode(`${line}\n`);
  let written = 0;
  while (written < bytes.length) written += target.writeSync(bytes.subarray(written));
}
