/**
 * The grok dialect against what grok-cli 0.0.34 printed (`grok -p`): the conversation as OpenAI messages once
 * the run is over, its tool round trip, a failed model call printed as the reply with exit 0, and a thrown error.
 */
import assert from "node:assert/strict";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const HOST = { name: "grok", dialect: "grok" };
const FIXTURES = new URL("../fixtures/cli/grok/", import.meta.url);
const kinds = (events: NormalizedEvent[]) => events.map((event) => event.kind);
const terminal = (events: NormalizedEvent[]) => events.find((e): e is TerminalEvent => e.kind === "terminal");
const replay = (kase: string) => {
  const read = (file: string) => Deno.readTextFileSync(new URL(`${kase}/${file}`, FIXTURES));
  const meta = JSON.parse(read("meta.json")) as { exitCode: number | null; signal: string | null };
  return parseStream(HOST, read("stdout.jsonl"), {
    argv: JSON.parse(read("argv.json")),
    exitCode: meta.exitCode,
    signal: meta.signal,
    stderr: read("stderr.txt"),
  });
};

Deno.test("grok: the echoed prompt is no event; the reply is the text; init and terminal are synthetic", () => {
  const events = replay("mock-ok");
  assert.deepEqual(kinds(events), ["init", "text", "terminal"]);
  assert.equal(events[0]?.synthetic, true);
  assert.equal(events[1]?.kind === "text" && events[1].text, "OK");
  assert.equal(terminal(events)?.status, "success");
  assert.equal(terminal(events)?.result, "OK");
});

Deno.test("grok: a tool round trip is tool_call then tool_result with one id; grok's filler text is dropped", () => {
  const events = replay("mock-tool-call");
  assert.deepEqual(kinds(events), ["init", "tool_call", "tool_result", "text", "terminal"]);
  const call = events[1];
  const result = events[2];
  assert.ok(call?.kind === "tool_call" && result?.kind === "tool_result");
  assert.equal(call.name, "view_file");
  assert.equal(call.id, result.id);
  assert.match(String(result.output), /conformance probe/);
  assert.equal(terminal(events)?.result, "DONE");
});

Deno.test("grok: a failed model call is the reply with exit 0, read as grok says (success)", () => {
  const events = replay("mock-http-500");
  assert.equal(terminal(events)?.status, "success");
  assert.match(terminal(events)?.result ?? "", /^Sorry, I encountered an error: Grok API error: 500/);
});

Deno.test("grok: a thrown error's last line and a missing key's stderr line are the error terminal's reason", () => {
  const thrown = parseStream(
    HOST,
    '{"role":"user","content":"P"}\n{"role":"assistant","content":"Error: boom"}\n',
    { exitCode: 1 },
  );
  assert.equal(terminal(thrown)?.status, "error");
  assert.equal(terminal(thrown)?.reason, "Error: boom (exit 1)");
  const noKey = replay("no-credentials");
  assert.deepEqual(kinds(noKey), ["init", "terminal"]);
  assert.match(terminal(noKey)?.reason ?? "", /API key required.*\(exit 1\)$/);
  assert.deepEqual(kinds(parseStream(HOST, "not json\n", { exitCode: 0 })), ["init", "unparsed", "terminal"]);
});
