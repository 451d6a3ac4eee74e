import assert from "node:assert/strict";
import {
  answerFound,
  CAPABILITY_KINDS,
  CHANNEL,
  consoleAnswer,
  conversationAnswer,
  dialogKindOf,
  isCapabilityResult,
  outcomeStatusOf,
  runsUnder,
  runTestId,
  severityOf,
  SUITE_STATUSES,
  withFrameChain,
} from "../src/protocol.ts";

Deno.test("outcomeStatusOf maps a failed check by its clause: MUST → FAIL, SHOULD → WARN, MAY → INFO", () => {
  const table = [
    ["PASS", "MUST", "PASS"],
    ["FAIL", "MUST", "FAIL"],
    ["FAIL", "MUST NOT", "FAIL"],
    ["FAIL", "REQUIRED", "FAIL"],
    ["FAIL", undefined, "FAIL"],
    ["FAIL", "SHOULD", "WARN"],
    ["FAIL", "SHOULD NOT", "WARN"],
    // A MAY not taken ran and observed something: INFO, never the "could not apply" of a SKIP.
    ["FAIL", "MAY", "INFO"],
    ["SKIP", "MAY", "SKIP"],
    ["PASS", "MAY", "PASS"],
    ["SKIP", "MUST", "SKIP"],
    ["TIMEOUT", "SHOULD", "TIMEOUT"],
    ["NOTRUN", "MUST", "ERROR"],
  ] as const;
  for (const [status, clause, expected] of table) {
    assert.equal(outcomeStatusOf(clause ? { status, clause } : { status }), expected, `${status} ${clause}`);
  }
  assert.equal(severityOf("MAY"), "info");
  assert.deepEqual([...SUITE_STATUSES], ["PASS", "FAIL", "TIMEOUT", "SKIP", "NOTRUN"]);
});

Deno.test("the channel keeps the upstream name; request kinds are unique", () => {
  assert.equal(CHANNEL, "__mcpConformance");
  assert.equal(new Set(CAPABILITY_KINDS).size, CAPABILITY_KINDS.length);
  for (
    const upstream of [
      "clickTrigger",
      "confirmDialog",
      "checkLinkOpen",
      "conversationContains",
      "toggleTheme",
    ]
  ) {
    assert.ok((CAPABILITY_KINDS as readonly string[]).includes(upstream), upstream);
  }
});

Deno.test("isCapabilityResult accepts answers and rejects junk that crossed frame.evaluate", () => {
  assert.equal(isCapabilityResult({ ok: true, value: 1 }), true);
  assert.equal(isCapabilityResult({ ok: false, unsupported: true }), true);
  assert.equal(isCapabilityResult({ ok: false, error: "x" }), true);
  assert.equal(isCapabilityResult(null), false);
  assert.equal(isCapabilityResult({ ok: "yes" }), false);
  assert.equal(isCapabilityResult({ ok: false, error: 3 }), false);
});

Deno.test("runTestId prefixes apps/ once; runsUnder defaults to run_conformance", () => {
  assert.equal(runTestId("visibility/app-tool-hidden"), "apps/visibility/app-tool-hidden");
  assert.equal(runTestId("apps/visibility/app-tool-hidden"), "apps/visibility/app-tool-hidden");
  assert.equal(runsUnder({}, "run_conformance"), true);
  assert.equal(runsUnder({}, "run_conformance_nocsp"), false);
  assert.equal(runsUnder({ launcher: "run_conformance_nocsp" }, "run_conformance_nocsp"), true);
});

Deno.test("conversationContains and readConsole answer with ok as the finding, the details in value", () => {
  assert.deepEqual(conversationAnswer({ found: false }), { ok: false, value: { found: false } });
  assert.deepEqual(conversationAnswer({ found: true, text: "m" }), {
    ok: true,
    value: { found: true, text: "m" },
  });
  assert.deepEqual(consoleAnswer({ matched: false }), { ok: false, value: { matched: false } });
  assert.equal(consoleAnswer({ matched: true, line: "l" }).ok, true);
  // Read back the upstream way: a miss is false, a failure or an unsupported kind is not an answer.
  assert.equal(answerFound({ ok: true }), true);
  assert.equal(answerFound({ ok: false }), false);
  assert.equal(answerFound(conversationAnswer({ found: false })), false);
  assert.deepEqual(answerFound({ ok: false, error: "no page" }), { ok: false, error: "no page" });
  assert.deepEqual(answerFound({ ok: false, unsupported: true }), { ok: false, unsupported: true });
});

Deno.test("dialogKindOf resolves upstream's open-link to link and knows no other dialog", () => {
  assert.equal(dialogKindOf("open-link"), "link");
  for (const kind of ["download", "sampling", "link"]) assert.equal(dialogKindOf(kind), kind);
  for (const unknown of ["camera", "toString", "__proto__", "", 3, undefined]) {
    assert.equal(dialogKindOf(unknown), null, String(unknown));
  }
});

Deno.test("withFrameChain adds upstream's view fields: the sandbox nearest the View, and the chain's depth", () => {
  const base = { total: 2, sandboxed: 1, firstSandbox: "allow-scripts allow-same-origin", allow: null };
  const link = (depth: number, sandbox: string | null) => ({ depth, sandbox, allow: null });
  // A double iframe: the proxy is sandboxed, the View's own frame more tightly.
  const tight = withFrameChain(base, [
    link(0, null),
    link(1, "allow-scripts allow-same-origin"),
    link(2, "allow-scripts"),
  ]);
  assert.equal(tight.viewSandboxed, true);
  assert.equal(tight.viewSandbox, "allow-scripts");
  assert.equal(tight.viewChainDepth, 2);
  assert.equal(tight.viewSandboxDepth, 1);
  // Only the proxy sandboxed: it still confines the View, one frame out.
  const proxy = withFrameChain(base, [link(0, null), link(1, "allow-scripts"), link(2, null)]);
  assert.deepEqual(
    [proxy.viewSandboxed, proxy.viewSandbox, proxy.viewChainDepth, proxy.viewSandboxDepth],
    [true, "allow-scripts", 2, 2],
  );
  const bare = withFrameChain({ ...base, sandboxed: 0, firstSandbox: null }, [link(0, null), link(1, null)]);
  assert.deepEqual(
    [bare.viewSandboxed, bare.viewSandbox, bare.viewChainDepth, bare.viewSandboxDepth],
    [false, null, 1, null],
  );
  assert.equal(bare.frames?.length, 2, "the chain itself stays beside the upstream fields");
});
