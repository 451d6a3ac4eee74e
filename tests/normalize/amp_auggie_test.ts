/**
 * amp and auggie reuse the claude dialect. Neither reaches the mock model (each calls only its vendor's own
 * service), so their fixture sets hold no success stream; this test holds the evidence for the reuse:
 *
 * - auggie: the line below is what the installed auggie 0.36.0 printed for `--print --output-format json`
 *   when its session's tenantURL named a throwaway loopback server answering Augment's `/chat-stream` with
 *   `{"text":"OK"}` (a scratch probe, not a fixture: the harness has no Augment tenant);
 * - amp: no run here emits a stream-json line (without a key it prompts for a browser login, with one it stops
 *   at its own server), so the lines below follow the shape amp's own documentation gives for
 *   `amp -x … --stream-json` (its "Streaming JSON" announcement): `system/init` with `cwd`, a `T-…` session id,
 *   `tools` and `mcp_servers`; the `user` echo of the prompt; `assistant` with an Anthropic message and its
 *   usage; `result` with `subtype`, `duration_ms`, `is_error`, `num_turns`, `result` (values are ours).
 */
import assert from "node:assert/strict";
import { amp } from "../../hosts/cli/amp.ts";
import { auggie } from "../../hosts/cli/auggie.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import { parseBlockingJson } from "../../src/normalize/mod.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const PROMPT = "Reply with exactly: OK";

function parse(runner: HostRunner, stdout: string, exitCode: number) {
  const argv = [...runner.build("streaming", { prompt: PROMPT }).args];
  return parseStream(runner, stdout, { argv, exitCode, signal: null, stderr: "" });
}

const AUGGIE_RESULT = JSON.stringify({
  type: "result",
  result: "OK",
  is_error: false,
  subtype: "success",
  session_id: "061ac704-5d91-4136-9948-4d32fd81c89e",
  num_turns: 0,
  request_id: "64d553b7-aaa2-44c1-870f-706b87be8e29",
});

Deno.test("auggie: its one JSON result is claude's result object, as a stream and as a blocking document", () => {
  assert.equal(auggie.runner.dialect, "claude");
  const events = parse(auggie.runner, AUGGIE_RESULT + "\n", 0);
  assert.deepEqual(events.map((event) => event.kind), ["terminal"]);
  assert.equal(events[0]?.kind === "terminal" && events[0].status, "success");
  assert.equal(events[0]?.kind === "terminal" && events[0].result, "OK");
  assert.deepEqual(parseBlockingJson(auggie.runner.dialect, AUGGIE_RESULT), {
    status: "success",
    result: "OK",
  });
  const failed = JSON.stringify({ ...JSON.parse(AUGGIE_RESULT), is_error: true, subtype: "error_max_turns" });
  assert.notEqual(parseBlockingJson(auggie.runner.dialect, failed).status, "success");
});

Deno.test("amp: its documented stream-json shape is claude stream-json, every line understood", () => {
  assert.equal(amp.runner.dialect, "claude");
  const session = "T-2f6d3c1e-0000-4000-8000-000000000001";
  const lines = [
    {
      type: "system",
      subtype: "init",
      cwd: "/w",
      session_id: session,
      tools: ["Bash", "Read"],
      mcp_servers: [],
    },
    {
      type: "user",
      message: { role: "user", content: [{ type: "text", text: PROMPT }] },
      parent_tool_use_id: null,
      session_id: session,
    },
    {
      type: "assistant",
      message: {
        type: "message",
        role: "assistant",
        content: [{ type: "text", text: "OK" }],
        stop_reason: "end_turn",
        usage: {
          input_tokens: 120,
          cache_creation_input_tokens: 4,
          cache_read_input_tokens: 8,
          output_tokens: 2,
        },
      },
      parent_tool_use_id: null,
      session_id: session,
    },
    {
      type: "result",
      subtype: "success",
      duration_ms: 1200,
      is_error: false,
      num_turns: 1,
      result: "OK",
      session_id: session,
    },
  ];
  const events = parse(amp.runner, lines.map((line) => JSON.stringify(line)).join("\n") + "\n", 0);
  assert.deepEqual(events.map((event) => event.kind), ["init", "text", "terminal"]);
  assert.equal(events[0]?.kind === "init" && events[0].sessionId, session);
  assert.equal(events[1]?.kind === "text" && events[1].text, "OK");
  assert.equal(events[2]?.kind === "terminal" && events[2].status, "success");
});

Deno.test("amp: the recorded login prompt on stdout is not JSON, and stays unparsed", () => {
  const stdout = Deno.readTextFileSync(
    new URL("../fixtures/cli/amp/no-credentials/stdout.jsonl", import.meta.url),
  );
  assert.match(stdout, /^No API key found\. Starting login flow\.\.\.$/m);
  const events = parse(amp.runner, stdout, 1);
  assert.ok(events.length > 0 && events.every((event) => event.kind === "unparsed"));
});
