import assert from "node:assert/strict";
import { describeFailure } from "../../cli/failure.ts";
import { HarnessError, UsageError } from "../../src/errors.ts";

Deno.test("domain errors keep their exit code and print one line", () => {
  assert.deepEqual(describeFailure(new UsageError('Unknown host "x"')), {
    line: 'Unknown host "x"',
    exitCode: 2,
    internal: false,
  });
  assert.deepEqual(describeFailure(new HarnessError("Chromium did not start")), {
    line: "Chromium did not start",
    exitCode: 3,
    internal: false,
  });
});

Deno.test("a permission refusal says what to do and exits 2", () => {
  const refusal = new Deno.errors.NotCapable(
    'Requires write access to "/var/tmp/x", run again with the --allow-write flag',
  );
  const failure = describeFailure(refusal);
  assert.equal(failure.exitCode, 2);
  assert.match(failure.line, /Cannot write "\/var\/tmp\/x"/);
});

Deno.test("anything else is an internal error, exit 3, still one line", () => {
  const failure = describeFailure(new TypeError("x is undefined\n    at foo (bar.ts:1:1)"));
  assert.deepEqual(failure, { line: "internal error: x is undefined", exitCode: 3, internal: true });
});

Deno.test("a closed standard output ends the command quietly with 141, as SIGPIPE would", () => {
  assert.deepEqual(describeFailure(new Deno.errors.BrokenPipe("Broken pipe (os error 32)")), {
    line: "",
    exitCode: 141,
    internal: false,
  });
});
