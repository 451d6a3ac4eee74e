/**
 * An upstream-shaped in-View suite (browser entry), written for this project's tests the way a suite built on
 * the upstream proposal (modelcontextprotocol/ext-apps PR #726) reads the Runner's answers: `t.host()` returns
 * the whole answer; `ok` is the finding of `conversationContains` and `readConsole` (negated to test an
 * absence); `readModelToolList`'s `value` is an array of names; `inspectFrame`'s `value` carries
 * `viewSandboxed`, `viewSandbox` and `viewChainDepth`; `confirmDialog` names a link consent `open-link`. Its
 * channel has none of this project's additions (no `requestSeq`, no progress, `resolve` without a seq).
 *
 * One test per request kind, each checking a positive and a negative case, so a Runner that answers with the
 * wrong meaning fails it either way. The test (tests/suite/upstream_shaped_test.ts) drives it on a host.
 *
 * @module
 */
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";

type Status = "PASS" | "FAIL" | "TIMEOUT" | "SKIP" | "NOTRUN";
interface Meta {
  id: string;
  name: string;
  vantage: "in-view" | "host" | "server";
  manual: boolean;
  clause?: "MUST" | "SHOULD";
}
interface Answer {
  ok: boolean;
  value?: unknown;
  error?: string;
  unsupported?: boolean;
}
interface Request {
  kind: string;
  [key: string]: unknown;
}
interface T {
  /** The host's answer; a test the host cannot serve SKIPs (upstream: "the test skips or falls back"). */
  host(request: Request): Promise<Answer>;
  /** The host's answer as it came, `unsupported` included. */
  hostRaw(request: Request): Promise<Answer>;
  assert(condition: unknown, message: string): void;
}

class Skip extends Error {}
interface Test extends Meta {
  run(t: T): Promise<void>;
}

/** The URL the link test opens: nothing listens there, but the tab that asks for it counts. */
const LINK = "http://127.0.0.1:9/upstream-shaped/link";

const app = new App({ name: "upstream-shaped", version: "1.0.0" }, {});
const themes: string[] = [];
app.addEventListener("hostcontextchanged", (params) => {
  if (typeof params.theme === "string") themes.push(params.theme);
});
const connected = app.connect(new PostMessageTransport(globalThis.parent, globalThis.parent));
const button = document.createElement("button");
button.dataset.testid = "conformance-trigger";
button.textContent = "Trigger";
document.body.append(button);
let onClick: (() => void) | null = null;
let trustedClicks = 0;
button.addEventListener("click", (event) => {
  if (event.isTrusted) trustedClicks++;
  onClick?.();
});
const nonce = () => Math.random().toString(36).slice(2, 10);
const until = async (probe: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !probe() && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 25));
  }
  return probe();
};

