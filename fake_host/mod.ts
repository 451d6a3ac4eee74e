/**
 * The fake host CLI, run as `conformance fake-host [ARGS…]`: a coding-agent CLI whose whole behaviour is a
 * script in its prompt (see `script.ts`), so the harness can reproduce every stream shape and failure of real
 * hosts without a model. Startup stays cheap: this module imports nothing outside `fake_host/`.
 *
 * Arguments: an optional leading `run` subcommand; `--version`; `--output-format stream-json|json|text` (json:
 * one document at the end, like a blocking call; text: only the assistant text, like a detached print run); flags that take a value (`--model`, `--agent`, `--tools`,
 * `--json-schema`, `--resume`) are accepted and ignored. The prompt is the argument containing `@@fake`, else
 * the last positional argument.
 *
 * @module
 */
import { DIALECT_WRITERS, type Emission, turnCompletedLine } from "./dialects.ts";
import { type FakeScript, parseScript, ScriptError } from "./script.ts";

/** The version `--version` prints. */
export const FAKE_HOST_VERSION = "fake-host 1.0.0";

const VALUE_FLAGS = new Set([
  "--output-format",
  "--model",
  "--agent",
  "--tools",
  "--json-schema",
  "--resume",
]);
const FLOOD_LINE_BYTES = 1 << 20;
const encoder = new TextEncoder();

/** What the fake host was asked to do, from its argv. */
export interface FakeArgs {
  readonly version: boolean;
  readonly outputFormat: "stream-json" | "json" | "text";
  readonly prompt: string;
}

/**
 * Reads the fake host's argv. Throws `TypeError` on an unknown output format.
 *
 * @example
 * ```ts
 * import { parseFakeArgs } from "./mod.ts";
 * parseFakeArgs(["run", "--output-format", "json", "hello"]).prompt; // "hello"
 * ```
 */
export function parseFakeArgs(args: readonly string[]): FakeArgs {
  let version = false;
  let outputFormat: FakeArgs["outputFormat"] = "stream-json";
  const positionals: string[] = [];
  for (let index = args[0] === "run" ? 1 : 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (arg === "--version" || arg === "-v") version = true;
    else if (VALUE_FLAGS.has(arg)) {
      const value = args[++index] ?? "";
      if (arg !== "--output-format") continue;
      if (value !== "json" && value !== "stream-json" && value !== "text") {
        throw new TypeError(`Unknown output format "${value}": use "stream-json", "json" or "text"`);
      }
      outputFormat = value;
    } else positionals.push(arg);
  }
  const prompt = args.find((arg) => arg.includes("@@fake")) ?? positionals.at(-1) ?? "";
  return { version, outputFormat, prompt };
}

/**
 * Runs the fake host and resolves to its exit code (2 for a usage or script error). A `hang` directive
 * never resolves. Writes go straight to the file descriptors, one whole line at a time.
 */
export async function main(args: string[]): Promise<number> {
  let parsed: FakeArgs;
  let script: FakeScript;
  try {
    parsed = parseFakeArgs(args);
    if (parsed.version) {
      writeLines(Deno.stdout, [FAKE_HOST_VERSION]);
      return 0;
    }
    script = parseScript(parsed.prompt);
  } catch (error) {
    if (!(error instanceof ScriptError || error instanceof TypeError)) throw error;
    writeLines(Deno.stderr, [error.message]);
    return 2;
  }
  return await play(script, parsed.outputFormat);
}

/** The variable naming the fake's flaw, set by its broken variants' host entries (hosts/cli/fake_variants.ts). */
export const FAKE_FLAW_ENV = "CONFORMANCE_FAKE_FLAW";

async function play(script: FakeScript, outputFormat: FakeArgs["outputFormat"]): Promise<number> {
  const writer = DIALECT_WRITERS[script.dialect];
  // The one flaw: a banner on stderr before the script, as some CLIs print one.
  if (Deno.env.get(FAKE_FLAW_ENV) === "stderr-banner") writeLines(Deno.stderr, ["fake-host: ready"]);
  // In json mode the stream is held back and one document is written at the end, as blocking calls do.
  const held: string[] = [];
  const emit = (emission: Emission, text?: string) => {
    if (outputFormat === "json") held.push(...emission.stdout);
    else if (outputFormat === "stream-json") writeLines(Deno.stdout, emission.stdout);
    else if (text !== undefined) writeLines(Deno.stdout, [text]);
    writeLines(Deno.stderr, emission.stderr);
  };
  let exitCode = 0;
  let n = 0;
  for (const directive of script.directives) {
    switch (directive.verb) {
      case "init":
        emit(writer.init(directive));
        break;
      case "text":
        emit(writer.text(directive.value, n++), directive.value);
        break;
      case "tool":
        emit(writer.tool(directive.name, directive.input, n++));
        break;
      case "retry":
        emit(writer.retry(directive));
        break;
      case "result":
        emit(writer.result(directive));
        break;
      case "turn_completed":
        emit({ stdout: [turnCompletedLine(directive)], stderr: [] });
        break;
      case "raw":
        writeLines(Deno.stdout, [directive.value]);
        break;
      case "bytes":
        writeAll(Deno.stdout, Uint8Array.from([...directive.value, 10]));
        break;
      case "stderr":
        writeLines(Deno.stderr, [directive.value]);
        break;
      case "sleep":
        await new Promise((resolve) => setTimeout(resolve, directive.seconds * 1000));
        break;
      case "flood":
        flood(writer.padding(FLOOD_LINE_BYTES - 1), directive.bytes, writer.padding);
        break;
      case "stdin":
        await drainStdin();
        break;
      case "exit":
        exitCode = directive.code;
        break;
      case "hang":
        flushHeld(held, script.dialect);
        return await hang();
    }
  }
  flushHeld(held, script.dialect);
  return exitCode;
}

function flushHeld(held: string[], dialect: FakeScript["dialect"]): void {
  if (held.length === 0) return;
  const writer = DIALECT_WRITERS[dialect];
  const document = writer.blockingDocument ? writer.blockingDocument(held) : held.at(-1) ?? "";
  held.length = 0;
  writeLines(Deno.stdout, [document]);
}

function flood(line: string, bytes: number, padding: (bytes: number) => string): void {
  const whole = encoder.encode(line + "\n");
  let left = bytes;
  while (left >= whole.length) {
    writeAll(Deno.stdout, whole);
    left -= whole.length;
  }
  if (left > 1) writeLines(Deno.stdout, [padding(left - 1)]);
}

async function drainStdin(): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  while ((await Deno.stdin.read(buffer)) !== null) { /* a host that waits for piped input */ }
}

function hang(): Promise<never> {
  // A pending timer keeps the event loop (and so the process) alive until a signal ends it.
  setInterval(() => {}, 1 << 30);
  return new Promise<never>(() => {});
}

function writeLines(target: { writeSync(p: Uint8Array): number }, lines: readonly string[]): void {
  for (const line of lines) writeAll(target, encoder.encode(line + "\n"));
}

function writeAll(target: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += target.writeSync(bytes.subarray(written));
}
