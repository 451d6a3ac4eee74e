/**
 * The grok-cli (`grok -p`) dialect: the conversation printed once the run is over, one OpenAI-style message
 * per line: `{role:"user"}` (the prompt echoed), `{role:"assistant", content, tool_calls?}` and
 * `{role:"tool", tool_call_id, content}`. There is no init, no usage and no end event: the init is synthetic
 * and the terminal comes at EOF from the exit code. A thrown error is the last line
 * `{"role":"assistant","content":"Error: …"}` with exit 1, which is then the terminal's reason. (A failed model
 * call is printed by grok as an ordinary reply with exit 0, and is read as grok says: a success.)
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd } from "./events.ts";
import { contentText, event, isObject, notJson, parseObject, str, unknownKind } from "./_json.ts";

/** The content grok prints for an assistant turn that only called tools. */
export const TOOL_PLACEHOLDER = "Using tools to help you...";

/**
 * Makes a grok normaliser.
 *
 * @example
 * ```ts
 * import { grokNormalizer } from "./grok.ts";
 * const n = grokNormalizer({ argv: ["-p", "P"] });
 * n.line('{"role":"user","content":"P"}'); // [{ kind: "init", synthetic: true, … }]
 * n.line('{"role":"assistant","content":"OK"}'); // [{ kind: "text", text: "OK", … }]
 * n.end({ exitCode: 0, signal: null, stderrTail: "" }); // [{ kind: "terminal", status: "success", … }]
 * ```
 */
export const grokNormalizer: NormalizerFactory = () => new GrokNormalizer();

class GrokNormalizer implements Normalizer {
  #started = false;
  #reply: string[] = [];
  #lastAssistant: string | undefined;

  line(raw: string): DraftEvent[] {
    const events = this.#init(raw);
    const value = parseObject(raw);
    if (!value) return [...events, notJson(raw)];
    switch (value.role) {
      case "user":
        return events;
      case "assistant": {
        const texts = contentText(value.content);
        this.#lastAssistant = texts.join("\n");
        const calls = Array.isArray(value.tool_calls) ? value.tool_calls.filter(isObject) : [];
        // With tool calls and no text, grok fills in "Using tools to help you..." itself: not the model's.
        for (const text of texts.filter((text) => calls.length === 0 || text !== TOOL_PLACEHOLDER)) {
          this.#reply.push(text);
          events.push({ kind: "text", raw, synthetic: false, text, delta: false });
        }
        for (const call of calls) {
          const fn = isObject(call.function) ? call.function : {};
          events.push(event({
            kind: "tool_call",
            raw,
            synthetic: false,
            id: str(call.id),
            name: str(fn.name) ?? "",
            input: parseArguments(fn.arguments),
          }));
        }
        return events;
      }
      case "tool":
        events.push(event({
          kind: "tool_result",
          raw,
          synthetic: false,
          id: str(value.tool_call_id),
          output: value.content,
          isError: false,
        }));
        return events;
      default:
        return [...events, unknownKind(raw)];
    }
  }

  end(end: StreamEnd): DraftEvent[] {
    const events = this.#init(null);
    const ok = end.exitCode === 0;
    events.push(event({
      kind: "terminal",
      raw: null,
      synthetic: true,
      status: ok ? "success" : "error",
      result: ok ? this.#reply.join("\n") : undefined,
      reason: ok ? undefined : this.#failure(end),
      exitCode: end.exitCode ?? undefined,
    }));
    return events;
  }

  #init(raw: string | null): DraftEvent[] {
    if (this.#started) return [];
    this.#started = true;
    return [{ kind: "init", raw, synthetic: true }];
  }

  /** The last assistant line when it is grok's `Error: …`, else the last stderr line, with the exit. */
  #failure(end: StreamEnd): string {
    const printed = this.#lastAssistant?.startsWith("Error: ") ? this.#lastAssistant : undefined;
    const why = printed ?? end.stderrTail.split("\n").map((line) => line.trim()).filter(Boolean).at(-1);
    const exit = end.exitCode === null ? `killed by ${end.signal ?? "a signal"}` : `exit ${end.exitCode}`;
    return why ? `${why} (${exit})` : exit;
  }
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
