/**
 * The command line as a user of Playwright Test or pytest would try it: `deno task`'s `--`, a flag given twice,
 * help for every command, an `--out` or `--listen` that cannot work, a host called by its binary's name.
 * Exit codes and messages are checked on the real harness, run as a subprocess under its own permission set.
 */
import assert from "node:assert/strict";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import { parseRunOptions } from "../../cli/run_options.ts";
import { rerunFlags } from "../../cli/rerun.ts";
import { exitCodeOf } from "../../src/errors.ts";
import { conformanceArgv, runDetached, runHarness } from "../robustness/_harness.ts";

const ONE_TEST = ["--host", "fake", "--grep", "^cli/scripted/ordering$"];

async function usageMessage(args: string[]): Promise<string> {
  try {
    await runCli(args, memoryIo());
  } catch (error) {
    assert.equal(exitCodeOf(error), 2, `${args.join(" ")}: ${error}`);
    const message = (error as Error).message;
    assert.ok(!message.includes("\n"), `one line: ${message}`);
    return message;
  }
  throw new Error(`expected a usage error for: ${args.join(" ")}`);
}

/** The harness's stderr is one line (no stack trace), and no test ran (pretty prints each result). */
function assertRefusedBeforeTests(exit: { code: number; stdout: string; stderr: string }, pattern: RegExp) {
  assert.equal(exit.code, 2, `exit 2:\n${exit.stderr}`);
  assert.equal(exit.stderr.trim().split("\n").length, 1, `one line:\n${exit.stderr}`);
  assert.match(exit.stderr, pattern);
  assert.doesNotMatch(exit.stdout, /cli\/scripted\/ordering|results?:/, "no test ran");
}