const TESTS: Test[] = [
  {
    id: "upstream/click-trigger",
    name: "clickTrigger is a real, trusted click",
    vantage: "host",
    manual: true,
    async run(t) {
      t.assert(trustedClicks === 0, "the trigger was clicked before anyone asked");
      const r = await t.host({ kind: "clickTrigger" });
      t.assert(r.ok, `clickTrigger failed: ${r.error}`);
      t.assert(await until(() => trustedClicks === 1, 2_000), `saw ${trustedClicks} trusted click(s)`);
    },
  },
  {
    id: "upstream/conversation-contains",
    name: "conversationContains: ok is found, and a marker never sent is not",
    vantage: "host",
    manual: true,
    async run(t) {
      await connected;
      const marker = `upstream-said-${nonce()}`;
      onClick = () => void app.sendMessage({ role: "user", content: [{ type: "text", text: marker }] });
      await t.host({ kind: "clickTrigger", commitDraftedMessage: true });
      const said = await t.host({ kind: "conversationContains", marker, timeoutMs: 8_000 });
      t.assert(said.ok, `the sent marker ${marker} was not found`);
      const never = await t.host({
        kind: "conversationContains",
        marker: `never-${nonce()}`,
        timeoutMs: 500,
      });
      t.assert(!never.ok, "a marker never sent was found");
    },
  },
  {
    id: "upstream/read-console",
    name: "readConsole: ok is matched, and a line never logged is not",
    vantage: "host",
    manual: false,
    async run(t) {
      const line = `upstream-logged-${nonce()}`;
      console.log(line);
      const logged = await t.host({ kind: "readConsole", pattern: line, timeoutMs: 5_000 });
      t.assert(logged.ok, `the logged line ${line} was not matched`);
      const never = await t.host({ kind: "readConsole", pattern: `never-${nonce()}`, timeoutMs: 300 });
      t.assert(!never.ok, "a line never logged was matched");
    },
  },
  {
    id: "upstream/model-tool-list",
    name: "readModelToolList: value is the names; the launcher listed, an app-only tool not",
    vantage: "host",
    manual: false,
    async run(t) {
      const r = await t.host({ kind: "readModelToolList" });
      t.assert(r.ok && Array.isArray(r.value), `no array of names: ${JSON.stringify(r)}`);
      const names = r.value as string[];
      t.assert(names.includes("run_conformance"), `the launcher is not listed: ${names}`);
      t.assert(!names.includes("conformance_probe"), `the app-only conformance_probe is listed: ${names}`);
    },
  },
  {
    id: "upstream/inspect-frame",
    name: "inspectFrame: the View is sandboxed, with scripts and without top navigation",
    vantage: "host",
    manual: false,
    async run(t) {
      const r = await t.host({ kind: "inspectFrame" });
      const v = r.value as { viewSandboxed?: boolean; viewSandbox?: string | null; viewChainDepth?: number };
      t.assert(r.ok && v?.viewSandboxed === true, `the View reads as unsandboxed: ${JSON.stringify(v)}`);
      t.assert(typeof v.viewChainDepth === "number" && v.viewChainDepth >= 1, "no viewChainDepth");
      const tokens = (v.viewSandbox ?? "").split(/\s+/);
      t.assert(tokens.includes("allow-scripts"), `no allow-scripts in "${v.viewSandbox}"`);
      t.assert(!tokens.includes("allow-top-navigation"), `allow-top-navigation in "${v.viewSandbox}"`);
    },
  },
  {
    id: "upstream/toggle-theme",
    name: "toggleTheme: the View hears dark, which it had not before",
    vantage: "host",
    manual: true,
    async run(t) {
      await connected;
      t.assert(!themes.includes("dark"), "the View heard dark before the switch");
      const r = await t.host({ kind: "toggleTheme", to: "dark" });
      t.assert(r.ok, `toggleTheme failed: ${r.error}`);
      t.assert(await until(() => themes.includes("dark"), 5_000), `heard only ${themes}`);
    },
  },
  {
    id: "upstream/confirm-download",
    name: "confirmDialog download is accepted; an unknown dialog kind is unsupported",
    vantage: "host",
    manual: true,
    async run(t) {
      await connected;
      const text = `upstream download ${nonce()}`;
      let done: Promise<unknown> = Promise.resolve();
      onClick = () => {
        done = app.downloadFile({
          contents: [{
            type: "resource",
            resource: { uri: "file:///upstream.txt", mimeType: "text/plain", text },
          }],
        });
      };
      await t.host({ kind: "clickTrigger" });
      const r = await t.host({ kind: "confirmDialog", dialog: "download" });
      t.assert(r.ok, `the download consent was not accepted: ${r.error}`);
      await done;
      const unknown = await t.hostRaw({ kind: "confirmDialog", dialog: "camera" });
      t.assert(
        unknown.unsupported === true && !unknown.ok,
        `an unknown dialog answered ${JSON.stringify(unknown)}`,
      );
    },
  },
  {
    id: "upstream/open-link",
    name: "confirmDialog open-link sees the tab; checkLinkOpen of a URL never opened does not",
    vantage: "host",
    manual: true,
    async run(t) {
      await connected;
      onClick = () => void app.openLink({ url: LINK });
      await t.host({ kind: "clickTrigger" });
      const r = await t.host({ kind: "confirmDialog", dialog: "open-link" });
      t.assert(r.ok, `open-link: ${r.error ?? JSON.stringify(r)}`);
      const never = await t.host({ kind: "checkLinkOpen", url: `http://127.0.0.1:9/never-${nonce()}` });
      t.assert(!never.ok, "a link never opened reads as opened");
    },
  },
  {
    id: "upstream/unknown-kind",
    name: "a request kind the host does not know is unsupported",
    vantage: "host",
    manual: false,
    async run(t) {
      const r = await t.hostRaw({ kind: "summonWeather" });
      t.assert(r.unsupported === true && !r.ok, `answered ${JSON.stringify(r)}`);
    },
  },
];

// The channel, shaped as upstream's: one pending request, resolved without a sequence number.
let state: "idle" | "running" | "done" = "idle";
let runningId = "";
let pending: { request: Request; resolve: (answer: Answer) => void } | null = null;
const results: (Meta & { status: Status; message?: string; durationMs: number })[] = [];

const hostRaw = (request: Request) => new Promise<Answer>((resolve) => (pending = { request, resolve }));
const t: T = {
  hostRaw,
  async host(request) {
    const answer = await hostRaw(request);
    if (answer.unsupported) throw new Skip(`The host does not support "${request.kind}"`);
    return answer;
  },
  assert(condition, message) {
    if (!condition) throw new Error(message);
  },
};

async function runAll(filter: { manual?: boolean; id?: string } | null): Promise<void> {
  const chosen = TESTS.filter((test) =>
    (filter?.id === undefined || filter.id === test.id) &&
    (filter?.manual === undefined || filter.manual === test.manual)
  );
  for (const test of [...chosen.filter((x) => !x.manual), ...chosen.filter((x) => x.manual)]) {
    const { run, ...meta } = test;
    runningId = test.id;
    onClick = null;
    const started = performance.now();
    try {
      if (test.manual) await t.host({ kind: "resetIsolation" });
      await run(t);
      results.push({ ...meta, status: "PASS", durationMs: performance.now() - started });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const status = error instanceof Skip ? "SKIP" : "FAIL";
      results.push({ ...meta, status, message, durationMs: performance.now() - started });
    }
  }
  state = "done";
}

(globalThis as Record<string, unknown>).__mcpConformance = {
  listTests: () => TESTS.map(({ run: _run, ...meta }) => meta),
  start(filter: { manual?: boolean; id?: string } | null) {
    if (state !== "idle") return;
    state = "running";
    void runAll(filter ?? null);
  },
  poll: () =>
    state === "idle"
      ? { state }
      : state === "done"
      ? { state, results: [...results] }
      : { state, runningId, request: pending?.request ?? null, results: [...results] },
  resolve(answer: Answer) {
    const waiting = pending;
    pending = null;
    waiting?.resolve(answer);
  },
};
