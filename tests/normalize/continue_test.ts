/**
 * The continue dialect against what cn 1.5.47 printed (`cn -p`, and `cn -p --format json`): the recorded
 * fixtures' reply and failures, the JSON wrapper, and the blocking document.
 */
import assert from "node:assert/strict";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { parseBlockingJson } from "../../src/normalize/mod.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const HOST = { name: "continue", dialect: "continue" };
const FIXTURES = new URL("../fixtures/cli/continue/", import.meta.url);
const kinds = (events: NormalizedEvent[]) => events.map((event) => event.kind);
const terminal = (events: NormalizedEvent[]) => events.find((e): e is TerminalEvent => e.kind === "terminal");
const replay = (kase: string) => {
  const read = (file: string) => Deno.readTextFileSync(new URL(`${kase}/${file}`, FIXTURES));
  const meta = JSON.parse(read("meta.json")) as { exitCode: number | null; signal: string | null };
  return {
    meta,
    events: parseStream(HOST, read("stdout.jsonl"), {
      argv: JSON.parse(read("argv.json")),
      exitCode: meta.exitCode,
      signal: meta.signal,
      stderr: read("stderr.txt"),
    }),
  };
};

Deno.test("continue: the printed reply is the text; init and terminal are synthetic; exit 0 is success", () => {
  const { events } = replay("mock-ok");
  assert.deepEqual(kinds(events), ["init", "text", "terminal"]);
  assert.equal(events[0]?.synthetic, true);
  assert.equal(events[1]?.kind === "text" && events[1].text, "OK");
  assert.equal(terminal(events)?.status, "success");
  assert.equal(terminal(events)?.result, "OK");
  const multi = parseStream(HOST, "line one\n\nline two\n");
  assert.deepEqual(kinds(multi), ["init", "text", "text", "terminal"]);
  assert.equal(terminal(multi)?.result, "line one\nline two");
});

Deno.test("continue: a failure is the stderr error object's message with the exit code", () => {
  const none = replay("no-credentials");
  assert.equal(none.meta.exitCode, 1);
  assert.deepEqual(kinds(none.events), ["init", "terminal"]);
  assert.equal(
    terminal(none.events)?.reason,
    "The request failed and the interceptors did not return an alternative response (exit 1)",
  );
  assert.equal(terminal(replay("unreachable-endpoint").events)?.reason, "Connection error. (exit 1)");
  const killed = replay("mock-http-500");
  assert.equal(killed.meta.exitCode, null, "cn was still retrying at the recorder's limit");
  assert.equal(terminal(killed.events)?.status, "error");
  assert.match(terminal(killed.events)?.reason ?? "", /^killed by SIGTERM/);
});

Deno.test("continue: a malformed model body is an empty reply with exit 0, read as cn says (success)", () => {
  const { meta, events } = replay("mock-malformed");
  assert.equal(meta.exitCode, 0);
  assert.deepEqual(kinds(events), ["init", "terminal"]);
  assert.equal(terminal(events)?.status, "success");
  assert.equal(terminal(events)?.result, "");
});

Deno.test("continue: with --format json the wrapper's response is the text; compaction notices are not", () => {
  const argv = ["-p", "--auto", "--format", "json", "P"];
  const events = parseStream(
    HOST,
    [
      '{"status":"info","message":"Auto-compacting triggered","contextUsage":"91%"}',
      '{"status":"warning","message":"Auto-compaction failed, continuing without compaction"}',
      '{"response":"OK","status":"success","note":"Response was not valid JSON, so it was wrapped in a JSON object"}',
    ].join("\n") + "\n",
    { argv },
  );
  assert.deepEqual(kinds(events), ["init", "error", "text", "terminal"]);
  assert.equal(terminal(events)?.result, "OK");
  // A reply that is itself JSON is printed as it is: it is the reply text.
  const raw = parseStream(HOST, '{"answer":42}\n', { argv });
  assert.deepEqual(kinds(raw), ["init", "text", "terminal"]);
  assert.equal(terminal(raw)?.result, '{"answer":42}');
});

Deno.test("continue: the blocking document is the wrapper, or the reply's own JSON", () => {
  // Recorded from cn -p --format json against the mock model.
  assert.deepEqual(
    parseBlockingJson(
      "continue",
      '{"response":"OK","status":"success","note":"Response was not valid JSON, so it was wrapped in a JSON object"}',
    ),
    { status: "success", result: "OK" },
  );
  assert.deepEqual(parseBlockingJson("continue", '{"status":"error","message":"Connection error."}'), {
    status: "error",
    reason: "Connection error.",
  });
  assert.deepEqual(parseBlockingJson("continue", '{"answer":42}\n'), {
    status: "success",
    result: '{"answer":42}',
  });
  assert.throws(() => parseBlockingJson("continue", ""), SyntaxError);
});

Deno.test("conformance parse of a recording killed at its limit keeps the null exit: an error terminal", async () => {
  const io = memoryIo();
  const killed = new URL("mock-http-500/", FIXTURES).pathname;
  assert.equal(await runCli(["parse", "--host", "continue", killed], io), 0);
  const events = io.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as NormalizedEvent);
  assert.equal(terminal(events)?.status, "error");
  assert.match(terminal(events)?.reason ?? "", /^killed by SIGTERM/);
});
