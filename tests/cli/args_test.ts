import assert from "node:assert/strict";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import { parseRunOptions } from "../../cli/run_options.ts";
import { exitCodeOf, UsageError } from "../../src/errors.ts";
import { HARNESS_VERSION } from "../../src/version.ts";

const noEnv = { get: (_: string) => undefined } as unknown as typeof Deno.env;

async function usageError(args: string[]): Promise<string> {
  const io = memoryIo();
  try {
    await runCli(args, io);
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    assert.equal(exitCodeOf(error), 2, `exit code for ${args.join(" ")}: ${error.message}`);
    assert.ok(!error.message.includes("\n"), "one line");
    assert.ok(!/at .*\.ts:\d+/.test(error.message), "no stack trace");
    return error.message;
  }
  throw new Error(`expected a usage error for: ${args.join(" ")}`);
}

Deno.test("every usage error path exits 2 with one line that says what to do", async () => {
  const cases: [string[], RegExp][] = [
    [["--hots", "fake"], /Unknown flag "--hots".*did you mean "--host"\?.*--help/],
    [["run", "--bogus"], /Unknown flag "--bogus" for "conformance run"\. Run "conformance run --help"/],
    [["run", "extra"], /Unexpected argument "extra"/],
    [["--host"], /Flag "--host" needs a value/],
    [["--live=yes"], /Flag "--live" takes no value/],
    [["--host", "gemeni"], /Unknown host "gemeni".*conformance list hosts/],
    [["--shard", "0/2"], /Invalid --shard "0\/2"/],
    [["--shard", "three"], /expected I\/N/],
    [["--suite", "clii"], /did you mean "cli"\?/],
    [["--reporter", "xml"], /Invalid --reporter "xml".*pretty, json, junit, markdown, html/],
    [["--trace", "always"], /Invalid --trace "always"/],
    [["--timeout-multiplier", "0"], /--timeout-multiplier "0"/],
    [["--timeout-multiplier", "fast"], /--timeout-multiplier "fast"/],
    [["--grep", "("], /Invalid --grep "\("/],
    [["--update-expectations"], /needs exactly one --expectations PATH/],
    [["--config", "/nonexistent.yaml"], /Config file "\/nonexistent\.yaml" does not exist/],
    [["--expectations", "/nonexistent-dir"], /Expectations path "\/nonexistent-dir" does not exist/],
    [["--out", ""], /non-empty/],
    [["frobnicate"], /Unknown command "frobnicate"/],
    [["lst"], /did you mean "list"\?/],
    [["list", "hostz"], /Invalid list topic "hostz"/],
    [["list", "hosts", "more"], /Unexpected argument "more"/],
    [["board"], /needs one or more REPORT\.json files/],
    [["board", "/nonexistent.json"], /nonexistent\.json/],
    [["login"], /needs --host/],
    [["serve", "--port", "1"], /Unknown flag "--port"/],
    [["parse", "a", "b"], /Unexpected argument "b"/],
  ];
  for (const [args, pattern] of cases) {
    const message = await usageError(args);
    assert.match(message, pattern, `${args.join(" ")} → ${message}`);
  }
});

Deno.test("a malformed config file is a usage error naming file and field", async () => {
  const file = await Deno.makeTempFile({ suffix: ".yaml" });
  try {
    await Deno.writeTextFile(file, "hosts:\n  - id: x\n    kind: cli\n");
    const error = await runCli(["--config", file], memoryIo()).then(() => null, (caught: unknown) => caught);
    assert.ok(error instanceof UsageError, String(error));
    // Every problem at once, one line each (binary, dialect and paths are all missing).
    const lines = error.message.split("\n");
    assert.ok(lines.length >= 3, error.message);
    for (const line of lines) {
      assert.match(line, new RegExp(`^Config file "${file}" is malformed at hosts\\.0\\.`));
    }
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("--help and --version answer on stdout with exit 0", async () => {
  for (
    const args of [
      ["--help"],
      ["run", "--help"],
      ["list", "-h"],
      ["board", "--help"],
      ["parse", "--help"],
      [
        "serve",
        "--help",
      ],
      ["login", "--help"],
      ["doctor", "--help"],
      ["help", "run"],
    ]
  ) {
    const io = memoryIo();
    assert.equal(await runCli(args, io), 0, args.join(" "));
    assert.match(io.stdout, /Usage: conformance/, args.join(" "));
  }
  const io = memoryIo();
  assert.equal(await runCli(["--version"], io), 0);
  assert.match(
    io.stdout,
    new RegExp(`^conformance ${HARNESS_VERSION.replaceAll(".", "\\.")} \\(suite [\\w.-]+`),
  );
});

Deno.test("the harness version matches deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.equal(config.version, HARNESS_VERSION);
});

Deno.test("parseRunOptions: defaults, lists, repeats and CONFORMANCE_LIVE", () => {
  const defaults = parseRunOptions([], noEnv);
  assert.ok(defaults !== "help");
  assert.deepEqual(defaults.hosts, []);
  assert.deepEqual(defaults.reporters, ["pretty"]);
  assert.equal(defaults.suite, "all");
  assert.equal(defaults.live, false);
  assert.deepEqual(defaults.shard, { index: 1, count: 1 });

  const options = parseRunOptions(
    ["--host", "a,b", "--host", "c", "--reporter", "json", "--reporter", "junit,json", "--shard", "2/4"],
    noEnv,
  );
  assert.ok(options !== "help");
  assert.deepEqual(options.hosts, ["a", "b", "c"]);
  assert.deepEqual(options.reporters, ["json", "junit"]);
  assert.deepEqual(options.shard, { index: 2, count: 4 });

  const live = parseRunOptions(
    [],
    { get: (n: string) => n === "CONFORMANCE_LIVE" ? "1" : undefined } as typeof Deno.env,
  );
  assert.ok(live !== "help" && live.live);
  assert.throws(() => parseRunOptions(["--suite", "x"], noEnv), UsageError);
});
