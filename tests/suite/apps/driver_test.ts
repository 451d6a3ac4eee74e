import assert from "node:assert/strict";
import { REFERENCE_HOST, REFERENCE_VARIANT_HOSTS } from "../../../hosts/web/reference.ts";
import type { Outcome } from "../../../src/outcome.ts";
import type { RunSettings, TestCase } from "../../../src/suite.ts";
import { appsDriver, outcomeOf, refusingHost } from "../../../suite/apps/driver.ts";
import { runCommand } from "../../../cli/run.ts";
import { memoryIo } from "../../../cli/io.ts";
import { parseReport } from "../../../src/report/schema.ts";
import { CAPABILITY_KINDS, type CapabilityRequest } from "../../../src/protocol.ts";
import type { CapabilityContext, Host } from "../../../src/runner/host.ts";
import { headlessSettings } from "../../_settings.ts";

const SETTINGS = headlessSettings({ timeoutMultiplier: 2 });

async function run(
  tests: readonly TestCase[],
  settings: RunSettings = SETTINGS,
): Promise<{ started: string[]; finished: Map<string, Outcome> }> {
  const started: string[] = [];
  const finished = new Map<string, Outcome>();
  await appsDriver.run(REFERENCE_HOST, tests, settings, {
    started: (_host, test) => void started.push(test),
    finished: (_host, test, outcome) => {
      assert.ok(!finished.has(test), `${test} was reported twice`);
      assert.ok(started.includes(test), `${test} finished before it started`);
      finished.set(test, outcome);
    },
  });
  return { started, finished };
}

Deno.test("the apps driver lists the whole catalogue as apps/<area>/<name>, once each", () => {
  const ids = appsDriver.list(REFERENCE_HOST, SETTINGS).map((test) => test.id);
  assert.ok(ids.length >= 46, `${ids.length} tests`);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^apps\/[a-z-]+\/[a-z-]+$/);
  assert.ok(!appsDriver.accepts({ ...REFERENCE_HOST, kind: "cli" } as never));
});

Deno.test("a failed MAY becomes INFO with the suite's message and clause, not a SKIP", () => {
  const outcome = outcomeOf({
    id: "security/csp-no-unsafe-eval",
    name: "no unsafe-eval",
    status: "FAIL",
    vantage: "in-view",
    manual: false,
    clause: "MAY",
    message: "The View's CSP allows 'unsafe-eval'",
    value: { csp: "script-src 'self' 'unsafe-eval'" },
    durationMs: 3,
  });
  assert.equal(outcome.status, "INFO");
  assert.equal(outcome.message, "The View's CSP allows 'unsafe-eval'");
  assert.equal(outcome.details?.clause, "MAY");
  assert.deepEqual(outcome.details?.observed, { csp: "script-src 'self' 'unsafe-eval'" });
});

Deno.test({
  name:
    "a selection across renders runs each test in its launcher's render, traced in both pages; teardown is judged from the server log",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ids = [
      "apps/visibility/app-tool-call-guard",
      "apps/security/csp-default-deny",
      "apps/resources/meta-precedence",
      "apps/lifecycle/teardown-notify",
      "apps/lifecycle/teardown-await",
    ];
    const outDir = await Deno.makeTempDir({ prefix: "conformance-driver-test-" });
    try {
      const { finished } = await run(ids.map((id) => ({ id })), { ...SETTINGS, outDir, trace: "on" });
      assert.deepEqual([...finished.keys()].sort(), [...ids].sort());
      for (const [id, outcome] of finished) assert.equal(outcome.status, "PASS", `${id}: ${outcome.message}`);
      // The launchers without CSP render in the second host page: its trace is kept beside the main one.
      const traces = [...Deno.readDirSync(outDir)].map((file) => file.name).filter((name) =>
        name.endsWith(".zip")
      );
      assert.deepEqual(traces.sort(), ["reference-aside-trace.zip", "reference-trace.zip"]);
      for (const trace of traces) assert.ok(Deno.statSync(`${outDir}/${trace}`).size > 1_000, trace);
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a host that cannot start reports every planned test once, as ERROR with the reason",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const previous = Deno.env.get("CONFORMANCE_CHROMIUM");
    Deno.env.set("CONFORMANCE_CHROMIUM", "/nonexistent/chromium");
    try {
      const { finished } = await run([{ id: "apps/lifecycle/tool-input" }, {
        id: "apps/context/shape-valid",
      }]);
      assert.equal(finished.size, 2);
      for (const outcome of finished.values()) {
        assert.equal(outcome.status, "ERROR");
        assert.match(outcome.message ?? "", /Host setup failed/);
      }
    } finally {
      if (previous === undefined) Deno.env.delete("CONFORMANCE_CHROMIUM");
      else Deno.env.set("CONFORMANCE_CHROMIUM", previous);
    }
  },
});

