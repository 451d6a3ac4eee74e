/**
 * What a real CLI declares in its host file for the capability-behaviour tier (`cli/capability-behavior/`): the
 * names and argument shapes of its built-in tools for the operations the tier scripts the mock model to ask
 * for (read a file, write a file, run a shell command), and how each capability is switched on beyond the
 * runner's own argv (the argv that grants the permission bypass, the files that define an agent, the tool that
 * carries a structured result). A host without these declarations is a SKIP in that tier.
 *
 * @module
 */

/** One built-in tool: its name, and the arguments the model sends it for one operation. */
export interface BuiltinTool<Target> {
  /** The tool's name as the host declares it to the model. */
  readonly name: string;
  /** The tool-call arguments for `target` (an absolute path, or a shell command line). */
  readonly args: (target: Target) => Record<string, unknown>;
}

/** The tools the tier asks for. */
export interface BuiltinTools {
  /** Read a file (by absolute path). */
  readonly read: BuiltinTool<{ readonly path: string }>;
  /** Write a file (absolute path and content). */
  readonly write: BuiltinTool<{ readonly path: string; readonly content: string }>;
  /** Run a shell command line in the working folder. */
  readonly shell: BuiltinTool<{ readonly command: string }>;
}

/** A host's declarations for the capability-behaviour tier. */
export interface ToolBehavior {
  /** Its built-in tools for read, write and shell. */
  readonly tools: BuiltinTools;
  /**
   * The argv elements of the streaming path that switch the permission bypass on, in order: the tier removes
   * them for the run without the bypass. Absent when the streaming path passes no bypass.
   */
  readonly permissionSkipArgs?: readonly string[];
  /**
   * The files that define an agent named `name` with `instructions` as its system prompt, by path relative to
   * the working folder. Absent when the host cannot be given an agent from files.
   */
  readonly agentFiles?: (name: string, instructions: string) => Readonly<Record<string, string>>;
  /**
   * The tool the model calls to deliver a structured result (claude's `StructuredOutput`), and where the
   * blocking-JSON document carries that result. Absent when the host has no structured output.
   */
  readonly structuredOutput?: {
    readonly tool: string;
    /** The structured value in the blocking-JSON document's stdout, or `undefined` when there is none. */
    readonly read: (stdout: string) => unknown;
  };
}

/**
 * A field of a blocking-JSON result document (claude's one object, qwen's array of claude-shaped messages,
 * whose last `result` carries it): claude's `structured_output` by default, qwen's `structured_result`; or
 * `undefined` when there is none.
 *
 * @example
 * ```ts
 * import { structuredOutputField } from "./tool_behavior.ts";
 * structuredOutputField('{"type":"result","structured_output":{"answer":"x"}}'); // { answer: "x" }
 * ```
 */
export function structuredOutputField(stdout: string, field = "structured_output"): unknown {
  let document: unknown;
  try {
    document = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  const results = (Array.isArray(document) ? document : [document]).filter((item) =>
    typeof item === "object" && item !== null && (item as { type?: unknown }).type === "result"
  ) as Record<string, unknown>[];
  return results.at(-1)?.[field];
}
