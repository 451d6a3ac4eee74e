/**
 * The reference host page (browser entry, bundled with esbuild): a strictly conformant MCP Apps host built on
 * ext-apps `AppBridge`. One MCP client per page; each `launch` renders the suite through the
 * sandbox proxy on a distinct origin, with the visibility guard installed after `connect()` (trap T1). A
 * broken variant flips exactly one behaviour, named by `config.variant`.
 *
 * @module
 */
import {
  AppBridge,
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  type McpUiHostContext,
  PostMessageTransport,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, LATEST_PROTOCOL_VERSION, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Tool } from "@modelcontextprotocol/client";
import { APP_MIME_TYPE, type DeclaredCsp, RESOURCE_URIS, UI_EXTENSION_ID } from "../../../src/fixtures.ts";
import type { LauncherName } from "../../../src/protocol.ts";
import { delay, raceDelay } from "../../../src/time.ts";
import { buildCsp, cspFlawsOf } from "./csp.ts";
import { INNER_SANDBOX, OPAQUE_VIEW_VARIANTS } from "./sandbox_page.ts";
import { HOST_CONFIG_ELEMENT_ID, type HostPageConfig, type ReferenceHostApi } from "./page_state.ts";
import type { VariantName } from "./variants.ts";
import {
  installBridgeHandlers,
  type Mounted,
  STATIC_STYLE_VARIABLES,
  STYLE_VARIABLES,
  THEMED_HEX_PALETTE,
} from "./page_handlers.ts";

const config = JSON.parse(
  document.getElementById(HOST_CONFIG_ELEMENT_ID)?.textContent ?? "{}",
) as HostPageConfig;
const broken = (name: VariantName) => config.variant === name;
const HOST_INFO = { name: "conformance-reference-host", version: "1.0.0" };
const ESCAPE_TOKENS = " allow-top-navigation allow-popups-to-escape-sandbox";
/** `null`: the proxy frame carries no sandbox attribute (the MCP Inspector's layout; the View's frame has one). */
const OUTER_SANDBOX = config.variant !== null && OPAQUE_VIEW_VARIANTS.includes(config.variant)
  ? null
  : "allow-scripts allow-same-origin allow-forms" + (broken("dangerous-sandbox") ? ESCAPE_TOKENS : "");
const MAX_HEIGHT = 2000;
/** The stateless protocol revision the `stateless-*` variants pin (the mcp-use Inspector 20.3.10 speaks it). */
const STATELESS_PROTOCOL_VERSION = "2026-07-28";
const dark = matchMedia("(prefers-color-scheme: dark)");

const api: ReferenceHostApi = {
  ready: false,
  error: null,
  log: [],
  conversation: [],
  modelTools: [],
  modelContext: null,
  launch,
  teardown: (reason) => teardown(mounted, reason),
  cancelTool: (reason) => cancelTool(mounted, reason),
  streamPartialInput,
  clearTransient: () => {
    api.log.length = 0;
    return mounted?.context.displayMode ?? null;
  },
};
globalThis.__referenceHost = api;

