/**
 * The fake host's directive language: a script fenced by `@@fake` … `@@end` inside the prompt, one directive a
 * line (the little-loops directive set, plus `dialect=`, `retry`, `flood`, `stdin` and `bytes HEX`, a stdout line
 * given as hex so a script can emit bytes that are not UTF-8). Terminal discipline is
 * checked here, at parse time, so a script that could never be a valid host stream is rejected up front.
 *
 * @module
 */

import { DIALECT_NAMES } from "./dialect_names.ts";

/**
 * Wire shapes the fake can speak: the dialects of the normalisers (src/normalize/mod.ts), one writer each in
 * fake_host/dialects.ts. The fake host imports nothing outside fake_host/, so the list is generated into
 * fake_host/dialect_names.ts by `deno task permissions`.
 */
export const FAKE_DIALECTS = DIALECT_NAMES;

/** One of {@linkcode FAKE_DIALECTS}. */
export type FakeDialect = typeof FAKE_DIALECTS[number];

/** One parsed directive. `line` is its 1-based line number within the whole prompt. */
export type Directive =
  & { readonly line: number }
  & (
    | {
      readonly verb: "init";
      readonly model?: string;
      readonly session?: string;
      readonly dialect?: FakeDialect;
    }
    | { readonly verb: "text"; readonly value: string }
    | { readonly verb: "tool"; readonly name: string; readonly input: unknown }
    | {
      readonly verb: "result";
      readonly error?: string;
      readonly in: number;
      readonly out: number;
      readonly cache: number;
      readonly structured?: unknown;
    }
    | { readonly verb: "turn_completed"; readonly in: number; readonly out: number; readonly cached: number }
    | { readonly verb: "retry"; readonly message: string; readonly attempt: number; readonly max: number }
    | { readonly verb: "raw"; readonly value: string }
    | { readonly verb: "bytes"; readonly value: Uint8Array }
    | { readonly verb: "stderr"; readonly value: string }
    | { readonly verb: "sleep"; readonly seconds: number }
    | { readonly verb: "flood"; readonly bytes: number }
    | { readonly verb: "stdin" }
    | { readonly verb: "exit"; readonly code: number }
    | { readonly verb: "hang" }
  );

/** A parsed script: the wire dialect (from `init dialect=`, default `claude`) and its directives. */
export interface FakeScript {
  readonly dialect: FakeDialect;
  readonly directives: readonly Directive[];
}

/** The script that runs when the prompt has no `@@fake` fence. */
export const DEFAULT_SCRIPT: FakeScript = Object.freeze<FakeScript>({
  dialect: "claude",
  directives: [
    { line: 0, verb: "init", model: "fake-model", session: "fake-session" },
    { line: 0, verb: "text", value: "OK" },
    { line: 0, verb: "result", in: 1, out: 1, cache: 0 },
  ],
});

/** A script error: the message starts with `line N: ` (N 1-based within the whole prompt). */
export class ScriptError extends SyntaxError {
  /** The 1-based line of the prompt the error is about. */
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = "ScriptError";
    this.line = line;
  }
}

const KEYS: Readonly<Record<string, readonly string[]>> = {
  init: ["model", "session", "dialect"],
  result: ["error", "in", "out", "cache", "structured"],
  turn_completed: ["in", "out", "cached"],
  retry: ["message", "attempt", "max"],
};

const TERMINALS = new Set(["result", "turn_completed"]);

/** Only deliberate misbehaviour may follow a terminal: raw output (background tasks), stderr, time, the end. */
const AFTER_TERMINAL = new Set(["raw", "bytes", "stderr", "sleep", "exit", "hang"]);

/**
 * Parses the script in a prompt: the fenced block if there is one, else {@linkcode DEFAULT_SCRIPT}.
 * Throws {@linkcode ScriptError} on any error.
 *
 * @example
 * ```ts
 * import { parseScript } from "./script.ts";
 * const script = parseScript("@@fake\ninit model=m\ntext hi\nresult in=1 out=1\n@@end");
 * script.directives.map((d) => d.verb); // ["init", "text", "result"]
 * ```
 */
export function parseScript(prompt: string): FakeScript {
  const lines = prompt.split("\n");
  const start = lines.findIndex((line) => line.trim() === "@@fake");
  if (start < 0) return DEFAULT_SCRIPT;
  const end = lines.findIndex((line, index) => index > start && line.trim() === "@@end");
  if (end < 0) throw new ScriptError(start + 1, "'@@fake' with no matching '@@end'");
  const directives: Directive[] = [];
  for (let index = start + 1; index < end; index++) {
    const text = (lines[index] ?? "").trim();
    if (text === "" || text.startsWith("#")) continue;
    directives.push(parseDirective(text, index + 1));
  }
  checkDiscipline(directives);
  const init = directives.find((directive) => directive.verb === "init");
  const dialect = init?.verb === "init" && init.dialect ? init.dialect : "claude";
  return { dialect, directives };
}

