import assert from "node:assert/strict";
import { HOSTS } from "../../hosts/registry.ts";
import { FAKE_DIALECTS } from "../../fake_host/script.ts";
import { DIALECT_WRITERS } from "../../fake_host/dialects.ts";
import { execute } from "../../src/exec/executor.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { fakeHostCommand } from "../../src/exec/self.ts";
import { normalizerFor } from "../../src/normalize/mod.ts";

/** The stream shape the registry declares for a dialect (its real host's), so the fake is read as that host. */
function shapeOf(dialect: string) {
  const host = HOSTS.find((entry) =>
    entry.kind === "cli" && !entry.testOnly && entry.runner.dialect === dialect
  );
  assert.ok(host?.kind === "cli", `no registered host speaks ${dialect}`);
  return { id: host.id, shape: host.runner.streamShape };
}

async function speak(dialect: string, lines: string[]) {
  const self = fakeHostCommand();
  const { id, shape } = shapeOf(dialect);
  const args = [...self.args, ["@@fake", ...lines, "@@end"].join("\n")];
  return await execute(
    { binary: self.binary, args, env: {}, envAllow: [], cleanupPaths: [], capabilities: NO_CAPABILITIES },
    { host: id, normalizer: normalizerFor(dialect)({ argv: args }), streamShape: shape },
  );
}

for (const dialect of FAKE_DIALECTS) {
  Deno.test(`the fake speaking ${dialect} is understood by the ${dialect} normaliser`, async () => {
    const ok = await speak(dialect, [
      `init dialect=${dialect}`,
      "text hi",
      'tool Read {"path":"a"}',
      "result in=2 out=3",
    ]);
    const kinds = ok.kinds.filter((kind) => kind !== "usage" && kind !== "tool_result");
    // A plain-text dialect (Continue's cn -p) carries no tool activity on the wire.
    const expected = DIALECT_WRITERS[dialect].plainText
      ? ["init", "text", "terminal"]
      : ["init", "text", "tool_call", "terminal"];
    assert.deepEqual(kinds, expected, `kinds ${ok.kinds.join(", ")}`);
    const terminal = ok.events.at(-1);
    assert.equal(terminal?.kind === "terminal" && terminal.status, "success");
    assert.ok(ok.text.includes("hi"));

    const failed = await speak(dialect, [
      `init dialect=${dialect}`,
      "text hi",
      "result error=boom",
      "exit 1",
    ]);
    const last = failed.events.at(-1);
    assert.equal(last?.kind === "terminal" && last.status, "error", `kinds ${failed.kinds.join(", ")}`);
    assert.equal(failed.kinds.filter((kind) => kind === "terminal").length, 1);
    assert.ok(!failed.kinds.includes("unparsed"));
  });
}
