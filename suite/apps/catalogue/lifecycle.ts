/**
 * Lifecycle: the handshake, the one-shot tool data, cancellation, teardown, ping, logging.
 *
 * @module
 */
import { LATEST_PROTOCOL_VERSION, McpUiInitializeResultSchema } from "@modelcontextprotocol/ext-apps";
import { LAUNCH_RESULT_META, TEARDOWN_ACK_DELAY_MS } from "../../../src/fixtures.ts";
import type { SuiteEnv } from "../harness/env.ts";
import { suiteDeadline } from "../harness/timing.ts";
import type { TestContext } from "../harness/test_api.ts";
import { requireCapability, type SuiteTest } from "./_shared.ts";
import { delay } from "../../../src/time.ts";

/** How long the suite waits for the one-shot tool data after connecting. */
const TOOL_DATA_WAIT_MS = 5_000;
/** Quiet time after the tool result, to catch late or duplicate notifications. */
const SETTLE_MS = 300;

const settled = new WeakMap<SuiteEnv, Promise<unknown>>();

/** The tool data once the result arrived (or the wait ran out) and the channel was quiet for a moment. */
async function settledToolData(env: SuiteEnv) {
  if (!settled.has(env)) {
    settled.set(
      env,
      env.recorder.next("toolresult", { timeoutMs: TOOL_DATA_WAIT_MS })
        .then(() => delay(SETTLE_MS)),
    );
  }
  await settled.get(env);
  const result = env.recorder.events.toolresult[0];
  return { input: env.recorder.events.toolinput, result, partials: env.recorder.events.toolinputpartial };
}