Deno.test({
  name: "a failed manual test keeps a screenshot, and --trace on-failure keeps the trace",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const outDir = await Deno.makeTempDir({ prefix: "conformance-driver-test-" });
    try {
      const entry = REFERENCE_VARIANT_HOSTS.find((candidate) =>
        candidate.id === "reference:open-link-dropped"
      )!;
      const finished = new Map<string, Outcome>();
      await appsDriver.run(entry, [{ id: "apps/links/open-external" }], {
        ...SETTINGS,
        outDir,
        trace: "on-failure",
      }, {
        started: () => {},
        finished: (_host, test, outcome) => void finished.set(test, outcome),
      });
      const outcome = finished.get("apps/links/open-external");
      assert.equal(outcome?.status, "WARN", outcome?.message);
      const [screenshot] = outcome?.details?.screenshots as string[];
      assert.ok(screenshot?.startsWith(outDir), `screenshot ${screenshot} outside ${outDir}`);
      const png = await Deno.readFile(screenshot!);
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "the screenshot is a PNG");
      const files = [...Deno.readDirSync(outDir)].map((file) => file.name);
      assert.ok(files.some((name) => name.endsWith("-trace.zip")), `no trace in ${files.join(", ")}`);
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a failed test that is not manual keeps a screenshot of the host page too",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const outDir = await Deno.makeTempDir({ prefix: "conformance-driver-shot-" });
    try {
      const entry = REFERENCE_VARIANT_HOSTS.find((candidate) => candidate.id === "reference:bad-timezone")!;
      const finished = new Map<string, Outcome>();
      await appsDriver.run(entry, [{ id: "apps/context/shape-valid" }], { ...SETTINGS, outDir }, {
        started: () => {},
        finished: (_host, test, outcome) => void finished.set(test, outcome),
      });
      const outcome = finished.get("apps/context/shape-valid");
      assert.equal(outcome?.status, "FAIL", outcome?.message);
      const [screenshot] = outcome?.details?.screenshots as string[];
      const png = await Deno.readFile(screenshot!);
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "the screenshot is a PNG");
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a host whose CSP allows 'unsafe-eval' gets INFO with the reason, counted, and the run exits 0",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const io = memoryIo();
    const args = ["--host", "reference:csp-unsafe-eval", "--grep", "csp-no-unsafe-eval$"];
    const code = await runCommand([...args, "--reporter", "json,pretty"], io);
    const report = parseReport(io.stdout, "<stdout>");
    assert.equal(report.results.length, 1, io.stderr);
    const [result] = report.results;
    assert.equal(result?.test, "apps/security/csp-no-unsafe-eval");
    assert.equal(result?.status, "INFO", result?.message);
    assert.match(result?.message ?? "", /unsafe-eval/);
    assert.equal(report.summary.info, 1);
    assert.match(io.stderr, /1 result: 0 passed, 0 failed, 0 warned, 1 info, 0 skipped, .* all as expected/);
    assert.equal(code, 0, "an INFO never makes the run fail");
  },
});

Deno.test("a render aside answers every host request with an error naming its render, never a wrong answer", async () => {
  const host = refusingHost("reference", "run_conformance_nocsp");
  const context = { signal: new AbortController().signal } as CapabilityContext;
  for (const kind of CAPABILITY_KINDS) {
    const method =
      (host as unknown as Record<string, (r: CapabilityRequest, c: CapabilityContext) => unknown>)[kind];
    assert.equal(typeof method, "function", kind);
    const answer = await method!({ kind } as CapabilityRequest, context) as { ok: boolean; error?: string };
    assert.equal(answer.ok, false, kind);
    assert.match(
      answer.error ?? "",
      new RegExp(`^"${kind}" is not serviced in the run_conformance_nocsp render`),
    );
    assert.match(answer.error ?? "", /belongs in the run_conformance render/);
  }
  await host.setup({} as Parameters<Host["setup"]>[0]);
  await assert.rejects(() => host.launch("run_conformance"), /A render aside cannot launch/);
  await host.teardown();
});
