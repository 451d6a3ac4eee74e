/**
 * The client's `terminal/*` methods (src/acp/client_terminals.ts) served for real in a temporary folder:
 * a command run with its exit read, output capped at a character boundary, kill and release ending the
 * group, malformed and stale calls answered `-32602` and kept, a `cwd` outside the root refused, and every
 * group still open ended and proven gone at the end.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentAnswer, JsonRpcMessage } from "../../src/acp/connection.ts";
import { ClientTerminals } from "../../src/acp/client_terminals.ts";
import { groupAlive } from "../../src/exec/process_group.ts";

const SESSION = "session-1";

async function call(terminals: ClientTerminals, method: string, params: unknown): Promise<AgentAnswer> {
  const message: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method, params };
  const answer = terminals.handle(message);
  assert.ok(answer, `${method} is served`);
  return await answer;
}

function resultOf(answer: AgentAnswer): Record<string, unknown> {
  assert.ok("result" in answer, `an answer with a result: ${JSON.stringify(answer)}`);
  return answer.result as Record<string, unknown>;
}

async function withRoot(fn: (root: string, terminals: ClientTerminals) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "conformance-terminals-" }));
  try {
    await using terminals = new ClientTerminals({ root, defaultCwd: root, env: { HOME: root } });
    await fn(root, terminals);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a command runs in the given cwd; wait_for_exit and output give its exit; release ends it", async () => {
  await withRoot(async (root, terminals) => {
    assert.equal(terminals.handle({ jsonrpc: "2.0", id: 1, method: "fs/read_text_file" }), null);
    const sub = join(root, "sub");
    await Deno.mkdir(sub);
    const { terminalId } = resultOf(
      await call(terminals, "terminal/create", {
        sessionId: SESSION,
        command: "sh",
        args: ["-c", 'pwd; echo "$GREETING" > out.txt; exit 3'],
        env: [{ name: "GREETING", value: "hello" }],
        cwd: sub,
      }),
    );
    assert.equal(typeof terminalId, "string");
    const exit = resultOf(
      await call(terminals, "terminal/wait_for_exit", { sessionId: SESSION, terminalId }),
    );
    assert.deepEqual(exit, { exitCode: 3, signal: null });
    const output = resultOf(await call(terminals, "terminal/output", { sessionId: SESSION, terminalId }));
    assert.deepEqual(output, {
      output: `${sub}\n`,
      truncated: false,
      exitStatus: { exitCode: 3, signal: null },
    });
    assert.equal(await Deno.readTextFile(join(sub, "out.txt")), "hello\n");
    assert.deepEqual(
      resultOf(await call(terminals, "terminal/release", { sessionId: SESSION, terminalId })),
      {},
    );
    const [record] = terminals.terminals;
    assert.ok(record && record.released && record.exitSeen && !record.killed);
    assert.deepEqual(terminals.problems, []);
  });
});

Deno.test("a command line without args runs through sh; output keeps its end at a character boundary", async () => {
  await withRoot(async (_root, terminals) => {
    // "aébé\n" is 7 bytes ("é" is two): the last 5 start with the second byte of the first "é", which goes.
    const { terminalId } = resultOf(
      await call(terminals, "terminal/create", {
        sessionId: SESSION,
        command: "printf 'a\\303\\251b\\303\\251\\n'",
        outputByteLimit: 5,
      }),
    );
    await call(terminals, "terminal/wait_for_exit", { sessionId: SESSION, terminalId });
    const output = resultOf(await call(terminals, "terminal/output", { sessionId: SESSION, terminalId }));
    assert.equal(output.output, "bé\n");
    assert.equal(output.truncated, true);
  });
});

Deno.test("kill ends a running group and keeps the terminal; calls after release are problems", async () => {
  await withRoot(async (_root, terminals) => {
    const { terminalId } = resultOf(
      await call(terminals, "terminal/create", { sessionId: SESSION, command: "sleep 600 & sleep 600" }),
    );
    const pgid = terminals.terminals[0]!.pgid;
    assert.equal(await groupAlive(pgid), true);
    assert.deepEqual(
      resultOf(await call(terminals, "terminal/kill", { sessionId: SESSION, terminalId })),
      {},
    );
    assert.equal(await groupAlive(pgid), false, "the background sleep went with the group");
    const exit = resultOf(
      await call(terminals, "terminal/wait_for_exit", { sessionId: SESSION, terminalId }),
    );
    assert.equal(exit.exitCode, null);
    assert.equal(typeof exit.signal, "string");
    await call(terminals, "terminal/release", { sessionId: SESSION, terminalId });
    const stale = await call(terminals, "terminal/output", { sessionId: SESSION, terminalId });
    assert.ok("error" in stale && stale.error.code === -32602);
    assert.deepEqual(terminals.problems, [
      `terminal/output: terminal "${terminalId}" used after its release`,
    ]);
  });
});

Deno.test("malformed creates and unknown ids are answered -32602 and kept; a cwd outside the root is refused", async () => {
  await withRoot(async (root, terminals) => {
    const bad = [
      await call(terminals, "terminal/create", { sessionId: SESSION, command: "true", cwd: "." }),
      await call(terminals, "terminal/create", { sessionId: SESSION, command: "true", args: "x" }),
      await call(terminals, "terminal/create", { sessionId: SESSION, command: "true", outputByteLimit: -1 }),
      await call(terminals, "terminal/create", { command: "true" }),
      await call(terminals, "terminal/release", { sessionId: SESSION, terminalId: "term-404" }),
    ];
    assert.ok(bad.every((answer) => "error" in answer && answer.error.code === -32602));
    assert.equal(terminals.problems.length, 5);
    const outside = await call(terminals, "terminal/create", {
      sessionId: SESSION,
      command: "true",
      cwd: join(root, ".."),
    });
    assert.ok("error" in outside);
    assert.equal(terminals.refused.length, 1);
    assert.equal(terminals.problems.length, 5, "a refusal is the client's, not a malformed call");
    assert.deepEqual(terminals.terminals, []);
  });
});

Deno.test("closeAll ends every group still open, unreleased, and proves it gone", async () => {
  await withRoot(async (_root, terminals) => {
    await call(terminals, "terminal/create", { sessionId: SESSION, command: "sleep 600" });
    await call(terminals, "terminal/create", { sessionId: SESSION, command: "sleep", args: ["600"] });
    const groups = terminals.terminals.map((t) => t.pgid);
    assert.equal(groups.length, 2);
    assert.deepEqual(await terminals.closeAll(), []);
    for (const pgid of groups) assert.equal(await groupAlive(pgid), false);
    assert.ok(terminals.terminals.every((t) => !t.released), "closing is not the agent's release");
  });
});
