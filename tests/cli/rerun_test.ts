/**
 * The pieces of the rerun command: POSIX quoting that a real shell reads back word for word, a --grep that
 * selects exactly one test id, the program named as the user can start it, and only the flags that shaped
 * the run.
 */
import assert from "node:assert/strict";
import { exactGrep, rerunCommand, rerunFlags, shellQuote } from "../../cli/rerun.ts";
import { parseRunOptions, withReportFlags } from "../../cli/run_options.ts";

const WORDS = ["plain", "^cli/a$", "it's", "a b", "$HOME", "`x`", "back\\slash", "", "é", "new\nline", "*"];

Deno.test("shellQuote: sh reads every word back exactly", async () => {
  const script = `for word in ${WORDS.map(shellQuote).join(" ")}; do printf '%s\\0' "$word"; done`;
  const output = await new Deno.Command("sh", {
    args: ["-c", script],
    stdin: "null",
    stdout: "piped",
    detached: true,
  }).output();
  assert.deepEqual(new TextDecoder().decode(output.stdout).split("\0").slice(0, -1), WORDS);
  assert.equal(shellQuote("cli/scripted/ordering"), "cli/scripted/ordering");
});

Deno.test("exactGrep matches its test id and nothing else, metacharacters and all", () => {
  const ids = ["cli/scripted/ordering", "apps/a.b/c(d)+[e]|f$", "cli/mock-model/fault-http-500"];
  const others = [
    "cli/scripted/ordering-2",
    "xcli/scripted/ordering",
    "apps/aXb/c(d)+[e]|f$",
    "cli/scripted",
  ];
  for (const id of ids) {
    const pattern = new RegExp(exactGrep(id));
    assert.ok(pattern.test(id), id);
    for (const other of [...ids, ...others].filter((candidate) => candidate !== id)) {
      assert.ok(!pattern.test(other), `${exactGrep(id)} must not match ${other}`);
    }
  }
  assert.equal(exactGrep("cli/scripted/ordering"), "^cli/scripted/ordering$");
});

Deno.test("rerunFlags repeats only the flags that shaped the run, never --out, --shard or --reporter", () => {
  const env = { get: () => undefined } as unknown as typeof Deno.env;
  const plain = parseRunOptions(
    ["--host", "fake", "--out", "o", "--shard", "1/2", "--reporter", "json"],
    env,
  );
  assert.ok(plain !== "help");
  assert.deepEqual(rerunFlags(plain), []);
  const shaped = parseRunOptions([
    "--config",
    "my conf.yaml",
    "--expectations",
    "e1",
    "--expectations",
    "e2",
    "--suite",
    "cli",
    "--tier",
    "behavior",
    "--live",
    "--mock-model",
    "--timeout-multiplier",
    "2.5",
    "--grep",
    "stream",
  ], env);
  assert.ok(shaped !== "help");
  const line = rerunCommand(["conformance"], rerunFlags(shaped), {
    host: "my-agent",
    test: "cli/behavior/streaming",
  });
  assert.equal(
    line,
    "conformance run --host my-agent --grep '^cli/behavior/streaming$' --config 'my conf.yaml' " +
      "--expectations e1 --expectations e2 --suite cli --tier behavior --live --mock-model --timeout-multiplier 2.5",
  );
});

Deno.test("--rerun-failed starts from the report's flags; a flag given again wins, a list flag is replaced", () => {
  const env = { get: () => undefined } as unknown as typeof Deno.env;
  const argv = ["--rerun-failed", "r.json", "--timeout-multiplier", "3", "--expectations", "mine"];
  const options = parseRunOptions(argv, env);
  assert.ok(options !== "help");
  const targets = {
    source: "r.json",
    tests: new Map([["fake", new Set(["cli/scripted/ordering"])]]),
    interrupted: 0,
    incomplete: false,
    flags: [
      "--config",
      "c.yaml",
      "--expectations",
      "theirs",
      "--live",
      "--timeout-multiplier",
      "2",
      "--host",
      "x",
    ],
  };
  const merged = withReportFlags(options, targets, argv);
  assert.equal(merged.config, "c.yaml");
  assert.equal(merged.live, true);
  assert.equal(merged.timeoutMultiplier, 3);
  assert.deepEqual(merged.expectations, ["mine"]);
  assert.deepEqual(merged.hosts, [], "hosts come from the report's results, never its flags");
  assert.equal(withReportFlags(options, { ...targets, flags: [] }, argv), options);
  assert.equal(withReportFlags(options, targets, []), options, "options built without a command line stay");
});
