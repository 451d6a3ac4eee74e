/**
 * The opencode `run --format json` dialect. 1.18.33 has no init and no
 * terminal event: the first line yields a synthetic `init` (session id from the line, model from argv), and
 * EOF yields a synthetic `terminal`: success when the process exited 0 and no `error` line was seen. Newer
 * builds end with `done`, which is translated instead. Usage is per step (`step_finish`).
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd } from "./events.ts";
import {
  argvValue,
  event,
  isObject,
  type Json,
  notJson,
  num,
  optNum,
  parseObject,
  str,
  unknownKind,
} from "./_json.ts";

/** Kinds that carry nothing the contract checks. */
export const OPENCODE_IGNORED_KINDS: ReadonlySet<string> = new Set(["step_start", "reasoning"]);

/**
 * Makes an opencode normaliser.
 *
 * @example
 * ```ts
 * import { opencodeNormalizer } from "./opencode.ts";
 * const n = opencodeNormalizer({ argv: ["run", "-m", "p/m"] });
 * n.line('{"type":"step_start","sessionID":"s"}'); // [{ kind: "init", synthetic: true, sessionId: "s", model: "p/m", … }]
 * n.end({ exitCode: 0, signal: null, stderrTail: "" }); // [{ kind: "terminal", status: "success", synthetic: true, … }]
 * ```
 */
export const opencodeNormalizer: NormalizerFactory = ({ argv }) =>
  new OpencodeNormalizer(argvValue(argv, "-m", "--model"));

class OpencodeNormalizer implements Normalizer {
  readonly #model: string | undefined;
  #initDone = false;
  #terminalDone = false;
  #lastError: string | undefined;

  constructor(model: string | undefined) {
    this.#model = model;
  }

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    const events: DraftEvent[] = [];
    if (!this.#initDone) {
      this.#initDone = true;
      events.push(
        event({ kind: "init", raw, synthetic: true, sessionId: str(value.sessionID), model: this.#model }),
      );
    }
    events.push(...this.#translate(value, raw));
    return events;
  }

  end(end: StreamEnd): DraftEvent[] {
    if (this.#terminalDone) return [];
    const ok = end.exitCode === 0 && this.#lastError === undefined;
    const reason = this.#lastError ??
      (end.exitCode === null
        ? `killed by ${end.signal ?? "a signal"}`
        : end.exitCode !== 0
        ? `exit ${end.exitCode}${end.stderrTail ? `: ${lastLine(end.stderrTail)}` : ""}`
        : undefined);
    return [event({
      kind: "terminal",
      raw: null,
      synthetic: true,
      status: ok ? "success" : "error",
      reason: ok ? undefined : reason,
      exitCode: end.exitCode ?? undefined,
    })];
  }

  #translate(value: Json, raw: string): DraftEvent[] {
    const part = isObject(value.part) ? value.part : {};
    const type = str(value.type) ?? "";
    switch (type) {
      case "text":
        return [{ kind: "text", raw, synthetic: false, text: str(part.text) ?? "", delta: false }];
      case "tool_use": {
        const state = isObject(part.state) ? part.state : {};
        const id = str(part.callID);
        const name = str(part.tool) ?? "";
        return [
          event({ kind: "tool_call", raw, synthetic: false, id, name, input: state.input ?? {} }),
          event({
            kind: "tool_result",
            raw,
            synthetic: false,
            id,
            name,
            output: state.output ?? state.error,
            isError: state.status === "error",
          }),
        ];
      }
      case "step_finish": {
        const tokens = isObject(part.tokens) ? part.tokens : {};
        const cache = isObject(tokens.cache) ? tokens.cache : {};
        return [event({
          kind: "usage",
          raw,
          synthetic: false,
          input: num(tokens.input),
          output: num(tokens.output),
          cacheRead: num(cache.read),
          cacheWrite: num(cache.write),
          reasoning: optNum(tokens.reasoning),
          costUsd: optNum(part.cost),
          scope: "step",
        })];
      }
      case "error": {
        const message = errorMessage(value.error);
        this.#lastError = message;
        return [event({ kind: "error", raw, synthetic: false, message })];
      }
      case "done": {
        this.#terminalDone = true;
        const ok = this.#lastError === undefined;
        return [event({
          kind: "terminal",
          raw,
          synthetic: false,
          status: ok ? "success" : "error",
          reason: ok ? undefined : this.#lastError,
        })];
      }
      default:
        return OPENCODE_IGNORED_KINDS.has(type) ? [] : [unknownKind(raw)];
    }
  }
}

function errorMessage(error: unknown): string {
  if (typeof error === "string") return error;
  if (isObject(error)) {
    const data = isObject(error.data) ? error.data : {};
    return str(data.message) ?? str(error.message) ?? str(error.name) ?? JSON.stringify(error);
  }
  return "unknown error";
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}