Deno.test("a leading -- (deno task conformance -- ARGS) is accepted, and the README shows it", async () => {
  const exit = await runHarness(["--", ...ONE_TEST]);
  assert.equal(exit.code, 0, exit.stderr);
  assert.match(exit.stdout, /PASS +fake +cli\/scripted\/ordering/);
  const io = memoryIo();
  assert.equal(await runCli(["--", "list", "tests", ...ONE_TEST], io), 0);
  assert.equal(io.stdout, "fake\tcli/scripted/ordering\n");

  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## What it checks"));
  const examples = [
    ...quickStart.matchAll(/^npx -y deno@[\d.]+ task -q conformance -- ([^#\n]+?)\s*(#.*)?$/gm),
  ]
    .map((match) => match[1]!);
  assert.ok(examples.length > 0, "the quick start shows how to pass arguments to the task");
  // Each example's arguments parse (a list example is run; a run example only validated, it writes reports).
  for (const example of examples) {
    const args = example.split(/\s+/);
    // doctor's example is the README walkthrough's to run (tests/readme_walkthrough_test.ts).
    if (args[0] === "doctor") continue;
    if (args[0] === "list") assert.equal(await runCli(["--", ...args], memoryIo()), 0, example);
    else assert.notEqual(parseRunOptions(args), "help", example);
  }
});

Deno.test("a single-value flag given twice is a one-line usage error; list flags take lists", async () => {
  const cases: [string[], RegExp][] = [
    [["--grep", "a", "--grep", "b"], /Flag "--grep" is given twice/],
    [["run", "--out=a", "--out", "b"], /Flag "--out" is given twice/],
    [["--suite", "cli", "--shard", "1/2", "--suite", "apps"], /Flag "--suite" is given twice/],
    [
      ["list", "tests", "--shard", "1/2", "--shard", "2/2"],
      /Flag "--shard" is given twice.*conformance list --help/,
    ],
    [["serve", "--listen", "127.0.0.1:1", "--listen", "127.0.0.1:2"], /Flag "--listen" is given twice/],
    [["board", "a.json", "--diff", "b.json", "--diff", "c.json"], /Flag "--diff" is given twice/],
  ];
  for (const [args, pattern] of cases) assert.match(await usageMessage(args), pattern, args.join(" "));

  const exit = await runHarness(["--grep", "a", "--grep", "b"]);
  assert.equal(exit.code, 2);
  assert.equal(exit.stderr.trim().split("\n").length, 1, exit.stderr);

  // Repeatable flags still repeat, and --tier takes a list like --host.
  const options = parseRunOptions([
    "--tier",
    "scripted,behavior",
    "--tier",
    "composition",
    "--live",
    "--live",
  ]);
  assert.ok(options !== "help");
  assert.deepEqual(options.tiers, ["scripted", "behavior", "composition"]);
  // A rerun repeats the whole list.
  assert.deepEqual(rerunFlags(options).slice(0, 2), ["--tier", "scripted,behavior,composition"]);
  const io = memoryIo();
  assert.equal(
    await runCli(["list", "tests", "--host", "fake", "--tier", "scripted,behavior", "--json"], io),
    0,
  );
  const tiers = new Set((JSON.parse(io.stdout) as { test: string }[]).map((row) => row.test.split("/")[1]));
  assert.deepEqual([...tiers].sort(), ["behavior", "scripted"]);
  assert.match(
    await usageMessage(["--host", "fake", "--tier", "scripted,behaviour"]),
    /Unknown --tier "behaviour".*"behavior"/,
  );
});

Deno.test("fake-host --help answers like every command, and help for an unknown topic exits 2", async () => {
  const help = await runHarness(["fake-host", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: conformance fake-host/);
  const via = await runHarness(["help", "fake-host"]);
  assert.equal(via.code, 0, via.stderr);
  assert.match(via.stdout, /^Usage: conformance fake-host/);

  const unknown = await runHarness(["help", "NOPE"]);
  assert.equal(unknown.code, 2, unknown.stdout);
  assert.equal(unknown.stdout, "");
  assert.match(unknown.stderr, /^conformance: No help for "NOPE"\. Topics: run, list, .*fake-host/);
  assert.match(await usageMessage(["help", "lst"]), /No help for "lst": did you mean "list"\?/);
});

Deno.test("--out naming a file, a path under a file or a folder out of reach stops the run before any test", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-out-" });
  try {
    const file = `${dir}/report.json`;
    await Deno.writeTextFile(file, "{}");
    assertRefusedBeforeTests(
      await runHarness([...ONE_TEST, "--reporter", "json", "--out", file]),
      /^conformance: --out ".*report\.json" is a file, not a folder/,
    );
    assertRefusedBeforeTests(
      await runHarness([...ONE_TEST, "--out", `${file}/reports`]),
      /^conformance: --out ".*report\.json\/reports" cannot be used \(Not a directory/,
    );
    // Outside the harness's write permission: refused, naming what to do, before the tests too.
    assertRefusedBeforeTests(
      await runHarness([...ONE_TEST, "--out", "/usr/lib/conformance-reports"]),
      /^conformance: .*\/usr\/lib\/conformance-reports/,
    );
    if (Deno.uid() !== 0) {
      const locked = `${dir}/locked`;
      await Deno.mkdir(locked, { mode: 0o555 });
      assertRefusedBeforeTests(
        await runHarness([...ONE_TEST, "--out", locked]),
        /--out ".*locked" is not writable/,
      );
    }
    // A missing folder is created, and the run writes into it.
    const fresh = `${dir}/new/reports`;
    const ok = await runHarness([...ONE_TEST, "--reporter", "json", "--out", fresh]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.ok((await Deno.stat(`${fresh}/report.json`)).isFile);
    assert.deepEqual(
      [...Deno.readDirSync(fresh)].map((entry) => entry.name),
      ["report.json"],
      "no probe left",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --listen on a busy address is a one-line usage error naming the address", async () => {
  using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const address = `127.0.0.1:${(busy.addr as Deno.NetAddr).port}`;
  const exit = await runHarness(["serve", "--listen", address]);
  assert.equal(exit.code, 2, exit.stderr);
  assert.equal(
    exit.stderr,
    `conformance: Cannot listen on --listen ${address}: the address is in use; pick another port\n`,
  );
  const second = await runHarness(["serve", "--listen", "127.0.0.1:0", "--second-listen", address]);
  assert.equal(second.code, 2, second.stderr);
  assert.match(
    second.stderr,
    /^conformance: Cannot listen on .*--second-listen 127\.0\.0\.1:\d+: the address is in use/,
  );
});

Deno.test("serve --listen on an address this machine does not have is a one-line usage error", async () => {
  // The harness's own permission set refuses a non-loopback bind before the kernel sees it; a machine without
  // IPv6 loopback answers [::1] this way. Widen the net permission only, so the bind itself is tried:
  // 192.0.2.1 (TEST-NET-1) is on no interface, so it fails at bind and sends nothing.
  const argv = conformanceArgv(["serve", "--listen", "192.0.2.1:8765", "--allow-remote"]);
  const args = argv.args.map((arg) => arg.startsWith("--allow-net=") ? "--allow-net" : arg);
  const exit = await runDetached(argv.binary, args, { env: { NO_COLOR: "1" } });
  assert.equal(exit.code, 2, exit.stderr);
  assert.equal(
    exit.stderr,
    "conformance: Cannot listen on --listen 192.0.2.1:8765: this machine has no such address; give one of its " +
      "own (127.0.0.1:PORT)\n",
  );
});

Deno.test("a host named by its binary suggests the host: --host claude means claude-code", async () => {
  assert.match(
    await usageMessage(["--host", "claude"]),
    /Unknown host "claude": did you mean "claude-code"\?/,
  );
  assert.match(await usageMessage(["--host", "kimi"]), /did you mean "kimi-code"\?/);
  assert.match(await usageMessage(["list", "tests", "--host", "claude"]), /did you mean "claude-code"\?/);
  // The fakes start the harness itself: its name suggests no host.
  assert.doesNotMatch(await usageMessage(["--host", "conformance"]), /did you mean "fake/);
  const exit = await runHarness(["--host", "claude"]);
  assert.equal(exit.code, 2);
  assert.match(exit.stderr, /^conformance: Unknown host "claude": did you mean "claude-code"\?[^\n]*\n$/);
});
