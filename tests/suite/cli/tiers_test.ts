import assert from "node:assert/strict";
import { HOSTS } from "../../../hosts/registry.ts";
import { groupAlive } from "../../../src/exec/process_group.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { behaviorTier } from "../../../suite/cli/behavior.ts";
import { compositionTier } from "../../../suite/cli/composition.ts";
import { cliDriver, createCliDriver } from "../../../suite/cli/driver.ts";
import { mismatches, runCase } from "../../../suite/cli/scripted.ts";
import { SCRIPTED_CASES } from "../../../suite/cli/scripted_cases.ts";
import { scriptedTier } from "../../../suite/cli/scripted.ts";
import { headlessSettings } from "../../_settings.ts";

const settings = headlessSettings({ timeoutMultiplier: 1.5 });

const MINE = /^cli\/(behavior|scripted|composition)\//;

const fakes = HOSTS.filter((host): host is CliHostEntry =>
  host.kind === "cli" && host.runner.scripted === true && !host.variantOf
);

Deno.test("fake and fake-minimal are registered, disagree on argv, env and capabilities", () => {
  assert.deepEqual(fakes.map((host) => host.id), ["fake", "fake-minimal"]);
  const [fake, minimal] = fakes.map((host) => host.runner.build("streaming", { prompt: "P" }));
  assert.notDeepEqual(fake!.args.slice(-2), minimal!.args.slice(-2));
  assert.deepEqual(fake!.args.slice(-3), ["--output-format", "stream-json", "P"]);
  assert.deepEqual(minimal!.args.slice(-2), ["run", "P"]);
  assert.notDeepEqual(fake!.env, minimal!.env);
  assert.notDeepEqual(fake!.capabilities, minimal!.capabilities);
  assert.ok(Object.isFrozen(fake) && Object.isFrozen(fake!.args), "invocations are immutable");
});

Deno.test("every fake lists behaviour, at least 16 scripted rows and the composition cases (>= 25)", () => {
  assert.ok(SCRIPTED_CASES.length >= 16);
  for (const host of fakes) {
    const ids = cliDriver.list(host, settings).map((test) => test.id).filter((id) => MINE.test(id));
    assert.ok(ids.length >= 25, `${host.id} lists ${ids.length}`);
    assert.equal(new Set(ids).size, ids.length, "ids are unique");
    for (const row of SCRIPTED_CASES) assert.ok(ids.includes(`cli/scripted/${row.name}`));
    assert.ok(
      ids.includes("cli/behavior/streaming") && ids.includes("cli/composition/blocking-json-structured"),
    );
    assert.ok(ids.every((id) => /^cli\/[a-z]+\/[a-z0-9-]+$/.test(id)), ids.join());
  }
});

Deno.test("the whole CLI suite passes on both fakes and leaves no process group behind", async () => {
  await Promise.all(fakes.map(async (host) => {
    const results = new Map<string, Outcome>();
    // Other tiers (constructability, capabilities, …) have their own tests; these three are this suite's.
    const driver = createCliDriver({ tiers: [behaviorTier, scriptedTier, compositionTier] });
    const tests = driver.list(host, settings);
    await driver.run(host, tests, settings, {
      started: () => {},
      finished: (_host, test, outcome) => results.set(test, outcome),
    });
    assert.equal(results.size, tests.length);
    const failing = [...results].filter(([, outcome]) => outcome.status !== "PASS");
    assert.deepEqual(failing.map(([id, o]) => `${id}: ${o.status} ${o.message}`), [], `${host.id} failures`);
    for (const [id, outcome] of results) {
      const pgid = outcome.details?.pgid;
      if (typeof pgid === "number") {
        assert.equal(await groupAlive(pgid), false, `${host.id} ${id} left group ${pgid}`);
      }
    }
  }));
});

Deno.test("a host that deviates from a row fails it, quoting both kind lists and the first divergence", async () => {
  const row = SCRIPTED_CASES.find((candidate) => candidate.name === "ordering")!;
  const deviant = { ...row, script: row.script.filter((line) => !line.startsWith("tool")) };
  const observation = await runCase(fakes[0]!, deviant, 3, new AbortController().signal);
  const problems = mismatches(row.expect, observation);
  assert.match(
    problems[0] ?? "",
    /^expected kinds \[init, text, tool_call, text, usage, terminal\], got \[init, text, text, usage, terminal\]: first divergence at index 2/,
  );
});

Deno.test("composition fails a host that cannot start, whatever its peers do (not agreement alone)", async () => {
  const fake = fakes[0]!;
  const broken: CliHostEntry = {
    ...fake,
    id: "fake-unstartable",
    runner: {
      ...fake.runner,
      name: "fake-unstartable",
      build: (path, request) => ({ ...fake.runner.build(path, request), binary: "/nonexistent/fake-host" }),
    },
  };
  const outcome = await compositionTier.run(
    broken,
    { id: "cli/composition/happy-path" },
    settings,
    new AbortController().signal,
  );
  assert.equal(outcome.status, "FAIL");
  assert.match(outcome.message ?? "", /^expected kinds \[init, text, usage, terminal\], got \[\]/);
  assert.match(outcome.message ?? "", /spawnError differs: fake-unstartable "/);
});