async function launchArguments(env: SuiteEnv): Promise<unknown | undefined> {
  const launcher = env.config().launcher;
  try {
    const log = await env.serverLog();
    return log.toolCalls.filter((call) => call.name === launcher).at(-1)?.arguments ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the host still answers the View: any answer to a display-mode request for the current mode (even an
 * error) counts. Not `ping`, so a host that only drops pings does not fail the logging check.
 */
async function answers(env: SuiteEnv): Promise<boolean> {
  const mode = env.app.getHostContext()?.displayMode ?? "inline";
  try {
    await env.app.requestDisplayMode({ mode }, { timeout: suiteDeadline(3_000) });
    return true;
  } catch (error) {
    return !/timed out/i.test(String(error));
  }
}

async function teardownNotify(t: TestContext, env: SuiteEnv): Promise<void> {
  await tearDown(t, env);
  if (env.teardown.receivedAt === undefined) {
    t.skip("The host kept the View and sent no ui/resource-teardown (a host may ignore a teardown request)");
  }
  t.note("The host sent ui/resource-teardown but kept the View");
}

/**
 * Asks the host to tear the View down, and waits for the removal that ends the run (then the Runner judges
 * both teardown tests from the server log). Returns when the host kept the View.
 */
async function tearDown(t: TestContext, env: SuiteEnv): Promise<void> {
  // The verdict comes from the receipts the View posts to the app-only log tool: a host that refuses the View
  // that tool would read as one that removed the View without a teardown.
  try {
    await env.serverLog();
  } catch (error) {
    t.skip(
      `Not testable: the View cannot reach conformance_server_log (app-only; see tools/proxy-call), so its ` +
        `teardown receipt could not reach the server either: ${
          error instanceof Error ? error.message : String(error)
        }`,
    );
  }
  const answer = await t.hostOptional({ kind: "triggerTeardown", reason: "conformance teardown check" });
  if (answer.unsupported) {
    await env.app.requestTeardown();
  } else if (!answer.ok) {
    t.fail(`Not testable: the host could not tear the View down: ${answer.error ?? "?"}`);
  }
  // Still here: the host kept the View. Give a removal time to happen; if it does, the Runner judges.
  await t.sleep(TEARDOWN_ACK_DELAY_MS + 2_000);
}

/** The lifecycle tests. */
export const LIFECYCLE: SuiteTest[] = [
  {
    id: "lifecycle/initialize-result",
    name: "The ui/initialize result has protocolVersion, hostInfo and hostCapabilities",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const response = env.recorder.raw.find((m) => m.hasResult && typeof m.data.result === "object");
      t.assert(response, "No ui/initialize response was seen");
      const parsed = McpUiInitializeResultSchema.safeParse(response.data.result);
      t.assert(parsed.success, `The ui/initialize result is not schema-valid: ${parsed.error?.message}`);
      const result = response.data.result as Record<string, unknown>;
      t.assert(typeof result.protocolVersion === "string", "protocolVersion is missing");
      // The SDK accepts any string here; the host must answer with the version the View asked for.
      t.assertEqual(result.protocolVersion, LATEST_PROTOCOL_VERSION, "The negotiated protocolVersion");
      const hostInfo = result.hostInfo as { name?: unknown; version?: unknown };
      t.assert(typeof hostInfo.name === "string" && hostInfo.name.length > 0, "hostInfo.name is empty");
      t.observe("protocolVersion", result.protocolVersion);
      t.observe("hostInfo", result.hostInfo);
      return Promise.resolve();
    },
  },
  {
    id: "lifecycle/nothing-before-initialized",
    name: "The host sends nothing to the View before ui/notifications/initialized",
    clause: "MUST NOT",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const sentAt = env.recorder.initializedSentAt;
      t.assert(sentAt !== undefined, "The View never sent ui/notifications/initialized");
      const early = env.recorder.raw.filter((m) => m.at < sentAt && m.method !== undefined).map((m) =>
        m.method
      );
      t.assert(early.length === 0, `The host sent ${early.join(", ")} before initialized`, early);
      return Promise.resolve();
    },
  },
  {
    id: "lifecycle/tool-input",
    name: "tool-input arrives with the launcher's arguments",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const input = await env.recorder.next("toolinput", { timeoutMs: TOOL_DATA_WAIT_MS });
      t.assert(input, `No ui/notifications/tool-input within ${TOOL_DATA_WAIT_MS} ms`);
      const sent = await launchArguments(env);
      if (sent === undefined) {
        const structured = env.recorder.events.toolresult[0]?.params.structuredContent as
          | Record<string, unknown>
          | undefined;
        if (structured && "marker" in structured) {
          t.assertEqual(input.params.arguments?.marker ?? null, structured.marker, "tool-input marker");
        } else t.note("The arguments could not be cross-checked (no server log, no launch result)");
        return;
      }
      t.assertEqual(
        input.params.arguments ?? {},
        sent ?? {},
        "tool-input arguments vs the server's tools/call",
      );
    },
  },
  {
    id: "lifecycle/tool-input-once",
    name: "tool-input is sent at most once",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { input } = await settledToolData(env);
      if (input.length === 0) t.skip("No tool-input arrived (see lifecycle/tool-input)");
      t.assert(input.length === 1, `tool-input arrived ${input.length} times`);
    },
  },
  {
    id: "lifecycle/tool-input-before-result",
    name: "tool-input arrives before tool-result",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { input, result } = await settledToolData(env);
      if (!result) t.skip("No tool-result arrived (see lifecycle/tool-result)");
      const first = input[0];
      t.assert(first, "tool-result arrived without any tool-input");
      t.assert(first.at < result.at, "tool-result arrived before tool-input");
    },
  },
  {
    id: "lifecycle/tool-input-partial-stop",
    name: "No tool-input-partial after tool-input",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { input, partials } = await settledToolData(env);
      const first = input[0];
      if (!first) t.skip("No tool-input arrived (see lifecycle/tool-input)");
      // A host that streams no partial input at all has nothing to stop: a PASS would claim what nobody saw.
      if (partials.length === 0) t.skip("The host sent no tool-input-partial, nothing to check");
      const late = partials.filter((p) => p.at > first.at);
      t.assert(late.length === 0, `${late.length} tool-input-partial arrived after tool-input`);
      t.observe("partials", { total: partials.length, beforeInput: partials.length - late.length });
    },
  },
  {
    id: "lifecycle/tool-result",
    name: "tool-result arrives",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const result = await env.recorder.next("toolresult", { timeoutMs: TOOL_DATA_WAIT_MS });
      t.assert(result, `No ui/notifications/tool-result within ${TOOL_DATA_WAIT_MS} ms`);
    },
  },
  {
    id: "lifecycle/tool-result-fidelity",
    name: "tool-result carries structuredContent, _meta and isError verbatim",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const result = await env.recorder.next("toolresult", { timeoutMs: TOOL_DATA_WAIT_MS });
      if (!result) t.skip("No tool-result arrived (see lifecycle/tool-result)");
      const { params } = result;
      const meta = params._meta as Record<string, unknown> | undefined;
      t.assert(meta, "The tool-result has no _meta: the host dropped it");
      for (const [key, value] of Object.entries(LAUNCH_RESULT_META)) {
        t.assertEqual(meta[key], value, `_meta["${key}"]`);
      }
      const structured = params.structuredContent as Record<string, unknown> | undefined;
      t.assert(structured, "The tool-result has no structuredContent");
      t.assert(
        typeof structured.launcher === "string",
        "structuredContent lost its launcher field",
        structured,
      );
      t.assert(params.isError !== true, "The tool-result claims isError: true, the server sent none");
      t.assert(Array.isArray(params.content) && params.content.length > 0, "The tool-result has no content");
    },
  },
  {
    id: "lifecycle/ping",
    name: "ping is answered",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      try {
        await env.app.request({ method: "ping" }, { timeout: suiteDeadline(3_000) });
      } catch (error) {
        t.fail(`ping was not answered: ${String(error)}`);
      }
    },
  },
  {
    id: "logging/accepted",
    name: "notifications/message does not break the channel",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "logging");
      if (!await answers(env)) t.skip("Control failed: the host answered nothing even before the log");
      await env.app.sendLog({ level: "info", logger: "conformance", data: "logging/accepted probe" });
      t.assert(await answers(env), "The channel stopped answering after a notifications/message");
    },
  },
  {
    id: "lifecycle/tool-cancelled",
    name: "tool-cancelled arrives with its reason",
    clause: "MUST",
    vantage: "in-view",
    manual: true,
    caveat: "Needs the host's cancel hook (local reference host); manual on real hosts",
    async run(t: TestContext, env: SuiteEnv) {
      const since = performance.now();
      const reason = env.nonce("cancel");
      const answer = await t.host({ kind: "cancelTool", reason }) as { reason?: unknown } | undefined;
      const got = await env.recorder.next("toolcancelled", { since, timeoutMs: 3_000 });
      t.assert(got, "No ui/notifications/tool-cancelled after the tool was cancelled");
      t.observe("reason", got.params.reason ?? null);
      if (answer?.reason === reason) {
        // A hook that took our reason must deliver that reason, not another one.
        t.assertEqual(got.params.reason, reason, "The reason in tool-cancelled (the host was given it)");
        return;
      }
      // The host's own cancel control: the reason is the host's to word, but it must be there.
      t.assert(
        typeof got.params.reason === "string" && got.params.reason.trim() !== "",
        "tool-cancelled has no reason",
        got.params,
      );
      t.note(`The host cancelled with its own control; its reason: "${got.params.reason}"`);
    },
  },
  {
    id: "lifecycle/teardown-notify",
    name: "ui/resource-teardown comes before the View is removed",
    clause: "MUST",
    vantage: "server",
    manual: true,
    phase: "last",
    caveat: "The View is gone afterwards: the Runner judges from the server log (judgeTeardown)",
    timeoutMs: 20_000,
    run: teardownNotify,
  },
  {
    id: "lifecycle/teardown-await",
    name: "The host awaits the View's teardown answer before removing it",
    clause: "SHOULD",
    vantage: "server",
    manual: true,
    phase: "last",
    caveat: "Judged with lifecycle/teardown-notify from the server log once the View is gone",
    async run(t: TestContext, env: SuiteEnv) {
      // Run without teardown-notify (alone, or first), it tears the View down itself: its verdict must not
      // depend on which test ran before it.
      if (env.teardown.receivedAt === undefined) await tearDown(t, env);
      t.skip("The View was not torn down, so there was no answer to await");
    },
  },
];
