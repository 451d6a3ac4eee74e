/**
 * The Continue CLI (`cn -p`) dialect. `cn` has no event stream: headless mode prints the assistant's final
 * reply on stdout once the run is over, as plain text, or with `--format json` as one object
 * `{"response", "status": "success", "note"}` (the reply printed as it is when it is itself valid JSON). No
 * tool activity, session or usage reaches stdout. A failure prints `{"status": "error", "message"}` on stderr
 * and exits 1. So every stdout line is reply text (or the JSON wrapper of it), the init is synthetic, and the
 * terminal comes at EOF from the exit code and that stderr message.
 *
 * @module
 */
import type { DraftEvent, Normalizer, NormalizerFactory, StreamEnd } from "./events.ts";
import { event, parseObject, str } from "./_json.ts";
import { type BlockingReader, withDefined } from "./blocking_json.ts";

/**
 * Makes a Continue normaliser; with `--format json` in argv it reads the JSON wrapper.
 *
 * @example
 * ```ts
 * import { continueNormalizer } from "./continue.ts";
 * const n = continueNormalizer({ argv: ["-p", "P"] });
 * n.line("OK"); // [{ kind: "init", synthetic: true, … }, { kind: "text", text: "OK", … }]
 * n.end({ exitCode: 0, signal: null, stderrTail: "" }); // [{ kind: "terminal", status: "success", … }]
 * ```
 */
export const continueNormalizer: NormalizerFactory = ({ argv }) =>
  new ContinueNormalizer(argv.some((arg, i) => arg === "--format" && argv[i + 1] === "json"));

class ContinueNormalizer implements Normalizer {
  readonly #json: boolean;
  #started = false;
  #reply: string[] = [];

  constructor(json: boolean) {
    this.#json = json;
  }

  line(raw: string): DraftEvent[] {
    const events = this.#init(raw);
    const wrapper = this.#json ? parseObject(raw) : null;
    const status = str(wrapper?.status);
    if (wrapper && status !== undefined && typeof wrapper.response === "string") {
      this.#reply.push(wrapper.response);
      events.push({ kind: "text", raw, synthetic: false, text: wrapper.response, delta: false });
    } else if (wrapper && (status === "info" || status === "warning" || status === "success")) {
      // Auto-compaction notices, printed in JSON mode only.
      if (status === "warning") {
        events.push(event({ kind: "error", raw, synthetic: false, message: str(wrapper.message) ?? status }));
      }
    } else if (raw.trim() !== "") {
      this.#reply.push(raw);
      events.push({ kind: "text", raw, synthetic: false, text: raw, delta: false });
    }
    return events;
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
      reason: ok ? undefined : failure(end),
      exitCode: end.exitCode ?? undefined,
    }));
    return events;
  }

  #init(raw: string | null): DraftEvent[] {
    if (this.#started) return [];
    this.#started = true;
    return [{ kind: "init", raw, synthetic: true }];
  }
}

/** Why the run failed: cn's `{"status":"error","message"}` line on stderr, else its last stderr line. */
function failure(end: StreamEnd): string {
  const lines = end.stderrTail.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const message = lines.map((line) => parseObject(line)).findLast((value) => value?.status === "error");
  const why = str(message?.message) ?? lines.at(-1);
  const exit = end.exitCode === null ? `killed by ${end.signal ?? "a signal"}` : `exit ${end.exitCode}`;
  return why ? `${why} (${exit})` : exit;
}

/**
 * Continue's blocking document (`cn -p --format json`): the `{"response","status"}` wrapper, an error object,
 * or, when the reply was itself valid JSON, that JSON as it is (then the whole of stdout is the reply).
 */
export const readContinueBlocking: BlockingReader = (document, stdout) => {
  const value = typeof document === "object" && document !== null && !Array.isArray(document)
    ? document as Record<string, unknown>
    : null;
  if (value?.status === "error") {
    return withDefined({ status: "error", reason: str(value.message) ?? "error" });
  }
  if (value?.status === "success" && typeof value.response === "string") {
    return { status: "success", result: value.response };
  }
  return { status: "success", result: stdout.trim() };
};
