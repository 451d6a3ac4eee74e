/** `parseStream` and `parseBlockingJson`: line splitting, output format, the blocking documents. */
import assert from "node:assert/strict";
import { parseBlockingJson } from "../../src/normalize/mod.ts";
import { eventsToJsonLines, parseStream } from "../../src/normalize/parse.ts";

const gemini = { name: "gemini", dialect: "gemini" };

Deno.test("parseStream splits on \\n only: U+2028 inside a JSON string stays in the line", () => {
  const text = JSON.stringify({
    type: "message",
    role: "assistant",
    content: "a\u2028b\u2029c",
    delta: true,
  });
  const events = parseStream(gemini, text);
  assert.equal(events.length, 1);
  assert.equal(events[0]?.kind === "text" && events[0].text, "a\u2028b\u2029c");
});

Deno.test("parseStream reads a last line without a newline, and keeps a blank line as unparsed", () => {
  const events = parseStream(gemini, '{"type":"init"}\n\n{"type":"result","status":"success"}');
  assert.deepEqual(events.map((event) => event.kind), ["init", "unparsed", "terminal"]);
  assert.equal(parseStream(gemini, "").length, 0);
});

Deno.test("eventsToJsonLines prints one object per line with kind and status", () => {
  const events = parseStream(gemini, '{"type":"init","model":"m"}\n{"type":"result","status":"success"}\n');
  const lines = eventsToJsonLines(events).trimEnd().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines.length, 2);
  assert.equal(lines[0].kind, "init");
  assert.equal(lines[1].kind, "terminal");
  assert.equal(lines[1].status, "success");
  assert.equal(lines[1].host, "gemini");
  assert.equal(eventsToJsonLines([]), "");
});

Deno.test("parseStream refuses an unknown dialect by name", () => {
  assert.throws(() => parseStream({ name: "x", dialect: "nope" }, ""), /Unknown normaliser dialect "nope"/);
});

Deno.test("parseBlockingJson reads claude's object, gemini's pretty document and qwen's array", () => {
  assert.deepEqual(parseBlockingJson("claude", '{"type":"result","is_error":false,"result":"OK"}'), {
    status: "success",
    result: "OK",
  });
  const claudeError = parseBlockingJson(
    "claude",
    '{"type":"result","subtype":"success","is_error":true,"result":"x"}',
  );
  assert.equal(claudeError.status, "error");
  assert.deepEqual(
    parseBlockingJson("gemini", JSON.stringify({ session_id: "s", response: "OK", stats: {} }, null, 2)),
    { status: "success", result: "OK" },
  );
  assert.equal(parseBlockingJson("gemini", '{"error":{"message":"auth"}}').reason, "auth");
  const qwen = parseBlockingJson(
    "qwen",
    JSON.stringify([{ type: "system" }, {
      type: "result",
      is_error: false,
      result: "OK",
      structured_result: { a: 1 },
    }]),
  );
  assert.deepEqual(qwen, { status: "success", result: "OK", structured: { a: 1 } });
  assert.equal(
    parseBlockingJson("qwen", '[{"type":"result","is_error":true,"error":{"message":"m"}}]').reason,
    "m",
  );
});

Deno.test("parseBlockingJson says what it got when stdout is not a document", () => {
  assert.throws(() => parseBlockingJson("claude", "{oops"), (error: unknown) => {
    assert.ok(error instanceof SyntaxError);
    assert.match(error.message, /not one JSON document.*\{oops/);
    return true;
  });
  assert.throws(() => parseBlockingJson("claude", '{"type":"assistant"}'), /expected a "result" object/);
  assert.throws(() => parseBlockingJson("qwen", "[]"), /no result element/);
});