const note = (method: string, params?: unknown) => api.log.push({ method, at: Date.now(), params });
let main: { client: Client; tools: Tool[] } | null = null;
let second: { client: Client; tools: Tool[] } | null = null;
let mounted: Mounted | null = null;
let launches = 0;
async function connectServer(url: string): Promise<{ client: Client; tools: Tool[] }> {
  const advertised = !broken("no-ui-extension") && !broken("stateless-no-ui-extension");
  const extensions = advertised ? { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } : {};
  // Stateless MCP (2026-07-28): `server/discover` and no `initialize`; the capabilities ride in each request.
  const stateless = broken("stateless-mcp") || broken("stateless-no-ui-extension");
  const client = new Client(HOST_INFO, {
    capabilities: { extensions },
    ...(stateless ? { versionNegotiation: { mode: { pin: STATELESS_PROTOCOL_VERSION } } } : {}),
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, tools: (await client.listTools()).tools };
}

function visibilityOf(tool: Tool): string[] {
  const ui = (tool._meta as { ui?: { visibility?: string[] } } | undefined)?.ui;
  return ui?.visibility ?? ["model", "app"];
}

function modelToolList(tools: Tool[]): string[] {
  if (broken("model-list-unfiltered")) return tools.map((tool) => tool.name);
  if (broken("model-list-sdk-predicate")) {
    return tools.filter((tool) => !isToolVisibilityAppOnly(tool)).map((tool) => tool.name);
  }
  return tools.filter((tool) => visibilityOf(tool).includes("model")).map((tool) => tool.name);
}

async function bootstrap(): Promise<void> {
  [main, second] = await Promise.all([connectServer(config.mcpUrl), connectServer(config.secondMcpUrl)]);
  api.modelTools = [...modelToolList(main.tools), ...modelToolList(second.tools)];
  api.ready = true;
}

function styleVariables(): NonNullable<McpUiHostContext["styles"]>["variables"] {
  if (broken("static-hex-palette")) return STATIC_STYLE_VARIABLES;
  if (!broken("theme-invariant-colour")) return STYLE_VARIABLES;
  return THEMED_HEX_PALETTE[dark.matches ? "dark" : "light"] as typeof STYLE_VARIABLES;
}

function hostContext(tool: Tool, callId: number): McpUiHostContext {
  const other = main?.tools.find((candidate) => candidate.name !== tool.name) ?? tool;
  return {
    toolInfo: { id: callId, tool: broken("wrong-toolinfo") ? other : tool },
    theme: dark.matches ? "dark" : "light",
    styles: { variables: styleVariables() },
    displayMode: "inline",
    availableDisplayModes: broken("inconsistent-display-mode") ? ["fullscreen"] : ["inline", "fullscreen"],
    containerDimensions: { width: 720, maxHeight: MAX_HEIGHT },
    locale: navigator.language || "en-US",
    timeZone: broken("bad-timezone") ? "Mars/Olympus" : Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: navigator.userAgent,
    platform: "web",
    deviceCapabilities: { touch: false, hover: true },
    safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
  };
}

/** `_meta.ui` of a resource: the content item wins, the listing is the fallback (draft precedence). */
function resourceUi(listing: unknown, content: unknown): { csp?: DeclaredCsp } | undefined {
  const ui = (meta: unknown) => (meta as { ui?: { csp?: DeclaredCsp } } | undefined)?.ui;
  return broken("listing-meta-only") ? ui(listing) : ui(content) ?? ui(listing);
}

async function launch(launcher: LauncherName): Promise<void> {
  if (main === null) throw new Error("The host is not connected yet: wait for __referenceHost.ready");
  const { client, tools } = main;
  // Like a conversation with several tool calls, earlier Views stay mounted; the hooks act on the newest.
  const tool = tools.find((candidate) => candidate.name === launcher);
  if (tool === undefined) throw new Error(`The server has no launcher "${launcher}"`);
  // The View is the resource the tool names (another server's suite names its own).
  const uri = getToolUiResourceUri(tool) ?? RESOURCE_URIS[launcher];
  const args = { marker: `reference-${launcher}-${++launches}` };
  note("tools/call", { name: launcher, arguments: args });
  const call = client.callTool({ name: launcher, arguments: args });
  const [read, listing] = await Promise.all([
    broken("stale-resource-cache") || broken("connect-time-resource-cache")
      ? cachedRead(uri)
      : client.readResource({ uri }),
    client.listResources(),
  ]);
  const content = read.contents[0] as { mimeType?: string; text?: string; blob?: string; _meta?: unknown };
  if (content?.mimeType !== APP_MIME_TYPE) throw new Error(`Resource ${uri} is not ${APP_MIME_TYPE}`);
  const html = content.text ??
    new TextDecoder().decode(Uint8Array.from(atob(content.blob ?? ""), (c) => c.charCodeAt(0)));
  const ui = resourceUi(listing.resources.find((entry) => entry.uri === uri)?._meta, content._meta);
  const csp = ui?.csp;
  // Logged for audit (SHOULD): the exact policy the proxy will send for this resource.
  if (broken("csp-log-declared-domains")) {
    // Another host's format: the declared ui.csp as JSON, with neither the resource URI nor a built policy.
    console.info("[reference host] applying CSP", JSON.stringify(csp ?? {}));
  } else if (!broken("no-csp-log")) {
    console.info(`[reference host] CSP for ${uri}: ${buildCsp(csp, cspFlawsOf(config.variant))}`);
  }
  const outer = document.createElement("iframe");
  if (OUTER_SANDBOX !== null) outer.setAttribute("sandbox", OUTER_SANDBOX);
  outer.style.cssText =
    `border:1px solid GrayText;width:720px;height:320px;max-height:${MAX_HEIGHT}px;display:block`;
  const proxied = !broken("no-proxy");
  let proxyReady: Promise<void> | null = null;
  if (proxied) {
    const proxy = new URL(config.sandboxUrl);
    if (csp) proxy.searchParams.set("csp", JSON.stringify(csp));
    if (config.variant !== null) proxy.searchParams.set("variant", config.variant);
    proxy.searchParams.set("n", String(launches));
    outer.src = proxy.href;
    proxyReady = proxyReadyOf(outer);
  } else {
    // One srcdoc frame on the host page, the policy in a <meta>: no proxy, and the host's own origin.
    outer.srcdoc = withMetaCsp(html, buildCsp(csp, cspFlawsOf(config.variant)));
  }
  const panel = config.panels ? viewPanel(launches, launcher) : null;
  if (panel === null) document.getElementById("app-slot")!.append(outer);
  else panel.section.append(outer);
  // Like a chat product, the newest View is scrolled into sight (an off-screen frame is not laid out).
  outer.scrollIntoView({ block: "nearest" });
  if (proxyReady !== null) {
    await proxyReady;
    note("ui/notifications/sandbox-proxy-ready");
  }
  const callId = launches;
  const bridge = new AppBridge(client, HOST_INFO, {
    openLinks: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    message: { text: {} },
    updateModelContext: { text: {}, structuredContent: {} },
    downloadFile: {},
    sampling: {},
    ...(csp ? { sandbox: { csp } } : {}),
  }, broken("late-hostcontext") ? {} : { hostContext: hostContext(tool, callId) });
  const initialized = new Promise<void>((resolve) => bridge.addEventListener("initialized", () => resolve()));
  const current: Mounted = {
    bridge,
    outer,
    launcher,
    context: hostContext(tool, callId),
    toolInputSent: false,
    appModes: [],
    ...(panel === null ? {} : { consents: panel.consents }),
  };
  mounted = current;
  panel?.wire(current);
  if (broken("input-before-initialized")) sendInputOnInitializeRequest(current, args);
  const transport = new PostMessageTransport(outer.contentWindow!, outer.contentWindow!);
  if (broken("bad-initialize-result")) answerInitializeWithCoreVersion(transport);
  await bridge.connect(transport);
  installBridgeHandlers(current, {
    api,
    broken,
    note,
    main: () => main,
    second: () => second,
    dark,
    // The View's own request tears this View down, whichever is newest.
    teardown: (reason) => teardown(current, reason),
    maxHeight: MAX_HEIGHT,
  });
  if (proxied) {
    await bridge.sendSandboxResourceReady({
      html,
      ...(csp ? { csp } : {}),
      // The View's own frame gets the escape tokens the proxy frame lacks (an outermost-frame check misses it).
      ...(broken("dangerous-view-sandbox") ? { sandbox: INNER_SANDBOX + ESCAPE_TOKENS } : {}),
    });
  }
  await initialized;
  note("ui/notifications/initialized");
  // The context goes out as one host-context-changed right after the handshake instead of in its answer.
  if (broken("late-hostcontext")) bridge.setHostContext(current.context);
  current.appModes = bridge.getAppCapabilities()?.availableDisplayModes ?? [];
  await deliverToolData(current, args, call);
}

function proxyReadyOf(outer: HTMLIFrameElement): Promise<void> {
  return new Promise<void>((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (
        event.source === outer.contentWindow && event.data?.method === "ui/notifications/sandbox-proxy-ready"
      ) {
        removeEventListener("message", onMessage);
        resolve();
      }
    };
    addEventListener("message", onMessage);
  });
}

