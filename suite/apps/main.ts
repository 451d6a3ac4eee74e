/**
 * The suite's browser entry point, bundled into the app View. Order matters: the recorders are installed and
 * the channel is published before `connect()`, so one-shot notifications are never missed and a Runner can
 * find the frame as soon as it exists.
 *
 * @module
 */
import { App, applyDocumentTheme, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import { TEARDOWN_ACK_DELAY_MS, TEARDOWN_MARKS } from "../../src/fixtures.ts";
import { CHANNEL } from "../../src/protocol.ts";
import { delay } from "../../src/time.ts";
import { CATALOGUE } from "./catalogue/mod.ts";
import { ViolationLog } from "./harness/csp_probe.ts";
import { SuiteEngine } from "./harness/engine.ts";
import {
  injectedConfig,
  resolveConfig,
  type ResolvedConfig,
  serverLogOf,
  type SuiteEnv,
} from "./harness/env.ts";
import { Recorder } from "./harness/recorder.ts";
import { ButtonTrigger, mountView } from "./harness/view.ts";
import { ByHandCard } from "./harness/by_hand.ts";

/** How long the View waits for the launch result when the server injected no configuration. */
const CONFIG_FROM_RESULT_WAIT_MS = 4_000;

/** The View's window and its host-side parent (the sandbox proxy on a web host). */
const frame = globalThis as unknown as Window;
const violations = new ViolationLog(document);
const recorder = new Recorder();
recorder.listenRaw(frame, frame.parent);

const app = new App(
  { name: "mcp-apps-conformance", version: "1.0.0" },
  { availableDisplayModes: ["inline", "fullscreen"] },
  { autoResize: true },
);
recorder.attach(app);
// Like any themed app, the View shows the host's theme on its root (`data-theme`); a Runner reads it there to
// know a theme switch has reached the View before the next test looks.
app.addEventListener("hostcontextchanged", (patch) => {
  const theme = patch.theme ?? app.getHostContext()?.theme;
  if (theme !== undefined) applyDocumentTheme(theme);
});

const teardown: { receivedAt?: number } = {};
app.onteardown = async () => {
  teardown.receivedAt = performance.now();
  void app.callServerTool({ name: "conformance_server_log", arguments: { marker: TEARDOWN_MARKS.received } })
    .catch(() => undefined);
  await delay(TEARDOWN_ACK_DELAY_MS);
  await app.callServerTool({ name: "conformance_server_log", arguments: { marker: TEARDOWN_MARKS.acked } })
    .catch(() => undefined);
  return {};
};

const view = mountView(document);
const trigger = new ButtonTrigger(view.trigger);
const injected = injectedConfig(document);
let nonceCount = 0;
const renderId = Math.random().toString(36).slice(2, 8);

const ready = (async (): Promise<SuiteEnv> => {
  const transport = new PostMessageTransport(frame.parent, frame.parent);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ("method" in message && message.method === "ui/notifications/initialized") {
      recorder.initializedSentAt = performance.now();
    }
    return send(message, options);
  };
  await app.connect(transport);
  const initialHostContext = structuredClone(app.getHostContext());
  if (initialHostContext?.theme !== undefined) applyDocumentTheme(initialHostContext.theme);
  if (!injected) await recorder.next("toolresult", { timeoutMs: CONFIG_FROM_RESULT_WAIT_MS });
  return {
    app,
    recorder,
    violations,
    doc: document,
    initialHostContext,
    teardown,
    ownResourceReads: 0,
    config: (): ResolvedConfig =>
      resolveConfig(
        injected,
        recorder.events.toolresult[0]?.params,
        initialHostContext ?? app.getHostContext(),
      ),
    serverLog: async (marker?: string) =>
      serverLogOf(
        await app.callServerTool({
          name: "conformance_server_log",
          arguments: marker === undefined ? {} : { marker },
        }),
      ),
    nonce: (prefix: string) => `${prefix}-${renderId}-${++nonceCount}`,
    renderTag: `-${renderId}-`,
  };
})();

const engine = new SuiteEngine(CATALOGUE, {
  launcher: () =>
    resolveConfig(injected, recorder.events.toolresult[0]?.params, app.getHostContext()).launcher,
  ready,
  trigger,
  afterManual: async () => {
    if (app.getHostContext()?.displayMode !== "inline") await app.requestDisplayMode({ mode: "inline" });
  },
  onChange: () => {
    view.render(engine.snapshot());
    byHand.update();
  },
});
// A person driving the suite in a real host answers parked requests in the View when no Runner polls.
const byHand = new ByHandCard(document, engine);
(globalThis as unknown as Record<string, unknown>)[CHANNEL] = engine;
view.run.addEventListener("click", () => engine.start(null));
view.resetInline.addEventListener(
  "click",
  () => void app.requestDisplayMode({ mode: "inline" }).catch(() => {}),
);
view.trigger.addEventListener("click", () => byHand.triggerClicked());
setInterval(() => byHand.update(), 500);
view.render(engine.snapshot());
ready.catch((error: unknown) => {
  document.body.dataset.conformanceError = String(error);
});