function parseDirective(text: string, line: number): Directive {
  const space = text.indexOf(" ");
  const verb = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? "" : text.slice(space + 1);
  switch (verb) {
    case "text":
      if (rest === "") throw new ScriptError(line, "'text' requires a value");
      return { line, verb, value: rest.replaceAll("\\n", "\n") };
    case "raw":
    case "stderr":
      if (rest === "") throw new ScriptError(line, `'${verb}' requires a value`);
      return { line, verb, value: rest };
    case "tool":
      return parseTool(rest, line);
    case "bytes":
      if (!/^(?:[0-9a-fA-F]{2})+$/.test(rest)) {
        throw new ScriptError(line, "'bytes' requires an even count of hex digits");
      }
      return { line, verb, value: Uint8Array.from(rest.match(/../g)!, (pair) => parseInt(pair, 16)) };
    case "sleep": {
      const seconds = Number(rest);
      if (rest === "" || !Number.isFinite(seconds) || seconds < 0) {
        throw new ScriptError(line, "'sleep' requires a numeric value");
      }
      return { line, verb, seconds };
    }
    case "flood": {
      const bytes = Number(rest);
      if (!/^\d+$/.test(rest) || !Number.isSafeInteger(bytes)) {
        throw new ScriptError(line, "'flood' requires a byte count");
      }
      return { line, verb, bytes };
    }
    case "exit": {
      if (!/^-?\d+$/.test(rest)) throw new ScriptError(line, "'exit' requires an integer code");
      return { line, verb, code: Number(rest) };
    }
    case "hang":
    case "stdin":
      if (rest !== "") throw new ScriptError(line, `'${verb}' takes no arguments`);
      return { line, verb };
    case "init":
    case "result":
    case "turn_completed":
    case "retry":
      return parseKeyed(verb, keyValues(verb, rest, line), line);
    default:
      throw new ScriptError(line, `unknown directive '${verb}'`);
  }
}

function parseTool(rest: string, line: number): Directive {
  if (rest === "") throw new ScriptError(line, "'tool' requires a name");
  const space = rest.indexOf(" ");
  const name = space < 0 ? rest : rest.slice(0, space);
  const json = space < 0 ? "" : rest.slice(space + 1);
  if (json === "") return { line, verb: "tool", name, input: {} };
  try {
    return { line, verb: "tool", name, input: JSON.parse(json) };
  } catch (error) {
    throw new ScriptError(line, `invalid tool json-input: ${(error as Error).message}`);
  }
}

/** Splits `key=value` tokens; a token that is not a known key folds into the previous value. */
function keyValues(verb: string, rest: string, line: number): Map<string, string> {
  const keys = KEYS[verb] ?? [];
  const values = new Map<string, string>();
  let current: string | null = null;
  for (const token of rest === "" ? [] : rest.split(" ")) {
    const eq = token.indexOf("=");
    const key = eq > 0 ? token.slice(0, eq) : "";
    if (keys.includes(key)) {
      current = key;
      values.set(key, token.slice(eq + 1));
    } else if (current !== null) {
      values.set(current, `${values.get(current)} ${token}`);
    } else {
      throw new ScriptError(line, `unrecognized token '${token}'`);
    }
  }
  return values;
}

function parseKeyed(
  verb: "init" | "result" | "turn_completed" | "retry",
  values: Map<string, string>,
  line: number,
) {
  const count = (key: string, fallback: number): number => {
    const value = values.get(key);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) {
      throw new ScriptError(line, `'${key}' requires a non-negative integer, got '${value}'`);
    }
    return Number(value);
  };
  switch (verb) {
    case "init": {
      const dialect = values.get("dialect");
      if (dialect !== undefined && !(FAKE_DIALECTS as readonly string[]).includes(dialect)) {
        throw new ScriptError(line, `unknown dialect '${dialect}': use one of ${FAKE_DIALECTS.join(", ")}`);
      }
      return {
        line,
        verb,
        ...optional("model", values.get("model")),
        ...optional("session", values.get("session")),
        ...optional("dialect", dialect as FakeDialect | undefined),
      };
    }
    case "result": {
      const structuredText = values.get("structured");
      let structured: unknown;
      if (structuredText !== undefined) {
        try {
          structured = JSON.parse(structuredText);
        } catch (error) {
          throw new ScriptError(line, `invalid structured json: ${(error as Error).message}`);
        }
      }
      return {
        line,
        verb,
        in: count("in", 0),
        out: count("out", 0),
        cache: count("cache", 0),
        ...optional("error", values.get("error")),
        ...(structuredText === undefined ? {} : { structured }),
      };
    }
    case "turn_completed":
      return { line, verb, in: count("in", 0), out: count("out", 0), cached: count("cached", 0) };
    case "retry":
      return {
        line,
        verb,
        message: values.get("message") ?? "overloaded",
        attempt: count("attempt", 1),
        max: count("max", 10),
      };
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function checkDiscipline(directives: readonly Directive[]): void {
  let terminalSeen = false;
  directives.forEach((directive, index) => {
    const isLast = index === directives.length - 1;
    if ((directive.verb === "exit" || directive.verb === "hang") && !isLast) {
      throw new ScriptError(directive.line, `'${directive.verb}' must be the last directive`);
    }
    if (TERMINALS.has(directive.verb)) {
      if (terminalSeen) {
        throw new ScriptError(
          directive.line,
          "multiple terminal directives (only one of result/turn_completed allowed)",
        );
      }
      terminalSeen = true;
    } else if (terminalSeen && !AFTER_TERMINAL.has(directive.verb)) {
      throw new ScriptError(
        directive.line,
        `only 'raw', 'bytes', 'stderr', 'sleep', 'exit' or 'hang' may follow a terminal directive, got '${directive.verb}'`,
      );
    }
  });
}
