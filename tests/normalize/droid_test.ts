/**
 * The droid dialect against lines recorded from droid 0.225.2 (`droid exec --output-format stream-json`): a
 * tool round trip against the scripted mock model, the recorded fixtures' failures, and the blocking document.
 */
import assert from "node:assert/strict";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { parseBlockingJson } from "../../src/normalize/mod.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const HOST = { name: "droid", dialect: "droid" };
const FIXTURES = new URL("../fixtures/cli/droid/", import.meta.url);
const kinds = (events: NormalizedEvent[]) => events.map((event) => event.kind);
const terminal = (events: NormalizedEvent[]) => events.find((e): e is TerminalEvent => e.kind === "terminal");
const fixture = (kase: string) => ({
  stdout: Deno.readTextFileSync(new URL(`${kase}/stdout.jsonl`, FIXTURES)),
  stderr: Deno.readTextFileSync(new URL(`${kase}/stderr.txt`, FIXTURES)),
  meta: JSON.parse(Deno.readTextFileSync(new URL(`${kase}/meta.json`, FIXTURES))) as {
    exitCode: number | null;
  },
});
const replay = (kase: string) => {
  const { stdout, stderr, meta } = fixture(kase);
  return parseStream(HOST, stdout, { exitCode: meta.exitCode, stderr });
};

// Recorded against the scripted mock model answering with a Read tool call, then "DONE".
const TOOL_ROUND_TRIP = [
  '{"type":"system","subtype":"init","cwd":"$HOME/work","session_id":"807d2ff5","tools":["Read","LS","Execute"],"model":"custom:mock-0","reasoning_effort":"none"}',
  '{"type":"message","role":"user","id":"fd680c26","text":"read README","timestamp":1796139833579,"session_id":"807d2ff5"}',
  '{"type":"tool_call","id":"call_conformance_1","messageId":"be34250b","toolId":"Read","toolName":"Read","parameters":{"file_path":"$HOME/work/README"},"timestamp":1796139833751,"session_id":"807d2ff5"}',
  '{"type":"tool_result","id":"call_conformance_1","messageId":"78a01721","toolId":"Read","isError":false,"value":"hello\\n","timestamp":1796139833867,"session_id":"807d2ff5"}',
  '{"type":"message","role":"assistant","id":"7bc0c99d","text":"DONE","timestamp":1796139834087,"session_id":"807d2ff5"}',
  '{"type":"completion","finalText":"DONE","numTurns":2,"durationMs":1350,"session_id":"807d2ff5","timestamp":1796139834154,"usage":{"input_tokens":304,"output_tokens":18,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"factory_credits":0,"ttft_ms":45}}',
];

Deno.test("droid: init, the echoed prompt dropped, a tool round trip, text, usage and the completion", () => {
  const events = parseStream(HOST, TOOL_ROUND_TRIP.join("\n") + "\n");
  assert.deepEqual(kinds(events), ["init", "tool_call", "tool_result", "text", "usage", "terminal"]);
  const [init, call, result] = events;
  assert.equal(init?.kind === "init" && init.sessionId, "807d2ff5");
  assert.equal(init?.kind === "init" && init.model, "custom:mock-0");
  assert.deepEqual(call?.kind === "tool_call" && [call.id, call.name, call.input], [
    "call_conformance_1",
    "Read",
    { file_path: "$HOME/work/README" },
  ]);
  assert.deepEqual(result?.kind === "tool_result" && [result.id, result.output, result.isError], [
    "call_conformance_1",
    "hello\n",
    false,
  ]);
  const usage = events.find((event) => event.kind === "usage");
  assert.deepEqual(usage?.kind === "usage" && [usage.input, usage.output, usage.scope], [304, 18, "run"]);
  assert.equal(terminal(events)?.status, "success");
  assert.equal(terminal(events)?.result, "DONE");
});

Deno.test("droid: an agent-loop error is not the end; the cli error after it is the one terminal", () => {
  const events = replay("mock-malformed");
  assert.deepEqual(kinds(events), ["init", "error", "terminal"]);
  assert.match(events[1]?.kind === "error" ? events[1].message : "", /no usable output/);
  assert.equal(terminal(events)?.status, "error");
  assert.equal(terminal(events)?.reason, "Exec failed");
  assert.equal(terminal(events)?.synthetic, false);
});

Deno.test("droid: no credentials is init then the cli error naming FACTORY_API_KEY, exit 1", () => {
  const recorded = fixture("no-credentials");
  assert.equal(recorded.meta.exitCode, 1);
  const events = replay("no-credentials");
  assert.deepEqual(kinds(events), ["init", "terminal"]);
  assert.match(terminal(events)?.reason ?? "", /FACTORY_API_KEY/);
});

Deno.test("droid: a stream cut off without its end gets a synthetic error terminal quoting stderr", () => {
  const events = parseStream(HOST, TOOL_ROUND_TRIP.slice(0, 2).join("\n") + "\n", {
    exitCode: 1,
    stderr: "Invalid model: custom:nope\n\nAvailable built-in models:\n",
  });
  assert.deepEqual(kinds(events), ["init", "terminal"]);
  assert.equal(terminal(events)?.synthetic, true);
  assert.equal(terminal(events)?.reason, "Invalid model: custom:nope (exit 1)");
  assert.deepEqual(kinds(parseStream(HOST, '{"type":"mystery"}\nnot json\n')), [
    "unparsed",
    "unparsed",
    "terminal",
  ]);
});

Deno.test("droid: the blocking document is claude's result object; a failure's reason is its message", () => {
  // Both recorded from droid exec --output-format json (mock model; no credentials).
  assert.deepEqual(
    parseBlockingJson(
      "droid",
      '{"type":"result","subtype":"success","is_error":false,"duration_ms":1500,"num_turns":1,"result":"OK","session_id":"b2fd2eb2","usage":{"input_tokens":3529,"output_tokens":1}}',
    ),
    { status: "success", result: "OK" },
  );
  const failed = parseBlockingJson(
    "droid",
    '{"type":"result","subtype":"failure","is_error":true,"duration_ms":49,"num_turns":0,"result":"Authentication failed. Please log in using /login or set a valid FACTORY_API_KEY environment variable.","session_id":"08baff33"}',
  );
  assert.equal(failed.status, "error");
  assert.match(failed.reason ?? "", /^Authentication failed/);
});
