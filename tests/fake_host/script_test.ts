import assert from "node:assert/strict";
import { DEFAULT_SCRIPT, parseScript, ScriptError } from "../../fake_host/script.ts";

const fenced = (...lines: string[]) => ["@@fake", ...lines, "@@end"].join("\n");

function scriptError(prompt: string): ScriptError {
  try {
    parseScript(prompt);
  } catch (error) {
    assert.ok(error instanceof ScriptError, `expected a ScriptError, got ${error}`);
    return error;
  }
  throw new assert.AssertionError({ message: `no error for ${JSON.stringify(prompt)}` });
}

Deno.test("no fence runs the default script", () => {
  assert.equal(parseScript("Reply with exactly: OK"), DEFAULT_SCRIPT);
  assert.deepEqual(DEFAULT_SCRIPT.directives.map((d) => d.verb), ["init", "text", "result"]);
});

Deno.test("directives parse with folded values, escapes, JSON, fractional sleeps and a dialect", () => {
  const script = parseScript(fenced(
    "# a comment",
    "",
    "  init model=m session=s dialect=gemini  ",
    "text one\\ntwo",
    'tool Bash {"command": "ls -l"}',
    "retry message=rate limited attempt=2 max=5",
    "sleep 0.05",
    "flood 1024",
    "stdin",
    "bytes 41ff",
    'result error=connection reset in=3 structured={"key": "value"}',
    "exit 1",
  ));
  assert.equal(script.dialect, "gemini");
  const [init, text, tool, retry, sleep, flood, stdin, bytes, result, exit] = script.directives;
  assert.deepEqual(init, { line: 4, verb: "init", model: "m", session: "s", dialect: "gemini" });
  assert.deepEqual(text, { line: 5, verb: "text", value: "one\ntwo" });
  assert.deepEqual(tool, { line: 6, verb: "tool", name: "Bash", input: { command: "ls -l" } });
  assert.deepEqual(retry, { line: 7, verb: "retry", message: "rate limited", attempt: 2, max: 5 });
  assert.deepEqual(sleep, { line: 8, verb: "sleep", seconds: 0.05 });
  assert.deepEqual(flood, { line: 9, verb: "flood", bytes: 1024 });
  assert.deepEqual(stdin, { line: 10, verb: "stdin" });
  assert.deepEqual(bytes, { line: 11, verb: "bytes", value: Uint8Array.from([0x41, 0xff]) });
  assert.deepEqual(result, {
    line: 12,
    verb: "result",
    error: "connection reset",
    in: 3,
    out: 0,
    cache: 0,
    structured: { key: "value" },
  });
  assert.deepEqual(exit, { line: 13, verb: "exit", code: 1 });
});

Deno.test("the fence is found anywhere in the prompt and line numbers count the whole prompt", () => {
  const error = scriptError("preamble\n\n@@fake\ntext ok\nnope\n@@end");
  assert.equal(error.message, "line 5: unknown directive 'nope'");
  assert.equal(error.line, 5);
});

const ERRORS: [string, string][] = [
  ["@@fake\ntext a", "line 1: '@@fake' with no matching '@@end'"],
  [fenced("frobnicate"), "line 2: unknown directive 'frobnicate'"],
  [fenced("init bogus"), "line 2: unrecognized token 'bogus'"],
  [fenced("text"), "line 2: 'text' requires a value"],
  [fenced("tool"), "line 2: 'tool' requires a name"],
  [fenced("tool T {nope"), "line 2: invalid tool json-input: "],
  [fenced("sleep soon"), "line 2: 'sleep' requires a numeric value"],
  [fenced("exit 1.5"), "line 2: 'exit' requires an integer code"],
  [fenced("hang now"), "line 2: 'hang' takes no arguments"],
  [fenced("flood lots"), "line 2: 'flood' requires a byte count"],
  [fenced("bytes 4"), "line 2: 'bytes' requires an even count of hex digits"],
  [fenced("init dialect=cobol"), "line 2: unknown dialect 'cobol'"],
  [fenced("result in=x"), "line 2: 'in' requires a non-negative integer, got 'x'"],
  [
    fenced("result", "turn_completed"),
    "line 3: multiple terminal directives (only one of result/turn_completed allowed)",
  ],
  [
    fenced("result", "text late"),
    "line 3: only 'raw', 'bytes', 'stderr', 'sleep', 'exit' or 'hang' may follow",
  ],
  [fenced("exit 0", "text a"), "line 2: 'exit' must be the last directive"],
  [fenced("hang", "exit 0"), "line 2: 'hang' must be the last directive"],
];

for (const [prompt, message] of ERRORS) {
  Deno.test(`script error: ${message}`, () => {
    const error = scriptError(prompt);
    assert.ok(
      error.message.startsWith(message),
      `${JSON.stringify(error.message)} should start with ${message}`,
    );
  });
}

Deno.test("deliberate misbehaviour may follow a terminal", () => {
  const script = parseScript(fenced("result", "raw late", "bytes 41", "stderr noise", "sleep 0", "hang"));
  assert.deepEqual(script.directives.map((d) => d.verb), [
    "result",
    "raw",
    "bytes",
    "stderr",
    "sleep",
    "hang",
  ]);
});
