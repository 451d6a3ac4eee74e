import assert from "node:assert/strict";
import { fakeHostCommand } from "../../src/exec/self.ts";
import { FAKE_DIALECTS } from "../../fake_host/script.ts";
import { DIALECT_WRITERS } from "../../fake_host/dialects.ts";

const decoder = new TextDecoder();
const fenced = (...lines: string[]) => ["@@fake", ...lines, "@@end"].join("\n");

/** Runs `conformance fake-host ARGS…` for real (stdin closed). */
async function fakeHost(...args: string[]) {
  const self = fakeHostCommand();
  const output = await new Deno.Command(self.binary, {
    detached: true,
    args: [...self.args, ...args],
    stdin: "null",
  })
    .output();
  const stdout = decoder.decode(output.stdout);
  return {
    code: output.code,
    stdout,
    stdoutBytes: output.stdout.length,
    lines: stdout.split("\n").filter((line) => line !== ""),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("a script error exits 2 with 'line N: …' on stderr and nothing on stdout", async () => {
  const run = await fakeHost(fenced("init", "nonsense here"));
  assert.equal(run.code, 2);
  assert.equal(run.stderr, "line 3: unknown directive 'nonsense'\n");
  assert.equal(run.stdout, "");
});

Deno.test("--version prints the version; the prompt is the argument holding the fence, else the last one", async () => {
  assert.equal((await fakeHost("--version")).stdout, "fake-host 1.0.0\n");
  const run = await fakeHost("run", fenced("init", "text picked", "result"), "--json-schema", "{}");
  assert.equal(run.code, 0);
  assert.match(run.lines[1] ?? "", /"text":"picked"/);
});

Deno.test("the default script answers OK in claude stream-json; exit, stderr and stdin directives work", async () => {
  const plain = await fakeHost("Reply with exactly: OK");
  assert.deepEqual(plain.lines.map((line) => JSON.parse(line).type), ["system", "assistant", "result"]);
  assert.equal(plain.stderr, "");
  const failing = await fakeHost(fenced("stdin", "stderr no auth", "exit 41"));
  assert.deepEqual([failing.code, failing.stdout, failing.stderr], [41, "", "no auth\n"]);
});

/** Per dialect: the marker of the first line, and of the success terminal line. */
const SHAPES: Record<string, { first: Record<string, unknown>; last: Record<string, unknown> }> = {
  claude: { first: { type: "system", subtype: "init" }, last: { type: "result", is_error: false } },
  qwen: { first: { type: "system", subtype: "init", permission_mode: "yolo" }, last: { type: "result" } },
  codex: { first: { type: "thread.started" }, last: { type: "turn.completed" } },
  gemini: { first: { type: "init" }, last: { type: "result", status: "success" } },
  opencode: { first: { type: "step_start" }, last: { type: "step_finish" } },
  pi: { first: { type: "session", version: 3 }, last: { type: "agent_end" } },
  kimi: {
    first: { role: "meta", type: "system.version" },
    last: { role: "meta", type: "session.resume_hint" },
  },
  droid: { first: { type: "system", subtype: "init" }, last: { type: "completion" } },
  // copilot has no session-start line: its stream opens with a session.* notice (skills_loaded when recorded).
  copilot: { first: { type: "session.tools_updated" }, last: { type: "result", exitCode: 0 } },
  // grok prints the conversation once the run is over: the prompt echoed, and here the tool's result last.
  grok: { first: { role: "user" }, last: { role: "tool" } },
  cline: {
    first: { type: "hook_event", hookEventName: "agent_start" },
    last: { type: "run_result", finishReason: "completed" },
  },
};

for (const dialect of FAKE_DIALECTS) {
  Deno.test(`dialect ${dialect}: every line is JSON, opening and ending as ${dialect} does`, async () => {
    const run = await fakeHost(
      fenced(`init dialect=${dialect}`, "text hi", 'tool Read {"path":"a"}', "result in=2 out=3"),
    );
    assert.equal(run.code, 0, run.stderr);
    if (DIALECT_WRITERS[dialect].plainText) {
      // A plain-text dialect (Continue's cn -p) prints the reply alone: no JSON, no tool activity.
      assert.equal(run.stdout.trim(), "hi");
      return;
    }
    const objects = run.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const shape = SHAPES[dialect]!;
    for (const [key, value] of Object.entries(shape.first)) assert.deepEqual(objects[0]?.[key], value, key);
    for (const [key, value] of Object.entries(shape.last)) {
      assert.deepEqual(objects.at(-1)?.[key], value, key);
    }
    assert.ok(run.stdout.includes("hi"), "the text reaches stdout");
    assert.ok(run.stdout.includes("Read"), "the tool call reaches stdout");
  });
}

Deno.test("error results follow each dialect: claude is_error, codex turn.failed, kimi stderr only", async () => {
  const claude = await fakeHost(fenced("init", "result error=boom"));
  assert.deepEqual(JSON.parse(claude.lines.at(-1)!).is_error, true);
  const codex = await fakeHost(fenced("init dialect=codex", "result error=boom"));
  assert.deepEqual(JSON.parse(codex.lines.at(-1)!), { type: "turn.failed", error: { message: "boom" } });
  const kimi = await fakeHost(fenced("init dialect=kimi", "result error=boom"));
  assert.equal(kimi.lines.length, 1);
  assert.equal(kimi.stderr, "error: failed to run prompt: boom\n");
  const qwen = await fakeHost(fenced("init dialect=qwen", "result error=boom"));
  assert.deepEqual(JSON.parse(qwen.lines.at(-1)!).error, { message: "boom" });
});

Deno.test("pi retries end each attempt with agent_end and announce the next", async () => {
  const run = await fakeHost(fenced("init dialect=pi", "retry message=Connection error.", "result"));
  const types = run.lines.map((line) => JSON.parse(line).type);
  assert.deepEqual(types, [
    "session",
    "agent_start",
    "message_end",
    "agent_end",
    "auto_retry_start",
    "agent_start",
    "message_end",
    "agent_end",
  ]);
});

Deno.test("json output holds the stream back and prints one document: the result, or qwen's array", async () => {
  const claude = await fakeHost(
    "--output-format",
    "json",
    fenced("init", "text a", 'result structured={"k":1}'),
  );
  assert.equal(claude.lines.length, 1);
  assert.deepEqual(JSON.parse(claude.lines[0]!).structured_output, { k: 1 });
  const qwen = await fakeHost("--output-format", "json", fenced("init dialect=qwen", "text a", "result"));
  assert.equal(qwen.lines.length, 1);
  assert.equal(JSON.parse(qwen.lines[0]!).length, 3);
  assert.equal((await fakeHost("--output-format", "yaml", "x")).code, 2);
});

Deno.test("flood emits exactly the requested bytes of valid JSON lines", async () => {
  const run = await fakeHost(fenced("flood 3000000"));
  assert.equal(run.stdoutBytes, 3_000_000);
  assert.ok(run.lines.every((line) => JSON.parse(line).type === "stream_event"));
});

Deno.test("hang keeps the process alive until a signal ends it", async () => {
  const self = fakeHostCommand();
  const child = new Deno.Command(self.binary, {
    args: [...self.args, fenced("init", "hang")],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  assert.match(decoder.decode(first.value), /"subtype":"init"/);
  const settled = await Promise.race([
    child.status.then(() => "exited"),
    new Promise((r) => setTimeout(r, 300, "alive")),
  ]);
  assert.equal(settled, "alive");
  Deno.kill(-child.pid, "SIGKILL");
  assert.equal((await child.status).signal, "SIGKILL");
  await reader.cancel();
});
