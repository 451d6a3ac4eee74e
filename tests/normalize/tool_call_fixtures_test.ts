/**
 * The tool-call streams of the real CLIs (`tests/fixtures/cli/<host>/mock-tool-call/`, recorded by
 * `deno task record:fixtures --case mock-tool-call` against the scripted mock model asking for the host's own
 * read tool) through every normaliser: a `tool_call` with an id, the `tool_result` with the same id after it,
 * the final answer, and exactly one success terminal last.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../hosts/registry.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import type { NormalizedEvent, ToolCallEvent, ToolResultEvent } from "../../src/normalize/events.ts";
import { parseStream } from "../../src/normalize/parse.ts";
import { TOOL_CALL_FILE } from "../../tools/record_cli_fixtures.ts";
import { DIALECT_WRITERS } from "../../fake_host/dialects.ts";
import type { FakeDialect } from "../../fake_host/script.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url);

/** The real CLIs that declare their tools: each must have a tool-call recording. */
const declaring: HostRunner[] = HOSTS.flatMap((entry) =>
  entry.kind === "cli" && !entry.testOnly && entry.runner.toolBehavior ? [entry.runner] : []
);

function normalise(runner: HostRunner): NormalizedEvent[] {
  const dir = new URL(`${runner.name}/mock-tool-call/`, FIXTURES);
  const meta = JSON.parse(Deno.readTextFileSync(new URL("meta.json", dir)));
  return parseStream(runner, Deno.readTextFileSync(new URL("stdout.jsonl", dir)), {
    argv: JSON.parse(Deno.readTextFileSync(new URL("argv.json", dir))),
    exitCode: meta.exitCode,
    signal: meta.signal,
    stderr: Deno.readTextFileSync(new URL("stderr.txt", dir)),
  });
}

Deno.test("gate: the eight real CLIs declare their tools and have a mock-tool-call recording", () => {
  const names = declaring.map((runner) => runner.name);
  for (const host of ["claude-code", "codex", "gemini", "opencode", "pi", "omp", "kimi-code", "qwen"]) {
    assert.ok(names.includes(host), `${host} declares no toolBehavior in its host file`);
  }
  for (const runner of declaring) {
    const dir = new URL(`${runner.name}/mock-tool-call/`, FIXTURES);
    for (const file of ["argv.json", "stdout.jsonl", "stderr.txt", "meta.json"]) {
      assert.ok(
        Deno.statSync(new URL(file, dir)).isFile,
        `${runner.name} has no mock-tool-call/${file}: deno task record:fixtures --host ${runner.name} --case mock-tool-call`,
      );
    }
  }
});

Deno.test("the tool-call recordings are scrubbed of sandbox paths and the user's HOME", () => {
  const home = Deno.env.get("HOME") ?? "/nonexistent-home";
  for (const runner of declaring) {
    const dir = new URL(`${runner.name}/mock-tool-call/`, FIXTURES);
    for (const file of ["argv.json", "stdout.jsonl", "stderr.txt", "meta.json"]) {
      const text = Deno.readTextFileSync(new URL(file, dir));
      assert.ok(!text.includes("/tmp/conformance-home-"), `${runner.name}/${file} leaks a sandbox path`);
      if (home.length > 1) {
        assert.ok(!text.includes(`${home}/`), `${runner.name}/${file} leaks the user's HOME`);
      }
    }
  }
});

for (const runner of declaring) {
  Deno.test(`${runner.name}: the recorded tool call normalises to tool_call, then tool_result with its id`, () => {
    const events = normalise(runner);
    const kinds = events.map((event) => event.kind);
    assert.deepEqual(events.filter((event) => event.kind === "unparsed").map((event) => event.raw), []);
    if (DIALECT_WRITERS[runner.dialect as FakeDialect]?.plainText) {
      // A plain-text dialect (continue's cn -p) prints only the final reply: no tool events reach stdout, and
      // the scripted model answers DONE only once the read's result came back in the request.
      assert.deepEqual(kinds, ["init", "text", "terminal"]);
      const last = events.at(-1);
      assert.equal(last?.kind === "terminal" && last.status, "success");
      assert.equal(last?.kind === "terminal" && last.result, "DONE");
      return;
    }
    const callAt = kinds.indexOf("tool_call");
    assert.ok(callAt >= 0, `no tool_call in [${kinds}]`);
    const call = events[callAt] as ToolCallEvent;
    assert.ok(call.id, `the tool_call carries no id: ${JSON.stringify(call.raw?.slice(0, 200))}`);
    // codex's stream names the item it ran (command_execution), not the model's tool.
    const expectedName = runner.dialect === "codex"
      ? "command_execution"
      : runner.toolBehavior!.tools.read.name;
    assert.equal(call.name, expectedName);
    assert.match(JSON.stringify(call.input), new RegExp(TOOL_CALL_FILE.name.replace(".", "\\.")));
    const results = events.filter((event): event is ToolResultEvent => event.kind === "tool_result");
    assert.equal(results.length, 1, `expected one tool_result in [${kinds}]`);
    assert.equal(results[0]!.id, call.id, "the tool_result answers another id");
    assert.ok(events.indexOf(results[0]!) > callAt, "the tool_result comes before its tool_call");
    assert.equal(results[0]!.isError, false);
    assert.equal(kinds.filter((kind) => kind === "terminal").length, 1, `[${kinds}]`);
    assert.equal(kinds.at(-1), "terminal");
    const terminal = events.at(-1);
    assert.equal(terminal?.kind === "terminal" && terminal.status, "success");
    const text = events.flatMap((event) => event.kind === "text" ? [event.text] : []).join("");
    assert.match(text, /DONE/, `the final answer is missing: ${JSON.stringify(text)}`);
  });
}