/** `no-proxy`: the View's HTML with its policy as the first element of `<head>`. */
function withMetaCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${
    policy.replaceAll("&", "&amp;").replaceAll('"', "&quot;")
  }">`;
  const head = /<head[^>]*>/i.exec(html);
  if (head === null) return meta + html;
  return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
}

/**
 * `stale-resource-cache` and `connect-time-resource-cache`: the resource as the host's backend cached it
 * (`/resource-cache.json`: from an earlier server process, or from this one before any render), in place of a
 * `resources/read` at render time.
 */
async function cachedRead(uri: string): Promise<{ contents: unknown[] }> {
  const response = await fetch(new URL("/resource-cache.json", location.href));
  const cache = await response.json() as Record<string, unknown>;
  if (cache[uri] === undefined) throw new Error(`The resource cache has no entry for ${uri}`);
  return { contents: [cache[uri]] };
}

/** `bad-initialize-result`: the `ui/initialize` answer names the MCP core protocol version (the host's client's). */
function answerInitializeWithCoreVersion(transport: PostMessageTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const result = (message as { result?: Record<string, unknown> }).result;
    if (typeof result?.protocolVersion !== "string" || !("hostCapabilities" in result)) {
      return send(message, options);
    }
    return send(
      { ...message, result: { ...result, protocolVersion: LATEST_PROTOCOL_VERSION } } as typeof message,
      options,
    );
  };
}

function sendInputOnInitializeRequest(current: Mounted, args: Record<string, unknown>): void {
  const onMessage = (event: MessageEvent) => {
    if (event.source !== current.outer.contentWindow || event.data?.method !== "ui/initialize") return;
    removeEventListener("message", onMessage);
    current.toolInputSent = true;
    // The conformant sequence (a partial, then the input), only too early: the one flaw stays the timing.
    void current.bridge.sendToolInputPartial({ arguments: {} })
      .then(() => current.bridge.sendToolInput({ arguments: args }));
  };
  addEventListener("message", onMessage);
}

