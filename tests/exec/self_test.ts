import assert from "node:assert/strict";
import { fakeHostCommand, isCompiled, SOURCE_PERMISSIONS } from "../../src/exec/self.ts";

Deno.test("a compiled binary runs itself; the deno CLI runs main.ts from source with the task's permissions", () => {
  const compiled = {
    execPath: "/opt/bin/conformance",
    mainModule: "file:///tmp/deno-compile-conformance/main.ts",
  };
  assert.equal(isCompiled(compiled), true);
  assert.deepEqual(fakeHostCommand(compiled), { binary: "/opt/bin/conformance", args: ["fake-host"] });
  const source = { execPath: "/usr/local/bin/deno", mainModule: "file:///work/main/main.ts" };
  assert.equal(isCompiled(source), false);
  const command = fakeHostCommand(source);
  assert.equal(command.binary, "/usr/local/bin/deno");
  assert.deepEqual(command.args.slice(0, 2), ["run", "--quiet"]);
  for (const flag of SOURCE_PERMISSIONS) assert.ok(command.args.includes(flag), flag);
  assert.ok(!command.args.includes("-A") && !command.args.includes("--allow-all"));
  assert.match(command.args.at(-2) ?? "", /\/main\.ts$/);
  assert.equal(command.args.at(-1), "fake-host");
});

Deno.test("this test process is the deno CLI, and its self command really starts the fake host", async () => {
  assert.equal(isCompiled({ execPath: Deno.execPath(), mainModule: Deno.mainModule }), false);
  const { binary, args } = fakeHostCommand();
  const output = await new Deno.Command(binary, {
    detached: true,
    args: [...args, "--version"],
    stdin: "null",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.equal(new TextDecoder().decode(output.stdout).trim(), "fake-host 1.0.0");
});
