/**
 * The copilot and cline dialects against the streams recorded from the pinned binaries
 * (tests/fixtures/cli/{copilot,cline}/, `deno task record:fixtures --host copilot,cline`): what each run's
 * events are, and the pitfalls the normalisers handle (copilot's missing init and its `exitCode: 0` after an
 * abort, cline's trailing lines after `run_result`).
 */
import assert from "node:assert/strict";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const kinds = (events: NormalizedEvent[]) => events.map((event) => event.kind);
const terminal = (events: NormalizedEvent[]) => events.find((e): e is TerminalEvent => e.kind === "terminal");

function replay(host: string, kase: string): NormalizedEvent[] {
  const dir = new URL(`../fixtures/cli/${host}/${kase}/`, import.meta.url);
  const meta = JSON.parse(Deno.readTextFileSync(new URL("meta.json", dir))) as {
    exitCode: number | null;
    signal: string | null;
  };
  return parseStream({ name: host, dialect: host }, Deno.readTextFileSync(new URL("stdout.jsonl", dir)), {
    argv: JSON.parse(Deno.readTextFileSync(new URL("argv.json", dir))),
    exitCode: meta.exitCode,
    signal: meta.signal,
    stderr: Deno.readTextFileSync(new URL("stderr.txt", dir)),
  });
}

Deno.test("copilot mock-ok: a synthetic init with the model from argv, the whole message once, result last", () => {
  const events = replay("copilot", "mock-ok");
  assert.deepEqual(kinds(events), ["init", "text", "terminal"]);
  const [init, text] = events;
  assert.equal(init?.kind === "init" && init.synthetic, true);
  assert.equal(init?.kind === "init" && init.model, "mock-model");
  assert.equal(text?.kind === "text" && text.text, "OK");
  assert.equal(text?.kind === "text" && text.delta, false);
  const end = terminal(events);
  assert.equal(end?.status, "success");
  assert.equal(end?.synthetic, false);
  assert.equal(end?.exitCode, 0);
  assert.equal(end?.result, "OK");
});

Deno.test("copilot without credentials: nothing on stdout, exit 1, an error terminal quoting stderr", () => {
  const events = replay("copilot", "no-credentials");
  assert.deepEqual(kinds(events), ["terminal"]);
  const end = terminal(events);
  assert.equal(end?.status, "error");
  assert.equal(end?.synthetic, true);
  assert.match(end?.reason ?? "", /No authentication information found/);
});

Deno.test("copilot HTTP 500: five retries, the session error, then an error result (exit 1)", () => {
  const events = replay("copilot", "mock-http-500");
  assert.equal(events.filter((event) => event.kind === "retry").length, 5);
  const error = events.find((event) => event.kind === "error");
  assert.match(error?.kind === "error" ? error.message : "", /retried 5 times.*500/);
  const end = terminal(events);
  assert.equal(end?.status, "error");
  assert.equal(end?.exitCode, 1);
  assert.match(end?.reason ?? "", /injected internal server error/);
  assert.equal(kinds(events).at(-1), "terminal");
});

Deno.test("copilot disconnect: the cut streams' fragments are not text; an error result", () => {
  const events = replay("copilot", "mock-disconnect");
  assert.equal(events.filter((event) => event.kind === "text").length, 0);
  assert.equal(terminal(events)?.status, "error");
});

Deno.test("copilot stopped by SIGTERM mid-retry: the result says exitCode 0 after abort, the terminal is cancelled", () => {
  const events = replay("copilot", "unreachable-endpoint");
  const end = terminal(events);
  assert.equal(end?.exitCode, 0, "the recorded result line claims exit code 0");
  assert.equal(end?.status, "cancelled");
  assert.match(end?.reason ?? "", /^aborted \(user_abort\)/);
});

Deno.test("cline mock-ok: agent_start is the init, content_end the text, run_result the usage and terminal", () => {
  const events = replay("cline", "mock-ok");
  assert.deepEqual(kinds(events), ["init", "text", "usage", "terminal"]);
  const [init, text, usage] = events;
  assert.match(init?.kind === "init" ? init.sessionId ?? "" : "", /^conv_/);
  assert.equal(init?.kind === "init" && init.model, "mock-model");
  assert.equal(text?.kind === "text" && text.text, "OK");
  assert.equal(usage?.kind === "usage" && usage.scope, "run");
  assert.ok(usage?.kind === "usage" && usage.input > 0 && usage.output > 0);
  assert.equal(terminal(events)?.status, "success");
  assert.equal(terminal(events)?.result, "OK");
});

Deno.test("cline malformed body: the agent's error, then an error run_result; the trailing error line is dropped", () => {
  const events = replay("cline", "mock-malformed");
  assert.equal(kinds(events).at(-1), "terminal");
  assert.equal(events.filter((event) => event.kind === "terminal").length, 1);
  const end = terminal(events);
  assert.equal(end?.status, "error");
  assert.equal(end?.reason, "Response stream ended without a finish reason.");
});

Deno.test("cline disconnect: the partial text, the socket error, an error terminal", () => {
  const events = replay("cline", "mock-disconnect");
  assert.ok(events.some((event) => event.kind === "text" && event.text === "OK a"));
  assert.ok(
    events.some((event) => event.kind === "error" && /socket connection was closed/.test(event.message)),
  );
  assert.equal(terminal(events)?.status, "error");
});

Deno.test("cline HTTP 500: silent retries until killed, so only the init and an EOF error terminal", () => {
  const events = replay("cline", "mock-http-500");
  assert.deepEqual(kinds(events), ["init", "terminal"]);
  const end = terminal(events);
  assert.equal(end?.synthetic, true);
  assert.equal(end?.status, "error");
  assert.match(end?.reason ?? "", /SIGTERM/);
});

Deno.test("cline run_aborted before any run_result ends the run cancelled; after it, it is ignored", () => {
  const start = '{"type":"hook_event","hookEventName":"agent_start","taskId":"conv_1"}';
  const aborted = '{"type":"run_aborted","reason":"external_abort","message":"aborted"}';
  const alone = parseStream({ name: "cline", dialect: "cline" }, [start, aborted].join("\n") + "\n");
  assert.deepEqual(kinds(alone), ["init", "terminal"]);
  assert.equal(terminal(alone)?.status, "cancelled");
  const result = '{"type":"run_result","finishReason":"error","text":"boom","usage":{}}';
  const after = parseStream({ name: "cline", dialect: "cline" }, [start, result, aborted].join("\n") + "\n");
  assert.deepEqual(kinds(after), ["init", "usage", "terminal"]);
  assert.equal(terminal(after)?.reason, "boom");
});