async function deliverToolData(
  current: Mounted,
  args: Record<string, unknown>,
  call: Promise<unknown>,
): Promise<void> {
  const { bridge } = current;
  const sendInput = async () => {
    await bridge.sendToolInputPartial({ arguments: {} });
    await bridge.sendToolInput({
      arguments: broken("wrong-tool-input") ? { marker: "not-what-the-server-got" } : args,
    });
    current.toolInputSent = true;
    if (broken("double-tool-input")) await bridge.sendToolInput({ arguments: args });
    if (broken("partial-after-input")) await bridge.sendToolInputPartial({ arguments: args });
  };
  const result = structuredClone(await call) as Parameters<AppBridge["sendToolResult"]>[0];
  if (broken("drops-result-meta")) delete (result as { _meta?: unknown })._meta;
  if (broken("result-before-input")) {
    await bridge.sendToolResult(result);
    await sendInput();
  } else {
    if (!current.toolInputSent) await sendInput();
    if (!broken("no-tool-result")) await bridge.sendToolResult(result);
  }
  note("ui/notifications/tool-result");
}

/**
 * `panels`: the View's own section in the app slot, its "Close app" and "Cancel tool" buttons above a place for
 * its consent dialogs and then its frame (appended by the caller); `wire` makes the buttons act on that View.
 */
function viewPanel(
  n: number,
  launcher: LauncherName,
): { section: HTMLElement; consents: HTMLElement; wire: (view: Mounted) => void } {
  const section = document.createElement("section");
  section.dataset.viewPanel = String(n);
  section.setAttribute("aria-label", `App ${n}: ${launcher}`);
  section.style.cssText = "margin:8px 0;padding:8px;border:1px dashed GrayText;max-width:720px";
  const controls = document.createElement("p");
  controls.setAttribute("role", "group");
  controls.setAttribute("aria-label", `App ${n} controls`);
  controls.style.margin = "0 0 4px";
  const button = (label: string) => {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = label;
    controls.append(element, " ");
    return element;
  };
  const close = button("Close app");
  const cancel = button("Cancel tool");
  const consents = document.createElement("div");
  section.append(controls, consents);
  document.getElementById("app-slot")!.append(section);
  return {
    section,
    consents,
    wire: (view) => {
      close.addEventListener("click", () => {
        teardown(view, "closed by the user").catch((error) => console.error(String(error)));
      });
      cancel.addEventListener("click", () => {
        cancelTool(view, "cancelled by the user").catch((error) => console.error(String(error)));
      });
    },
  };
}

/** Tears `current` down (the newest View for the hook; a panel's own View for its close button). */
async function teardown(current: Mounted | null, reason: string): Promise<{ acked: boolean }> {
  if (current === null || current.removed) return { acked: false };
  current.removed = true;
  if (mounted === current) mounted = null;
  note("ui/resource-teardown", { reason });
  let acked = false;
  if (broken("teardown-without-notify")) {
    // Removed without ui/resource-teardown.
  } else if (broken("no-teardown-wait")) {
    // Sent, then the View is removed well before its (400 ms delayed) answer can arrive.
    void current.bridge.teardownResource({ reason } as Record<string, unknown>).catch(() => {});
    await delay(150);
  } else {
    const answered = current.bridge.teardownResource({ reason } as Record<string, unknown>).then(
      () => true,
      () => false,
    );
    acked = await raceDelay([answered], 5_000) === true;
  }
  for (const cleanup of current.cleanups ?? []) cleanup();
  await current.bridge.close().catch(() => {});
  current.outer.remove();
  current.consents?.parentElement?.remove();
  return { acked };
}

/** Cancels `current`'s launching tool call (the newest View's for the hook; a panel's own for its button). */
async function cancelTool(
  current: Mounted | null,
  reason: string,
): Promise<{ sent: boolean; reason?: string }> {
  if (current === null || current.removed) return { sent: false };
  note("ui/notifications/tool-cancelled", { reason });
  // The answer names the reason the hook was given: the suite holds the notification to it.
  if (broken("no-cancel-notify")) return { sent: true, reason };
  await current.bridge.sendToolCancelled({ reason: broken("cancel-reason-replaced") ? "cancelled" : reason });
  return { sent: true, reason };
}

async function streamPartialInput(snapshots: Record<string, unknown>[]): Promise<{ sent: number }> {
  if (mounted === null) return { sent: 0 };
  // Partials stream the arguments before tool-input; once it is out, a conformant host sends no more.
  if (mounted.toolInputSent && !broken("partial-after-input")) return { sent: 0 };
  for (const snapshot of snapshots) await mounted.bridge.sendToolInputPartial({ arguments: snapshot });
  return { sent: snapshots.length };
}

bootstrap().catch((error: unknown) => {
  api.error = error instanceof Error ? error.message : String(error);
});
