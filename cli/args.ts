/**
 * Command-line parsing on `node:util` `parseArgs`, with errors that say what to do: an unknown flag names the
 * closest known one, a missing value names the flag, and every error is a {@linkcode UsageError} (exit 2).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { UsageError } from "../src/errors.ts";
import { didYouMean } from "../src/suggest.ts";

/** One flag of a subcommand. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly multiple?: boolean;
  readonly short?: string;
}

/** A subcommand's grammar. */
export interface CommandSpec {
  readonly name: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** Inclusive bounds on positional arguments. */
  readonly positionals: { readonly min: number; readonly max: number; readonly what: string };
}

/** Parsed flags and positionals. */
export interface ParsedCommand {
  readonly flags: Record<string, string | boolean | (string | boolean)[] | undefined>;
  readonly positionals: string[];
  readonly help: boolean;
}

/** Parses `args` against `spec`; `--help`/`-h` is always accepted. */
export function parseCommandLine(spec: CommandSpec, args: readonly string[]): ParsedCommand {
  const options = { ...spec.flags, help: { type: "boolean", short: "h" } } as Record<string, FlagSpec>;
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw translate(error, spec);
  }
  refuseRepeats(spec, parsed.tokens);
  const { help, ...flags } = parsed.values as Record<
    string,
    string | boolean | (string | boolean)[] | undefined
  >;
  if (help === true) return { flags, positionals: parsed.positionals, help: true };
  const count = parsed.positionals.length;
  if (count > spec.positionals.max) {
    const extra = parsed.positionals[spec.positionals.max]!;
    throw new UsageError(
      `Unexpected argument "${extra}" for "conformance ${spec.name}"${
        spec.positionals.max === 0 ? "" : ` (it takes ${spec.positionals.what})`
      }. Run "conformance ${spec.name} --help"`,
    );
  }
  if (count < spec.positionals.min) {
    throw new UsageError(
      `"conformance ${spec.name}" needs ${spec.positionals.what}. Run "conformance ${spec.name} --help"`,
    );
  }
  return { flags, positionals: parsed.positionals, help: false };
}

/**
 * A single-value flag given twice is a mistake to point at, not "the last one wins": the run would quietly
 * differ from what one of the two words asked for. Repeatable flags and switches may repeat.
 */
function refuseRepeats(spec: CommandSpec, tokens: readonly { kind: string; name?: string }[]): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    const flag = spec.flags[token.name];
    if (flag === undefined || flag.type !== "string" || flag.multiple) continue;
    if (seen.has(token.name)) {
      throw new UsageError(
        `Flag "--${token.name}" is given twice: it takes one value, so keep one of them. ` +
          `Run "conformance ${spec.name} --help"`,
      );
    }
    seen.add(token.name);
  }
}

function translate(error: unknown, spec: CommandSpec): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const quoted = /'(-{1,2}[^']+)'/.exec(message)?.[1] ?? "";
  const help = `Run "conformance ${spec.name} --help"`;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = quoted.replace(/^-+/, "").split("=")[0]!;
    const hint = didYouMean(flag, Object.keys(spec.flags), help, (match) => `--${match}`);
    return new UsageError(`Unknown flag "${quoted}" for "conformance ${spec.name}"${hint}`);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const flag = /'(-{1,2}[\w-]+)/.exec(message)?.[1] ?? quoted;
    return new UsageError(
      flag && spec.flags[flag.replace(/^-+/, "")]?.type === "boolean"
        ? `Flag "${flag}" takes no value. ${help}`
        : `Flag "${flag}" needs a value. ${help}`,
    );
  }
  return new UsageError(`${message.split(".")[0]}. ${help}`);
}

/** A string flag's value, or `undefined` (a single-value flag given twice is refused while parsing). */
export function stringFlag(parsed: ParsedCommand, name: string): string | undefined {
  const value = parsed.flags[name];
  if (Array.isArray(value)) return value.at(-1) as string | undefined;
  return typeof value === "string" ? value : undefined;
}

/** A repeatable string flag's values, split on commas and trimmed. */
export function listFlag(parsed: ParsedCommand, name: string): string[] {
  const value = parsed.flags[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter((v) => v.length > 0);
}

/** A boolean flag's value. */
export function booleanFlag(parsed: ParsedCommand, name: string): boolean {
  return parsed.flags[name] === true;
}

/** Validates a flag value against a fixed set. */
export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(
    `Invalid ${flag} "${value}"${didYouMean(value, allowed, `Choose one of: ${allowed.join(", ")}`)}`,
  );
}
