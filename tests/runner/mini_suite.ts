/**
 * A tiny in-page suite (browser entry) for testing the Runner, the bridge and the reference host without the
 * real catalogue: the same `__mcpConformance` channel, a handful of tests that use host requests.
 *
 * @module
 */
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import type {
  CapabilityRequest,
  CapabilityResult,
  InIframeChannel,
  StartFilter,
  SubtestResult,
  SuitePoll,
  TestMeta,
} from "../../src/protocol.ts";

type Ask = (request: CapabilityRequest) => Promise<CapabilityResult>;
interface MiniTest extends TestMeta {
  run(ask: Ask): Promise<void>;
}

const app = new App({ name: "mini-suite", version: "1.0.0" }, {
  availableDisplayModes: ["inline", "fullscreen"],
});
const inputs: unknown[] = [];
const contexts: unknown[] = [];
app.addEventListener("toolinput", (params) => inputs.push(params.arguments));
app.addEventListener("hostcontextchanged", (params) => contexts.push(params));
const trigger = document.createElement("button");
trigger.dataset.testid = "conformance-trigger";
trigger.textContent = "trigger";
document.body.append(trigger);
let onTrigger: (() => void) | null = null;
trigger.addEventListener("click", () => onTrigger?.());
const connected = app.connect(new PostMessageTransport(globalThis.parent, globalThis.parent));

function check(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

const TESTS: MiniTest[] = [
  {
    id: "mini/tool-input",
    name: "tool input arrives",
    vantage: "in-view",
    manual: false,
    clause: "MUST",
    run: async () => {
      await connected;
      for (let i = 0; i < 100 && inputs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      check(inputs.length === 1, `expected one tool-input, saw ${inputs.length}`);
    },
  },
  {
    id: "mini/call-guard",
    name: "model-only tool rejected, app tool allowed",
    vantage: "in-view",
    manual: false,
    clause: "MUST",
    run: async () => {
      const echo = await app.callServerTool({ name: "conformance_probe", arguments: { payload: "p1" } });
      check((echo.structuredContent as { payload?: string })?.payload === "p1", "the echo failed");
      const rejected = await app.callServerTool({ name: "model_only_probe", arguments: { payload: "x" } })
        .then(() => false, () => true);
      check(rejected, "model_only_probe was callable");
    },
  },
  {
    id: "mini/model-list",
    name: "app-only tool hidden from the model",
    vantage: "host",
    manual: false,
    run: async (ask) => {
      const answer = await ask({ kind: "readModelToolList" });
      const tools = answer.value as string[];
      check(!tools.includes("conformance_probe"), `conformance_probe listed: ${tools.join(",")}`);
      check(tools.includes("model_only_probe"), "model_only_probe missing");
    },
  },
  {
    id: "mini/unsupported-kind",
    name: "a request the host lacks answers unsupported",
    vantage: "host",
    manual: false,
    run: async (ask) => {
      const answer = await ask({ kind: "readConsole", pattern: "(", timeoutMs: 10 });
      check(answer.ok === false && typeof answer.error === "string", "an invalid pattern must be an error");
    },
  },
  {
    id: "mini/theme",
    name: "theme change notifies",
    vantage: "host",
    manual: true,
    run: async (ask) => {
      await ask({ kind: "toggleTheme", to: "dark" });
      for (let i = 0; i < 100 && contexts.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      check(contexts.some((c) => (c as { theme?: string }).theme === "dark"), "no theme change arrived");
    },
  },
  {
    id: "mini/message",
    name: "a triggered message reaches the conversation",
    vantage: "host",
    manual: true,
    run: async (ask) => {
      const marker = `mini-${Math.random().toString(36).slice(2)}`;
      onTrigger = () => void app.sendMessage({ role: "user", content: [{ type: "text", text: marker }] });
      await ask({ kind: "clickTrigger", commitDraftedMessage: true });
      const seen = await ask({ kind: "conversationContains", marker, timeoutMs: 5_000 });
      check(seen.ok, "marker not in the conversation");
    },
  },
];

let state: "idle" | "running" | "done" = "idle";
let runningId = "";
let request: CapabilityRequest | null = null;
let seq = 0;
let answer: ((result: CapabilityResult) => void) | null = null;
const results: SubtestResult[] = [];

const ask: Ask = (next) =>
  new Promise((resolve) => {
    request = next;
    seq++;
    answer = resolve;
  });

async function runAll(filter: StartFilter | null): Promise<void> {
  const chosen = TESTS.filter((test) =>
    (filter?.ids ? filter.ids.includes(test.id) : true) && (filter?.id ? filter.id === test.id : true)
  );
  for (const test of [...chosen.filter((t) => !t.manual), ...chosen.filter((t) => t.manual)]) {
    runningId = test.id;
    const started = performance.now();
    const { run: _run, ...meta } = test;
    try {
      if (test.manual) await ask({ kind: "resetIsolation" });
      await test.run(ask);
      results.push({ ...meta, status: "PASS", durationMs: performance.now() - started });
    } catch (error) {
      results.push({
        ...meta,
        status: "FAIL",
        message: String(error),
        durationMs: performance.now() - started,
      });
    }
  }
  state = "done";
}

const channel: InIframeChannel = {
  listTests: () => TESTS.map(({ run: _run, ...meta }) => meta),
  start: (filter) => {
    if (state !== "idle") return;
    state = "running";
    void runAll(filter ?? null);
  },
  poll: (): SuitePoll =>
    state === "idle"
      ? { state: "idle" }
      : state === "done"
      ? { state: "done", results: [...results] }
      : { state: "running", runningId, request, requestSeq: seq, results: [...results] },
  resolve: (result, resolvedSeq) => {
    if (resolvedSeq !== undefined && resolvedSeq !== seq) return;
    const done = answer;
    request = null;
    answer = null;
    done?.(result);
  },
};
globalThis.__mcpConformance = channel;
