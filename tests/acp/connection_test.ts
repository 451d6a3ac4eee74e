/**
 * The ACP client's framing and transcript (src/acp/connection.ts) against a shell stand-in agent, and the
 * `initialize` result checks (suite/cli/acp_checks.ts).
 */
import assert from "node:assert/strict";
import { AcpConnection, isResponse, parseMessage } from "../../src/acp/connection.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { groupAlive } from "../../src/exec/process_group.ts";
import { capabilityProblems } from "../../suite/cli/acp_checks.ts";

Deno.test("a line is a JSON-RPC 2.0 message only with jsonrpc 2.0 and a method or an id", () => {
  assert.equal(parseMessage("hello"), null);
  assert.equal(parseMessage("[1]"), null);
  assert.equal(parseMessage('{"id":1,"result":{}}'), null);
  assert.equal(parseMessage('{"jsonrpc":"2.0"}'), null);
  const response = parseMessage('{"jsonrpc":"2.0","id":1,"result":{}}');
  assert.ok(response && isResponse(response));
  const notification = parseMessage('{"jsonrpc":"2.0","method":"session/update","params":{}}');
  assert.ok(notification && !isResponse(notification));
});

Deno.test("initialize results: booleans where booleans belong, auth methods with ids", () => {
  assert.deepEqual(capabilityProblems({ protocolVersion: 1 }), []);
  assert.deepEqual(capabilityProblems({ protocolVersion: "1" }), ['protocolVersion is "1", not an integer']);
  assert.equal(
    capabilityProblems({ protocolVersion: 1, agentCapabilities: { loadSession: "yes" } }).length,
    1,
  );
  assert.equal(capabilityProblems({ protocolVersion: 1, authMethods: [{ name: "x" }] }).length, 1);
  assert.equal(capabilityProblems({ protocolVersion: 1, agentInfo: { name: "a" } }).length, 1);
});

Deno.test("the transcript keeps stray stdout, both directions in order, and the group is proven gone", async () => {
  // A stand-in agent: a banner, then one response per line read, and an exit when stdin closes.
  const script =
    'echo banner; while read line; do echo \'{"jsonrpc":"2.0","id":1,"result":{"ok":true}}\'; done';
  const connection = AcpConnection.spawn({
    binary: "sh",
    args: ["-c", script],
    env: {},
    envAllow: [],
    capabilities: NO_CAPABILITIES,
    cleanupPaths: [],
  });
  try {
    const { response } = await connection.request("initialize", { protocolVersion: 1 }, 10_000);
    assert.ok(typeof response !== "string" && response.result !== undefined);
    assert.deepEqual(connection.strayLines().map((entry) => entry.raw), ["banner"]);
    const sent = connection.transcript.findIndex((e) => e.dir === "send");
    const answered = connection.transcript.findIndex((e) => e.message !== null && isResponse(e.message));
    assert.ok(sent >= 0 && answered > sent, "the response is kept after the request it answers");
    assert.ok(connection.transcript.every((e, i, all) => i === 0 || all[i - 1]!.at <= e.at));
    await connection.closeStdin();
    const status = await connection.waitExit(10_000);
    assert.ok(status !== "late" && status.code === 0);
  } finally {
    await connection[Symbol.asyncDispose]();
  }
  assert.ok(connection.groupGone);
  assert.equal(await groupAlive(connection.pgid), false);
});
