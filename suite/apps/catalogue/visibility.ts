/**
 * Visibility: the tools/call rule (the host rejects an app's call to a tool whose visibility
 * lacks "app") and the tools/list rule (the model's list holds only tools whose visibility includes "model").
 * Every "rejected" assertion runs next to a call that must succeed.
 *
 * @module
 */
import type { SecondServerLog } from "../../../src/fixtures.ts";
import type { ModelToolList } from "../../../src/protocol.ts";
import type { SuiteEnv } from "../harness/env.ts";
import { brief, type TestContext } from "../harness/test_api.ts";
import { type SuiteTest, textOf, tryCall } from "./_shared.ts";

/** The tool that proves a model tool list is real: the launcher is always listed for the model. */
const LIST_CONTROL = "run_conformance";

async function modelTools(t: TestContext): Promise<string[]> {
  const value = await t.host({ kind: "readModelToolList" }) as ModelToolList | undefined;
  t.assert(Array.isArray(value), "Not testable: readModelToolList returned no tool list", value);
  t.assert(value.includes(LIST_CONTROL), `Not testable: the model tool list lacks ${LIST_CONTROL}`, value);
  return value;
}

/** The second server's log as the main server reports it, or why there is none to read. */
async function secondServerLog(env: SuiteEnv): Promise<SecondServerLog | string> {
  try {
    return (await env.serverLog()).secondServer ?? "no second server runs beside the main one";
  } catch (error) {
    return `the server log could not be read (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Why the second server's log does not prove the host connected to it, or `null` when it does. */
function notConnected(log: SecondServerLog | string): string | null {
  if (typeof log === "string") return log;
  if (!log.initialized) return "the host never connected to the second server (its log shows no initialize)";
  if (!log.toolsListed) {
    return "the host never listed the second server's tools (its log shows no tools/list)";
  }
  return null;
}

async function controlCall(t: TestContext, env: SuiteEnv): Promise<void> {
  const control = await tryCall(env, "conformance_probe", { payload: env.nonce("control") });
  if (control.rejected) {
    t.skip(`Positive control failed: the app-only conformance_probe was rejected too (${control.how})`);
  }
}

/** The visibility tests. */
export const VISIBILITY: SuiteTest[] = [
  {
    id: "visibility/app-tool-call-guard",
    name: 'The host rejects the View\'s call to a ["model"] tool',
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      await controlCall(t, env);
      const payload = env.nonce("model-only");
      const call = await tryCall(env, "model_only_probe", { payload });
      t.assert(call.rejected, `The View called model_only_probe: ${textOf(call.result)}`, call.result);
      // A rejection the View sees is not enough: a host that forwards the call and rejects it afterwards has
      // already run the model-only tool. The server's log is the only witness of that.
      let log;
      try {
        log = await env.serverLog();
      } catch (error) {
        t.note(`Judged from the View only: the server log could not be read (${brief(error)})`);
        return;
      }
      const forwarded = log.toolCalls.find((seen) =>
        seen.name === "model_only_probe" &&
        (seen.arguments as { payload?: unknown } | null)?.payload === payload
      );
      t.assert(
        forwarded === undefined,
        "The host forwarded the View's call to model_only_probe to the server, which ran it (its log shows " +
          `tools/call model_only_probe), and only then showed the View a rejection (${call.how})`,
        forwarded,
      );
      t.observe("serverLog", `no tools/call model_only_probe with payload ${payload} in the server's log`);
    },
  },
  {
    id: "visibility/app-tool-hidden",
    name: 'An ["app"] tool is absent from the model\'s tool list',
    clause: "MUST NOT",
    vantage: "host",
    manual: false,
    async run(t: TestContext) {
      const tools = await modelTools(t);
      t.assert(
        !tools.includes("conformance_probe"),
        "conformance_probe (app-only) is in the model's list",
        tools,
      );
    },
  },
  {
    id: "visibility/empty-array-hidden",
    name: "A visibility: [] tool is absent from the model's tool list",
    clause: "MUST NOT",
    vantage: "host",
    manual: false,
    async run(t: TestContext) {
      const tools = await modelTools(t);
      t.assert(
        !tools.includes("empty_visibility_probe"),
        "empty_visibility_probe is in the model's list",
        tools,
      );
    },
  },
  {
    id: "visibility/default-both",
    name: "A tool without visibility is callable by the View and listed for the model",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const call = await tryCall(env, "default_visibility_probe", { payload: env.nonce("default") });
      t.assert(
        !call.rejected,
        `The View could not call default_visibility_probe (${call.how}): ${call.error ?? ""}`,
      );
      const answer = await t.hostOptional({ kind: "readModelToolList" });
      if (answer.unsupported) {
        return t.note("The model's list could not be read; only the app half was checked");
      }
      // A failed read is no list at all, never an empty one.
      t.assert(
        answer.ok && Array.isArray(answer.value),
        `Not testable: the host failed "readModelToolList": ${answer.error ?? "no tool list in the answer"}`,
        answer,
      );
      const tools = answer.value as ModelToolList;
      t.observe("modelTools", tools);
      t.assert(
        tools.includes("default_visibility_probe"),
        "default_visibility_probe is not listed for the model",
      );
    },
  },
  {
    id: "visibility/cross-server-blocked",
    name: "The View cannot call a tool of another connected server",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    caveat: "Needs a second connected server: its probe in the model's tool list, or initialize and " +
      "tools/list in the log of a second server in the harness (reference host, server.second, serve " +
      "--second-listen), which also shows a forwarded call",
    async run(t: TestContext, env: SuiteEnv) {
      const answer = await t.hostOptional({ kind: "readModelToolList" });
      const listed = answer.ok && !answer.unsupported &&
        Array.isArray(answer.value) && (answer.value as ModelToolList).includes("second_server_probe");
      const before = await secondServerLog(env);
      const missing = notConnected(before);
      if (!listed && missing !== null) {
        const list = answer.ok && !answer.unsupported
          ? "the model's tool list lacks second_server_probe"
          : "the model's tool list cannot be read";
        t.skip(`No second server is connected (positive control): ${list}, and ${missing}`);
      }
      const payload = env.nonce("cross");
      const call = await tryCall(env, "second_server_probe", { payload });
      const after = typeof before === "string" ? before : await secondServerLog(env);
      if (typeof after === "string") {
        t.note(`Judged from the View only: ${after}`);
      } else {
        const forwarded = after.toolCalls.find((seen) =>
          seen.name === "second_server_probe" &&
          (seen.arguments as { payload?: unknown } | null)?.payload === payload
        );
        t.assert(
          forwarded === undefined,
          "The host forwarded the View's call to the other server: its log shows tools/call " +
            `second_server_probe (the View saw ${call.rejected ? `a rejection, ${call.how}` : "a result"})`,
          forwarded,
        );
      }
      t.assert(call.rejected, "The View reached a tool of another server", call.result);
    },
  },
];
