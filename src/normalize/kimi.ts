/**
 * The kimi-code `stream-json` dialect: OpenAI-style `{role, …}` lines.
 * `meta:system.version` is the init (no session, no model); `meta:session.resume_hint` ends a successful run.
 * Without it, EOF yields a synthetic error terminal whose reason is the last stderr line and the exit code
 * (kimi reports failures only on stderr). The stream carries no usage.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd } from "./events.ts";
import { contentText, event, isObject, notJson, optNum, parseObject, str, unknownKind } from "./_json.ts";

/** `meta` types that carry nothing the contract checks. */
export const KIMI_IGNORED_META: ReadonlySet<string> = new Set(["turn.begin", "turn.end", "turn.step.begin"]);

/**
 * Makes a kimi normaliser.
 *
 * @example
 * ```ts
 * import { kimiNormalizer } from "./kimi.ts";
 * kimiNormalizer({ argv: [] }).line('{"role":"meta","type":"system.version","version":"2.1.0"}');
 * // [{ kind: "init", hostVersion: "2.1.0", … }]
 * ```
 */
export const kimiNormalizer: NormalizerFactory = () => new KimiNormalizer();

class KimiNormalizer implements Normalizer {
  #done = false;

  line(raw: string): DraftEvent[] {
    const value = parseObject(raw);
    if (!value) return [notJson(raw)];
    switch (value.role) {
      case "meta":
        return this.#meta(value, raw);
      case "assistant": {
        const events: DraftEvent[] = contentText(value.content).map((text) => ({
          kind: "text",
          raw,
          synthetic: false,
          text,
          delta: false,
        }));
        const calls = Array.isArray(value.tool_calls) ? value.tool_calls.filter(isObject) : [];
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
        return [event({
          kind: "tool_result",
          raw,
          synthetic: false,
          id: str(value.tool_call_id),
          output: value.content,
          isError: value.is_error === true,
        })];
      default:
        return [unknownKind(raw)];
    }
  }

  end(end: StreamEnd): DraftEvent[] {
    if (this.#done) return [];
    const stderr = end.stderrTail.trim().split("\n").filter((line) => line.startsWith("error:")).pop() ??
      end.stderrTail.trim().split("\n").pop();
    return [event({
      kind: "terminal",
      raw: null,
      synthetic: true,
      status: "error",
      reason: `${stderr || "stream ended without session.resume_hint"} (exit ${end.exitCode ?? end.signal})`,
      exitCode: end.exitCode ?? undefined,
    })];
  }

  #meta(value: Record<string, unknown>, raw: string): DraftEvent[] {
    const type = str(value.type) ?? "";
    if (type === "system.version") {
      return [event({ kind: "init", raw, synthetic: false, hostVersion: str(value.version) })];
    }
    if (type === "session.resume_hint") {
      this.#done = true;
      return [event({ kind: "terminal", raw, synthetic: false, status: "success", result: undefined })];
    }
    if (type === "turn.step.retrying") {
      return [event({
        kind: "retry",
        raw,
        synthetic: false,
        attempt: optNum(value.attempt),
        maxAttempts: optNum(value.max_attempts),
        delayMs: optNum(value.delay_ms),
        message: str(value.message) ?? str(value.error) ?? "retrying",
      })];
    }
    return KIMI_IGNORED_META.has(type) ? [] : [unknownKind(raw)];
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
