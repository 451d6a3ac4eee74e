import assert from "node:assert/strict";
import type { CliHostEntry } from "../../../src/host.ts";
import { NO_CAPABILITIES } from "../../../src/exec/host_runner.ts";
import type { Outcome } from "../../../src/outcome.ts";
import type { RunSettings } from "../../../src/suite.ts";
import { createCliDriver } from "../../../suite/cli/driver.ts";
import type { CliTier } from "../../../suite/cli/tiers.ts";
import { headlessSettings } from "../../_settings.ts";

const entry: CliHostEntry = {
  id: "probe",
  kind: "cli",
  summary: "a host entry for driver tests",
  capabilities: [],
  runner: {
    name: "probe",
    binary: "probe",
    dialect: "claude",
    capabilities: NO_CAPABILITIES,
    streamShape: { init: "required", terminal: "event" },
    goldenPaths: [],
    detect: () => Promise.resolve(null),
    build: () => {
      throw new Error("not buildable");
    },
  },
};

function settings(signal = new AbortController().signal): RunSettings {
  return headlessSettings({ signal });
}

function recordingSink() {
  const started: string[] = [];
  const finished = new Map<string, Outcome>();
  return {
    started,
    finished,
    sink: {
      started: (_host: string, test: string) => started.push(test),
      finished: (_host: string, test: string, outcome: Outcome) => finished.set(test, outcome),
    },
  };
}

Deno.test("the driver runs the tests of a host concurrently, bounded, and reports each", async () => {
  let running = 0;
  let peak = 0;
  const tier: CliTier = {
    name: "probe",
    list: () => Array.from({ length: 9 }, (_, i) => ({ id: `cli/probe/case-${i}` })),
    async run(_entry, test) {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      return test.id.endsWith("3") ? { status: "FAIL", message: "three" } : { status: "PASS" };
    },
  };
  const driver = createCliDriver({ tiers: [tier], concurrency: 3 });
  const tests = driver.list(entry, settings());
  assert.equal(tests.length, 9);
  const { sink, started, finished } = recordingSink();
  await driver.run(entry, tests, settings(), sink);
  assert.equal(started.length, 9);
  assert.equal(finished.size, 9);
  assert.equal(finished.get("cli/probe/case-3")?.status, "FAIL");
  assert.equal(finished.get("cli/probe/case-4")?.status, "PASS");
  assert.ok(peak > 1 && peak <= 3, `peak concurrency ${peak} should be within 2..3`);
});

Deno.test("a throwing tier is an ERROR, an overdue one a TIMEOUT, an unknown tier an ERROR", async () => {
  let sawAbort = false;
  const tier: CliTier = {
    name: "probe",
    timeoutMs: 50,
    list: () => [{ id: "cli/probe/throws" }, { id: "cli/probe/hangs" }],
    run(_entry, test, _settings, signal) {
      if (test.id.endsWith("throws")) return Promise.reject(new Error("boom"));
      return new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          sawAbort = true;
          resolve({ status: "PASS" });
        });
      });
    },
  };
  const driver = createCliDriver({ tiers: [tier] });
  const { sink, finished } = recordingSink();
  await driver.run(entry, [...driver.list(entry, settings()), { id: "cli/nowhere/x" }], settings(), sink);
  assert.equal(finished.get("cli/probe/throws")?.status, "ERROR");
  assert.match(finished.get("cli/probe/throws")?.message ?? "", /boom/);
  assert.equal(finished.get("cli/probe/hangs")?.status, "TIMEOUT");
  assert.ok(sawAbort, "the tier's signal must abort at the deadline");
  assert.equal(finished.get("cli/nowhere/x")?.status, "ERROR");
});
