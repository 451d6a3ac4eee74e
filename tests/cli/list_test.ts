/**
 * `conformance list`: `list tests` lists what `run` with the same flags would run, `list hosts` keeps the
 * test-only reference variants out of the way, and counts read as words ("1 test", "2 tests").
 */
import assert from "node:assert/strict";
import { runCli } from "../../cli/mod.ts";
import { memoryIo } from "../../cli/io.ts";
import { parseRunOptions } from "../../cli/run_options.ts";
import { planRun } from "../../cli/plan.ts";

interface Row {
  host: string;
  test: string;
}

async function list(args: string[]): Promise<{ rows: Row[]; stderr: string }> {
  const io = memoryIo();
  assert.equal(await runCli(["list", "tests", ...args, "--json"], io), 0, args.join(" "));
  const text = memoryIo();
  assert.equal(await runCli(["list", "tests", ...args], text), 0);
  return {
    rows: (JSON.parse(io.stdout) as Row[]).map(({ host, test }) => ({ host, test })),
    stderr: text.stderr,
  };
}

/** The (host, test) pairs `conformance run ARGS` plans. */
async function planned(args: string[]): Promise<Row[]> {
  const options = parseRunOptions(args);
  assert.ok(options !== "help");
  const { plan } = await planRun(options);
  return plan.flatMap((item) => item.tests.map((test) => ({ host: item.entry.id, test: test.id })));
}

Deno.test("list tests defaults to what run would run: the default hosts, not every known host", async () => {
  const { rows } = await list([]);
  assert.deepEqual(rows, await planned([]));
  assert.deepEqual([...new Set(rows.map((row) => row.host))], ["fake", "fake-minimal", "reference"]);
});

Deno.test("list tests honours --host, --suite, --tier, --grep and --shard as run does", async () => {
  const cases = [
    ["--host", "fake,reference", "--suite", "cli"],
    ["--host", "fake", "--tier", "scripted,composition"],
    ["--host", "fake", "--grep", "timeout"],
    ["--host", "fake,fake-minimal", "--shard", "2/3"],
    ["--host", "reference", "--tier", "lifecycle", "--grep", "teardown"],
  ];
  for (const args of cases) {
    const { rows } = await list(args);
    assert.ok(rows.length > 0, args.join(" "));
    assert.deepEqual(rows, await planned(args), args.join(" "));
  }
  const cli = await list(["--host", "fake,reference", "--suite", "cli"]);
  assert.ok(cli.rows.every((row) => row.host === "fake" && row.test.startsWith("cli/")));
  const tiers = await list(["--host", "fake", "--tier", "scripted,composition"]);
  assert.deepEqual([...new Set(tiers.rows.map((row) => row.test.split("/")[1]))].sort(), [
    "composition",
    "scripted",
  ]);
  assert.ok(
    (await list(["--host", "fake", "--grep", "timeout"])).rows.every((row) => /timeout/.test(row.test)),
  );
  // Three shards partition the whole list.
  const whole = (await list(["--host", "fake,fake-minimal"])).rows;
  const shards = await Promise.all(
    [1, 2, 3].map((i) => list(["--host", "fake,fake-minimal", "--shard", `${i}/3`])),
  );
  const joined = shards.flatMap((shard) => shard.rows).map((row) => `${row.host} ${row.test}`);
  assert.equal(joined.length, whole.length);
  assert.deepEqual(joined.sort(), whole.map((row) => `${row.host} ${row.test}`).sort());
});

Deno.test("list tests --mock-model adds the mock-model tier, as run --mock-model does", async () => {
  const plain = await list(["--host", "claude-code"]);
  const mock = await list(["--host", "claude-code", "--mock-model"]);
  assert.ok(!plain.rows.some((row) => row.test.startsWith("cli/mock-model/")));
  assert.ok(mock.rows.some((row) => row.test.startsWith("cli/mock-model/")));
});

Deno.test("list hosts hides the test-only variants and the reference agent unless --all or named", async () => {
  const ids = async (args: string[]) => {
    const io = memoryIo();
    assert.equal(await runCli(["list", "hosts", ...args, "--json"], io), 0);
    return { ids: (JSON.parse(io.stdout) as { id: string }[]).map((row) => row.id), stderr: io.stderr };
  };
  const shown = await ids([]);
  assert.ok(!shown.ids.some((id) => id.startsWith("reference:")), shown.ids.join(" "));
  for (const id of ["fake", "fake-minimal", "reference", "claude-code", "chatgpt"]) {
    assert.ok(shown.ids.includes(id), id);
  }
  const all = await ids(["--all"]);
  const variants = all.ids.filter((id) => id.startsWith("reference:"));
  assert.ok(variants.length > 1);
  // The reference agent and every broken variant (of the reference host, the reference agent, the fake).
  const agents = all.ids.filter((id) => id === "reference-agent" || /^(reference-agent|fake):/.test(id));
  assert.ok(
    agents.includes("reference-agent") && agents.includes("reference-agent:no-init"),
    agents.join(" "),
  );
  assert.ok(!shown.ids.some((id) => agents.includes(id)), shown.ids.join(" "));
  assert.equal(
    shown.stderr,
    `${variants.length + agents.length} test-only hosts not shown: add --all to list them\n`,
  );
  assert.equal(all.stderr, "");
  assert.deepEqual((await ids(["--host", variants[0]!])).ids, [variants[0]]);

  const table = memoryIo();
  assert.equal(await runCli(["list", "hosts"], table), 0);
  assert.doesNotMatch(table.stdout, /^reference:/m);
});

Deno.test("list counts read as words: 1 test across 1 host, 2 tests across 2 hosts", async () => {
  const one = await list(["--host", "fake", "--grep", "^cli/scripted/ordering$"]);
  assert.equal(one.stderr, "1 test across 1 host\n");
  const two = await list(["--host", "fake,fake-minimal", "--grep", "^cli/behavior/streaming$"]);
  assert.equal(two.stderr, "2 tests across 2 hosts\n");
});
