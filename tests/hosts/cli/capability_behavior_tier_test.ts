/**
 * The capability-behaviour tier's listing and its SKIPs, with no CLI started: the id scheme
 * (`cli/capability-behavior/tool-round-trip`, `<flag>-positive` where claimed, `<flag>-negative` always), the
 * tier in the run with `--mock-model`, and the reasons of a host without tool declarations or binary.
 */
import assert from "node:assert/strict";
import { claudeCode } from "../../../hosts/cli/claude_code.ts";
import { codex } from "../../../hosts/cli/codex.ts";
import { HOSTS } from "../../../hosts/registry.ts";
import type { CliHostEntry } from "../../../src/host.ts";
import { BEHAVIOR_FLAGS, capabilityBehaviorTier } from "../../../suite/cli/capability_behavior.ts";
import { withoutSequence } from "../../../suite/cli/capability_run.ts";
import { CLI_TIERS } from "../../../suite/cli/tiers.ts";
import { headlessSettings } from "../../_settings.ts";

const settings = headlessSettings({ mockModel: true });
const ids = (entry: CliHostEntry) => capabilityBehaviorTier.list(entry, settings).map((test) => test.id);

Deno.test("lists only with --mock-model and only for real CLIs", () => {
  const fake = HOSTS.find((entry): entry is CliHostEntry => entry.kind === "cli" && entry.id === "fake");
  assert.ok(fake);
  assert.deepEqual(capabilityBehaviorTier.list(fake, settings), []);
  assert.deepEqual(capabilityBehaviorTier.list(codex.entry, { ...settings, mockModel: false }), []);
  const listed = CLI_TIERS.flatMap((tier) => tier.list(codex.entry, settings)).map((test) => test.id);
  assert.ok(
    listed.includes("cli/capability-behavior/tool-round-trip"),
    "a --mock-model run includes the tier",
  );
});

Deno.test("ids: the round trip, a positive per claim (resume: the resume path), a negative per flag", () => {
  assert.deepEqual(BEHAVIOR_FLAGS, [
    "permissionSkip",
    "toolAllowlist",
    "workspaceSandboxed",
    "structuredOutput",
    "resume",
    "agentSelect",
  ]);
  assert.deepEqual(ids(codex.entry), [
    "cli/capability-behavior/tool-round-trip",
    "cli/capability-behavior/permissionSkip-positive",
    "cli/capability-behavior/permissionSkip-negative",
    "cli/capability-behavior/toolAllowlist-negative",
    "cli/capability-behavior/workspaceSandboxed-negative",
    "cli/capability-behavior/structuredOutput-negative",
    "cli/capability-behavior/resume-positive",
    "cli/capability-behavior/resume-negative",
    "cli/capability-behavior/agentSelect-negative",
  ]);
  const claude = ids(claudeCode.entry);
  for (const flag of BEHAVIOR_FLAGS) {
    assert.ok(claude.includes(`cli/capability-behavior/${flag}-positive`), `claude claims ${flag}`);
    assert.ok(claude.includes(`cli/capability-behavior/${flag}-negative`));
  }
  for (const test of capabilityBehaviorTier.list(claudeCode.entry, settings)) assert.ok(test.title);
});

Deno.test("SKIP with the reason: no tool declarations, binary absent; a positive the host does not claim FAILs", async () => {
  const { toolBehavior: _drop, ...undeclared } = codex.runner;
  const bare: CliHostEntry = { ...codex.entry, runner: undeclared };
  assert.ok(ids(bare).includes("cli/capability-behavior/tool-round-trip"), "still listed, SKIPped by run");
  const skipped = await capabilityBehaviorTier.run(
    bare,
    { id: "cli/capability-behavior/tool-round-trip" },
    settings,
    settings.signal,
  );
  assert.equal(skipped.status, "SKIP");
  assert.equal(skipped.message, "no tool names declared in its host file");

  Deno.env.set("CONFORMANCE_CODEX_BIN", "/nonexistent/codex");
  try {
    const absent = await capabilityBehaviorTier.run(
      codex.entry,
      { id: "cli/capability-behavior/permissionSkip-negative" },
      settings,
      settings.signal,
    );
    assert.equal(absent.status, "SKIP");
    assert.match(absent.message ?? "", /binary absent/);
  } finally {
    Deno.env.delete("CONFORMANCE_CODEX_BIN");
  }
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/bin`, "#!/bin/sh\nexit 0\n");
    await Deno.chmod(`${dir}/bin`, 0o755);
    Deno.env.set("CONFORMANCE_CODEX_BIN", `${dir}/bin`);
    const unclaimed = await capabilityBehaviorTier.run(
      codex.entry,
      { id: "cli/capability-behavior/toolAllowlist-positive" },
      settings,
      settings.signal,
    );
    assert.equal(unclaimed.status, "FAIL");
    assert.match(unclaimed.message ?? "", /does not claim toolAllowlist/);
  } finally {
    Deno.env.delete("CONFORMANCE_CODEX_BIN");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the permission bypass is taken out of argv as a sequence, once", () => {
  assert.deepEqual(
    withoutSequence(["-p", "x", "--approval-mode", "yolo", "-m", "m"], ["--approval-mode", "yolo"]),
    [
      "-p",
      "x",
      "-m",
      "m",
    ],
  );
  assert.deepEqual(withoutSequence(["--yolo", "P"], ["--auto"]), ["--yolo", "P"]);
  assert.deepEqual(withoutSequence(["a"], []), ["a"]);
});
