/**
 * The reference agent's command line, in the shape orchestrators drive claude with:
 *
 * ```
 * conformance reference-agent -p PROMPT [--output-format text|json|stream-json] [--continue] [--model M]
 *   [--dangerously-skip-permissions] [--tools Read,Write,Bash] [--root DIR] [--agent NAME] [--json-schema JSON]
 * conformance reference-agent --version
 * ```
 *
 * @module
 */

/** The output formats: the final text, one result document, or the claude stream-json event stream. */
export type OutputFormat = "text" | "json" | "stream-json";

/** What the agent was asked to do. */
export interface AgentArgs {
  readonly version: boolean;
  readonly prompt: string;
  readonly outputFormat: OutputFormat;
  /** Resume the latest session of the working folder. */
  readonly resume: boolean;
  /** The model to ask for; `null`: the configured one. */
  readonly model: string | null;
  /** Run Write and Bash without asking (nobody can be asked in print mode, so without it they are refused). */
  readonly bypass: boolean;
  /** The only tools offered and run; `null`: every tool. */
  readonly tools: readonly string[] | null;
  /** The folder writes are confined to; `null`: none. */
  readonly root: string | null;
  /** The agent whose instructions become the system prompt. */
  readonly agent: string | null;
  /** A JSON schema the answer must match, given through the StructuredOutput tool. */
  readonly schema: Record<string, unknown> | null;
}

/** A mistake on the command line: one line on stderr, exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];
const VALUE_FLAGS = new Set(["-p", "--print", "--output-format", "--model", "--tools", "--root", "--agent"]);

/**
 * Reads the agent's argv. Throws {@linkcode UsageError} on an unknown flag, a missing value, an unknown output
 * format or a schema that is not a JSON object.
 *
 * @example
 * ```ts
 * import { parseAgentArgs } from "./args.ts";
 * parseAgentArgs(["-p", "hi", "--output-format", "stream-json"]).outputFormat; // "stream-json"
 * ```
 */
export function parseAgentArgs(args: readonly string[]): AgentArgs {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (VALUE_FLAGS.has(arg) || arg === "--json-schema") {
      const value = args[++index];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      values.set(arg === "--print" ? "-p" : arg, value);
    } else if (["--version", "--continue", "--dangerously-skip-permissions"].includes(arg)) switches.add(arg);
    else if (arg.startsWith("-")) {
      throw new UsageError(`Unknown option "${arg}": run "conformance reference-agent --help"`);
    } else positionals.push(arg);
  }
  const format = values.get("--output-format") ?? "text";
  if (!FORMATS.includes(format as OutputFormat)) {
    throw new UsageError(`Unknown output format "${format}": use ${FORMATS.join(", ")}`);
  }
  const prompt = values.get("-p") ?? positionals.at(-1);
  if (!switches.has("--version") && (prompt === undefined || prompt === "")) {
    throw new UsageError('No prompt: give it with -p "…"');
  }
  const tools = values.get("--tools");
  return {
    version: switches.has("--version"),
    prompt: prompt ?? "",
    outputFormat: format as OutputFormat,
    resume: switches.has("--continue"),
    // An empty --model is the configured model, as an unset one is.
    model: values.get("--model") || null,
    bypass: switches.has("--dangerously-skip-permissions"),
    tools: tools === undefined ? null : tools.split(",").map((name) => name.trim()).filter(Boolean),
    root: values.get("--root") ?? null,
    agent: values.get("--agent") ?? null,
    schema: schemaOf(values.get("--json-schema")),
  };
}

function schemaOf(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--json-schema is not JSON: ${error instanceof Error ? error.message : error}`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UsageError("--json-schema must be a JSON object");
  }
  return schema as Record<string, unknown>;
}
