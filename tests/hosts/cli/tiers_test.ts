/**
 * The constructability, capabilities and mock-model tiers over the registry, with regression guards: runners
 * built to break each rule must make the tier fail.
 */
import assert from "node:assert/strict";
import { claudeCode } from "../../../hosts/cli/claude_code.ts";
import { codex } from "../../../hosts/cli/codex.ts";
import { HOSTS } from "../../../hosts/registry.ts";
import type { HostRunner } from "../../../src/exec/host_runner.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import type { RunSettings } from "../../../src/suite.ts";
import { capabilitiesTier } from "../../../suite/cli/capabilities.ts";
import { constructabilityTier } from "../../../suite/cli/constructability.ts";
import { mockModelTier } from "../../../suite/cli/mock_model.ts";
import { headlessSettings } from "../../_settings.ts";

const settings = headlessSettings({ mockModel: true });
const cliEntries = HOSTS.filter((entry): entry is CliHostEntry => entry.kind === "cli");
const entryWith = (runner: HostRunner): CliHostEntry => ({ ...claudeCode.entry, runner });
const runTest = (tier: typeof capabilitiesTier, entry: CliHostEntry, id: string, s: RunSettings = settings) =>
  tier.run(entry, { id }, s, settings.signal);

/** A runner whose binary is this test's own temporary executable, so "binary absent" never decides. */
async function withBinary<T>(host: string, body: () => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir();
  const name = `CONFORMANCE_${host.toUpperCase().replace(/-/g, "_")}_BIN`;
  try {
    await Deno.writeTextFile(`${dir}/bin`, "#!/bin/sh\nexit 0\n");
    await Deno.chmod(`${dir}/bin`, 0o755);
    Deno.env.set(name, `${dir}/bin`);
    return await body();
  } finally {
    Deno.env.delete(name);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("constructability: five standard golden paths per host, plus the user's own", () => {
  const ids = constructabilityTier.list(claudeCode.entry, {
    ...settings,
    goldenPaths: [{ name: "plan-step", mode: "streaming", prompt: "Plan it", options: { model: "small" } }],
  }).map((test) => test.id);
  assert.deepEqual(ids, [
    "cli/constructability/streaming",
    "cli/constructability/blocking-json",
    "cli/constructability/resume",
    "cli/constructability/detached",
    "cli/constructability/version-check",
    "cli/constructability/plan-step",
  ]);
});

Deno.test("constructability: PASS, SKIP unsupported path, SKIP binary absent, user path, FAIL broken", async () => {
  await withBinary("claude-code", async () => {
    const ok = await runTest(constructabilityTier, claudeCode.entry, "cli/constructability/streaming");
    assert.equal(ok.status, "PASS", ok.message);
    const user = await runTest(constructabilityTier, claudeCode.entry, "cli/constructability/plan-step", {
      ...settings,
      goldenPaths: [{ name: "plan-step", mode: "streaming", prompt: "Plan it", options: { model: "small" } }],
    });
    assert.equal(user.status, "PASS", user.message);
    assert.ok((user.details?.args as string[]).includes("small"));

    const empty = entryWith({
      ...claudeCode.runner,
      build: (path, request) => ({ ...claudeCode.runner.build(path, request), args: [] }),
    });
    const broken = await runTest(constructabilityTier, empty, "cli/constructability/streaming");
    assert.equal(broken.status, "FAIL");
    assert.match(broken.message ?? "", /empty argv/);
    const noBinary = entryWith({
      ...claudeCode.runner,
      build: (path, request) => ({ ...claudeCode.runner.build(path, request), binary: "" }),
    });
    assert.match(
      (await runTest(constructabilityTier, noBinary, "cli/constructability/streaming")).message ?? "",
      /empty binary/,
    );
  });
  await withBinary("codex", async () => {
    const unsupported = await runTest(
      constructabilityTier,
      codex.entry,
      "cli/constructability/blocking-json",
    );
    assert.equal(unsupported.status, "SKIP");
    assert.match(unsupported.message ?? "", /unsupported by codex: codex has no single-document JSON output/);
  });
  Deno.env.set("CONFORMANCE_CODEX_BIN", "/nonexistent/codex");
  try {
    const absent = await runTest(constructabilityTier, codex.entry, "cli/constructability/streaming");
    assert.equal(absent.status, "SKIP");
    assert.match(absent.message ?? "", /^binary absent: "codex"/);
  } finally {
    Deno.env.delete("CONFORMANCE_CODEX_BIN");
  }
});

Deno.test("capabilities: one test per flag, in the direction of the claim, and every registered host passes", async () => {
  // The broken variants fail what they break: tests/hosts/cli/reference_agent_variants_test.ts holds them to it.
  for (const entry of cliEntries.filter((candidate) => !candidate.variantOf)) {
    const tests = capabilitiesTier.list(entry, settings);
    assert.equal(tests.length, 6, entry.id);
    for (const test of tests) {
      const outcome = await runTest(capabilitiesTier, entry, test.id);
      assert.equal(outcome.status, "PASS", `${entry.id} ${test.id}: ${outcome.message}`);
    }
  }
});

Deno.test("capabilities guards: a dropped claim, a leaked disclaimer and a missing marker all FAIL", async () => {
  const claudeDropsAgent = entryWith({
    ...claudeCode.runner,
    build: (path, { agent: _dropped, ...request }) => claudeCode.runner.build(path, request),
  });
  const dropped = await runTest(capabilitiesTier, claudeDropsAgent, "cli/capabilities/agentSelect-positive");
  assert.equal(dropped.status, "FAIL");
  assert.match(dropped.message ?? "", /agentSelect is claimed but the requested "conformance-agent-probe"/);

  const codexLeaksTools = entryWith({
    ...codex.runner,
    build: (path, request) => {
      const built = codex.runner.build(path, request);
      return { ...built, args: [...built.args, "--tools", (request.tools ?? []).join(",")] };
    },
  });
  const leaked = await runTest(capabilitiesTier, codexLeaksTools, "cli/capabilities/toolAllowlist-negative");
  assert.equal(leaked.status, "FAIL");
  assert.match(leaked.message ?? "", /disclaimed but the requested "conformance_tool_probe" reaches argv/);

  const codexSneaksBypass = entryWith({
    ...codex.runner,
    capabilities: { ...codex.runner.capabilities, permissionSkip: false },
  });
  const sneaked = await runTest(
    capabilitiesTier,
    codexSneaksBypass,
    "cli/capabilities/permissionSkip-negative",
  );
  assert.equal(sneaked.status, "FAIL");
  assert.match(
    sneaked.message ?? "",
    /disclaimed but marker\(s\) \["--dangerously-bypass-approvals-and-sandbox"\]/,
  );

  const noMarkers = entryWith({ ...claudeCode.runner, capabilityMarkers: {} });
  const unmarked = await runTest(capabilitiesTier, noMarkers, "cli/capabilities/streaming-positive");
  assert.match(unmarked.message ?? "", /declares no marker/);
});

Deno.test("mock-model tier: lists only with --mock-model, only for real CLIs, golden paths plus three faults", () => {
  const fake = cliEntries.find((entry) => entry.id === "fake");
  assert.ok(fake);
  assert.deepEqual(mockModelTier.list(fake, settings), []);
  assert.deepEqual(mockModelTier.list(claudeCode.entry, { ...settings, mockModel: false }), []);
  assert.deepEqual(mockModelTier.list(codex.entry, settings).map((test) => test.id), [
    "cli/mock-model/streaming",
    "cli/mock-model/resume",
    "cli/mock-model/detached",
    "cli/mock-model/fault-http-500",
    "cli/mock-model/fault-malformed",
    "cli/mock-model/fault-disconnect",
  ]);
});

Deno.test("mock-model tier: SKIP with the reason when the binary is absent or no mock setup exists", async () => {
  Deno.env.set("CONFORMANCE_CODEX_BIN", "/nonexistent/codex");
  try {
    const absent = await runTest(mockModelTier, codex.entry, "cli/mock-model/streaming");
    assert.equal(absent.status, "SKIP");
    assert.match(absent.message ?? "", /binary absent/);
  } finally {
    Deno.env.delete("CONFORMANCE_CODEX_BIN");
  }
  const { mockModel: _drop, ...rest } = codex.runner;
  const unpointable = entryWith({ ...rest, mockModelUnsupported: "it has no base-URL setting" });
  const skipped = await runTest(mockModelTier, unpointable, "cli/mock-model/streaming");
  assert.equal(skipped.status, "SKIP");
  assert.match(skipped.message ?? "", /it has no base-URL setting/);
});
