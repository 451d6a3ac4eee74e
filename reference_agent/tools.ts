/**
 * The reference agent's tools and the rules it runs them by. Read reads a file; Write writes one and Bash runs
 * `sh -c` in the working folder, both only with the permission bypass (print mode has nobody to ask); Write
 * only inside the workspace root when one is set; StructuredOutput, offered only with a JSON schema, takes the
 * answer. With an allow-list only the listed tools are offered, and a call to any other is refused. A refused
 * or failed call is answered with an error result, which goes back to the model and into the stream.
 *
 * @module
 */
import type { Flaw } from "./flaws.ts";
import type { ToolSpec, WireToolCall } from "./model.ts";

/** The rules a run's tools follow, from its argv. */
export interface ToolPolicy {
  readonly bypass: boolean;
  /** The tools offered and run; `null`: all. */
  readonly allowed: readonly string[] | null;
  /** The folder writes are confined to (its real path); `null`: none. */
  readonly root: string | null;
  readonly schema: Record<string, unknown> | null;
  readonly cwd: string;
  readonly flaw: Flaw | null;
}

/** What a tool call gave back. */
export interface ToolOutcome {
  readonly content: string;
  readonly isError: boolean;
  /** The call was refused by the run's rules (a denial, not a failure). */
  readonly denied: boolean;
  /** The StructuredOutput tool's accepted answer. */
  readonly structured?: unknown;
}

const STRING = { type: "string" };

const BUILTIN: readonly ToolSpec[] = [
  {
    name: "Read",
    description: "Read a text file",
    parameters: { type: "object", properties: { path: STRING }, required: ["path"] },
  },
  {
    name: "Write",
    description: "Write a text file",
    parameters: {
      type: "object",
      properties: { path: STRING, content: STRING },
      required: ["path", "content"],
    },
  },
  {
    name: "Bash",
    description: "Run a shell command in the working folder",
    parameters: { type: "object", properties: { command: STRING }, required: ["command"] },
  },
];

const NEEDS_PERMISSION = new Set(["Write", "Bash"]);

/** The tools a run offers the model. */
export function offeredTools(policy: ToolPolicy): ToolSpec[] {
  const allowed = policy.flaw === "ignores-allowlist" ? null : policy.allowed;
  const tools = BUILTIN.filter((tool) => allowed === null || allowed.includes(tool.name));
  const schema = policy.flaw === "ignores-schema" ? null : policy.schema;
  if (schema || policy.flaw === "offers-structured-output-unasked") {
    tools.push({
      name: "StructuredOutput",
      description: "Give the final answer as JSON matching the schema",
      parameters: schema ?? { type: "object" },
    });
  }
  return tools;
}

/** Runs one tool call under the policy. Never throws for the call's own failure: it is an error result. */
export async function runTool(call: WireToolCall, policy: ToolPolicy): Promise<ToolOutcome> {
  const name = call.function.name;
  if (!offeredTools(policy).some((tool) => tool.name === name)) {
    return refused(`tool "${name}" is not available in this run`);
  }
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(call.function.arguments);
  } catch {
    return failed(`the arguments of ${name} are not JSON`);
  }
  const permitted = policy.bypass || policy.flaw === "runs-tools-without-bypass";
  if (NEEDS_PERMISSION.has(name) && !permitted) {
    return refused(`permission denied: ${name} needs --dangerously-skip-permissions in print mode`);
  }
  try {
    switch (name) {
      case "Read":
        return ok(await Deno.readTextFile(resolve(policy.cwd, text(input.path))));
      case "Write":
        return await write(input, policy);
      case "Bash":
        return ok(await shell(text(input.command), policy.cwd));
      default:
        return structured(input, policy.schema);
    }
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
}

async function write(input: Record<string, unknown>, policy: ToolPolicy): Promise<ToolOutcome> {
  if (policy.flaw === "refuses-writes") return refused("writes are disabled");
  const path = resolve(policy.cwd, text(input.path));
  const root = policy.flaw === "writes-outside-root" ? null : policy.root;
  if (root !== null && !inside(await realParent(path), root)) {
    return refused(`${path} is outside the workspace root ${root}`);
  }
  await Deno.writeTextFile(path, text(input.content));
  return ok(`wrote ${path}`);
}

async function shell(command: string, cwd: string): Promise<string> {
  const done = await new Deno.Command("sh", { args: ["-c", command], cwd, stdin: "null" }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trimEnd();
  return [`exit ${done.code}`, decode(done.stdout), decode(done.stderr)].filter(Boolean).join("\n");
}

function structured(input: Record<string, unknown>, schema: Record<string, unknown> | null): ToolOutcome {
  const problem = schema ? mismatch(input, schema) : null;
  if (problem) return failed(`the answer does not match the schema: ${problem}`);
  return { ...ok("accepted"), structured: input };
}

/**
 * What keeps `value` from matching `schema`, or `null`: the object keywords a structured answer's schema uses
 * (type, properties, required, additionalProperties) and the scalar types.
 */
export function mismatch(value: unknown, schema: Record<string, unknown>, at = "$"): string | null {
  const type = schema.type;
  const actual = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  if (typeof type === "string" && type !== actual && !(type === "integer" && Number.isInteger(value))) {
    return `${at} is ${actual}, not ${type}`;
  }
  if (actual !== "object") return null;
  const object = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const key of (schema.required ?? []) as string[]) {
    if (!(key in object)) return `${at}.${key} is missing`;
  }
  for (const [key, item] of Object.entries(object)) {
    const property = properties[key];
    if (property) {
      const inner = mismatch(item, property, `${at}.${key}`);
      if (inner) return inner;
    } else if (schema.additionalProperties === false) return `${at}.${key} is not allowed`;
  }
  return null;
}

/** `path` made absolute against `cwd`, with `.` and `..` resolved. */
export function resolve(cwd: string, path: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "" && part !== ".") parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** The real path of the nearest existing folder holding `path` (links resolved), joined with the rest. */
async function realParent(path: string): Promise<string> {
  const cut = path.lastIndexOf("/");
  const folder = path.slice(0, cut) || "/";
  try {
    return `${await Deno.realPath(folder)}/${path.slice(cut + 1)}`;
  } catch {
    return folder === "/" ? path : `${await realParent(folder)}/${path.slice(cut + 1)}`;
  }
}

/** Whether `path` is `root` or below it. */
export function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function text(value: unknown): string {
  if (typeof value !== "string") throw new TypeError(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}

function ok(content: string): ToolOutcome {
  return { content, isError: false, denied: false };
}

function failed(content: string): ToolOutcome {
  return { content: `Error: ${content}`, isError: true, denied: false };
}

function refused(content: string): ToolOutcome {
  return { content: `Refused: ${content}`, isError: true, denied: true };
}
