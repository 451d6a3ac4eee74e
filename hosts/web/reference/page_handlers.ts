/**
 * The reference host's AppBridge handlers for one mounted View: the visibility guard (installed after
 * `connect()`, trap T1), display modes, size changes, theme, messages and model context with a scripted model,
 * links, downloads and sampling behind DOM confirmations, teardown requests. Each broken variant that concerns
 * a handler is one `broken(...)` check here.
 *
 * @module
 */
import type {
  AppBridge,
  McpUiDisplayMode,
  McpUiHostContext,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult, Client, Tool } from "@modelcontextprotocol/client";
import type { LauncherName } from "../../../src/protocol.ts";
import { confirmWithDialog, safeFileName } from "./page_dialogs.ts";
import type { ReferenceHostApi } from "./page_state.ts";
import type { VariantName } from "./variants.ts";

/** One rendered View. */
export interface Mounted {
  readonly bridge: AppBridge;
  readonly outer: HTMLIFrameElement;
  readonly launcher: LauncherName;
  context: McpUiHostContext;
  toolInputSent: boolean;
  /** The display modes the app declared at `ui/initialize`. */
  appModes: string[];
  /** Listeners to remove at teardown. */
  cleanups?: (() => void)[];
  /** Where the View's consent dialogs go: a place in its own panel (a page served with `panels`). */
  readonly consents?: HTMLElement;
  /** Set once the View is torn down (a second close does nothing). */
  removed?: boolean;
}

/** What the handlers need from the page. */
export interface HandlerDeps {
  readonly api: ReferenceHostApi;
  readonly broken: (name: VariantName) => boolean;
  readonly note: (method: string, params?: unknown) => void;
  readonly main: () => { client: Client; tools: Tool[] } | null;
  readonly second: () => { client: Client; tools: Tool[] } | null;
  readonly dark: MediaQueryList;
  /** Tears this View down (its own `ui/request-teardown`). */
  readonly teardown: (reason: string) => Promise<unknown>;
  readonly maxHeight: number;
}

/** Plain colours for the `static-hex-palette` variant: fixed, and never re-sent on a theme change. */
export const STATIC_STYLE_VARIABLES = {
  "--color-background-primary": "#ffffff",
  "--color-text-primary": "#18181b",
  "--font-sans": "system-ui, sans-serif",
} as Record<string, string> as typeof STYLE_VARIABLES;

/**
 * Plain colours for the `theme-invariant-colour` variant (the MCP Inspector's palette): resolved for one theme,
 * re-sent with the new values on a theme change, except `--color-text-inverse`, which is the same in both
 * themes and so left out of the partial patch.
 */
export const THEMED_HEX_PALETTE: Readonly<Record<"light" | "dark", Readonly<Record<string, string>>>> = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-text-primary": "#18181b",
    "--color-text-inverse": "#ffffff",
  },
  dark: {
    "--color-background-primary": "#1b1b1f",
    "--color-text-primary": "#f4f4f5",
    "--color-text-inverse": "#ffffff",
  },
};

/** The colours of {@linkcode THEMED_HEX_PALETTE} whose value differs in `theme` from the other theme. */
export function changedColours(theme: "light" | "dark"): Record<string, string> {
  const other = THEMED_HEX_PALETTE[theme === "dark" ? "light" : "dark"];
  return Object.fromEntries(
    Object.entries(THEMED_HEX_PALETTE[theme]).filter(([key, value]) => other[key] !== value),
  );
}

/** Standard style variables, colours as `light-dark()` so they follow the theme without a re-send. */
export const STYLE_VARIABLES = {
  "--color-background-primary": "light-dark(#ffffff, #1b1b1f)",
  "--color-background-secondary": "light-dark(#f4f4f5, #26262b)",
  "--color-text-primary": "light-dark(#18181b, #f4f4f5)",
  "--color-text-secondary": "light-dark(#52525b, #a1a1aa)",
  "--color-border-primary": "light-dark(#d4d4d8, #3f3f46)",
  "--color-ring-primary": "light-dark(#2563eb, #60a5fa)",
  "--font-sans": "system-ui, sans-serif",
  "--font-mono": "ui-monospace, monospace",
  "--font-text-md-size": "14px",
  "--border-radius-md": "8px",
  "--border-width-regular": "1px",
} as Record<string, string> as McpUiHostContext["styles"] extends { variables?: infer V } ? NonNullable<V>
  : never;

/** How the `model-context-shown-only` variant labels the context it shows in the thread. */
const CONTEXT_NOTE = "Context shared by the app:";

const HOST_MODES: readonly McpUiDisplayMode[] = ["inline", "fullscreen"];

/** Installs every handler on a freshly connected bridge. */
export function installBridgeHandlers(current: Mounted, deps: HandlerDeps): void {
  const { bridge } = current;
  const { broken, note, api } = deps;
  current.cleanups ??= [];
  if (!broken("no-visibility-guard")) bridge.oncalltool = (params, extra) => guardedCall(params, extra, deps);
  if (broken("no-resource-read-proxy")) {
    bridge.onreadresource = () => Promise.reject(new Error("resources/read is not available to apps here"));
  }
  if (broken("no-resource-list-proxy")) {
    bridge.onlistresources = () => Promise.reject(new Error("resources/list is not available to apps here"));
  }
  bridge.addEventListener("loggingmessage", (params) => note("notifications/message", params));
  bridge.addEventListener("sizechange", ({ height }) => {
    note("ui/notifications/size-changed", { height });
    if (broken("no-resize") || typeof height !== "number") return;
    current.outer.style.height = `${Math.min(Math.ceil(height), deps.maxHeight)}px`;
  });
  bridge.addEventListener("requestteardown", () => {
    note("ui/notifications/request-teardown");
    void deps.teardown("requested by the app");
  });
  bridge.onrequestdisplaymode = ({ mode }) => {
    note("ui/request-display-mode", { mode });
    const grant = broken("accepts-undeclared-mode") ||
      (HOST_MODES.includes(mode) && current.appModes.includes(mode));
    if (broken("pip-switch-error") && mode === "pip") {
      setDisplayMode(current, mode, deps);
      return Promise.reject(new Error("pip is not available here"));
    }
    if (grant && mode !== current.context.displayMode) setDisplayMode(current, mode, deps);
    if (!grant && broken("pip-answered-error")) {
      return Promise.reject(new Error(`${mode} is not available here`));
    }
    if (broken("display-mode-empty")) return Promise.resolve({} as { mode: McpUiDisplayMode });
    return Promise.resolve({ mode: current.context.displayMode ?? "inline" });
  };
  bridge.onupdatemodelcontext = (params) => {
    note("ui/update-model-context", params);
    if (broken("model-context-dropped")) return Promise.resolve({});
    if (broken("model-context-shown-only")) {
      // Shown in the thread as a note (the latest replaces the last), never given to the model.
      const shown = params.content?.map((block) => block.type === "text" ? block.text : "").join(" ") ?? "";
      const note = api.conversation.findIndex((turn) => turn.text.startsWith(CONTEXT_NOTE));
      if (note >= 0) api.conversation.splice(note, 1);
      api.conversation.push({ role: "user", text: `${CONTEXT_NOTE} ${shown}` });
      return Promise.resolve({});
    }
    if (!(broken("model-context-first-wins") && api.modelContext !== null)) api.modelContext = params;
    return Promise.resolve({});
  };
  bridge.onmessage = (params) => {
    note("ui/message", params);
    if (broken("message-dropped")) return Promise.resolve({});
    const text = params.content.map((block) => block.type === "text" ? block.text : `[${block.type}]`).join(
      "\n",
    );
    api.conversation.push({ role: params.role, text });
    replyAsModel(api);
    return Promise.resolve({});
  };
  bridge.onopenlink = ({ url }) => {
    note("ui/open-link", { url });
    if (!broken("open-link-dropped")) open(url, "_blank", "noopener");
    return Promise.resolve({});
  };
  bridge.ondownloadfile = async ({ contents }) => {
    note("ui/download-file", { count: contents.length });
    if (broken("download-error")) throw new Error("Downloads are not available");
    if (
      !await confirmWithDialog(
        "download",
        `Download ${contents.length} file(s) from the app?`,
        undefined,
        current.consents,
      )
    ) {
      return { isError: true };
    }
    for (const item of contents) download(item);
    return {};
  };
  bridge.oncreatesamplingmessage = async (params) => {
    note("sampling/createMessage", { maxTokens: params.maxTokens });
    if (broken("sampling-error")) throw new Error("Sampling is not available");
    if (
      !await confirmWithDialog(
        "sampling",
        "The app asks the model for a completion. Allow?",
        undefined,
        current.consents,
      )
    ) {
      throw new Error("The user declined the sampling request");
    }
    return {
      model: "reference-canned-model",
      role: "assistant",
      content: { type: "text", text: "canned completion from the reference host" },
      stopReason: "endTurn",
    };
  };
  const onTheme = () => {
    if (broken("theme-not-sent")) return;
    const theme = deps.dark.matches ? "dark" : "light";
    // Only the colours that differ between the themes: the same in both needs no re-send.
    const styles = broken("theme-invariant-colour") ? { styles: { variables: changedColours(theme) } } : {};
    updateContext(current, { theme, ...styles }, deps);
  };
  deps.dark.addEventListener("change", onTheme);
  current.cleanups.push(() => deps.dark.removeEventListener("change", onTheme));
}

async function guardedCall(
  params: { name: string; arguments?: Record<string, unknown> | undefined },
  extra: { mcpReq?: { signal?: AbortSignal } },
  deps: HandlerDeps,
): Promise<CallToolResult> {
  deps.note("tools/call (app)", { name: params.name });
  const main = deps.main();
  let server = main;
  // The Cursor bug (fastmcp#5041): the View's calls are looked up in the model's tool list, not the server's.
  const known = deps.broken("app-calls-model-list")
    ? main?.tools.filter((candidate) => deps.api.modelTools.includes(candidate.name))
    : main?.tools;
  let tool = known?.find((candidate) => candidate.name === params.name);
  if (tool === undefined && deps.broken("cross-server-leak")) {
    server = deps.second();
    tool = server?.tools.find((candidate) => candidate.name === params.name);
  }
  // Forwarded, then hidden from the View: only the other server's log can tell.
  const elsewhere = tool === undefined && deps.broken("cross-server-forward-rejected") ? deps.second() : null;
  if (elsewhere?.tools.some((candidate) => candidate.name === params.name)) {
    await elsewhere.client.callTool({
      name: params.name,
      ...(params.arguments ? { arguments: params.arguments } : {}),
    });
    throw new Error(`Unknown tool "${params.name}" for this app`);
  }
  const visibility = (tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility ??
    (deps.broken("default-visibility-app-only") ? ["model"] : ["model", "app"]);
  if (tool === undefined || server === null) throw new Error(`Unknown tool "${params.name}" for this app`);
  if (!visibility.includes("app")) {
    // Forwarded, then rejected: the View sees the refusal, the server has already run the tool.
    if (deps.broken("guard-forward-rejected")) {
      await server.client.callTool({
        name: params.name,
        ...(params.arguments ? { arguments: params.arguments } : {}),
      });
    }
    throw new Error(`Tool "${params.name}" is not available to apps`);
  }
  const signal = extra.mcpReq?.signal;
  const result = await server.client.callTool(
    { name: params.name, ...(params.arguments ? { arguments: params.arguments } : {}) },
    signal ? { signal } : {},
  ) as CallToolResult;
  if (deps.broken("iserror-as-throw") && result.isError) {
    throw new Error(`Tool "${params.name}" failed`);
  }
  return result;
}

function setDisplayMode(current: Mounted, mode: McpUiDisplayMode, deps: HandlerDeps): void {
  const { outer } = current;
  outer.style.position = mode === "fullscreen" ? "fixed" : "";
  outer.style.inset = mode === "fullscreen" ? "0" : "";
  outer.style.width = mode === "fullscreen" ? "100vw" : "720px";
  if (mode === "fullscreen") outer.style.height = "100vh";
  if (deps.broken("no-display-notify")) {
    current.context = { ...current.context, displayMode: mode };
    return;
  }
  updateContext(current, { displayMode: mode }, deps);
}

function updateContext(current: Mounted, patch: Partial<McpUiHostContext>, deps: HandlerDeps): void {
  current.context = { ...current.context, ...patch };
  deps.note("ui/notifications/host-context-changed", patch);
  if (deps.broken("full-context-patch")) {
    void current.bridge.sendHostContextChange(current.context);
  } else {
    current.bridge.setHostContext(current.context);
  }
}

/** The scripted model: every accepted user turn gets a reply that shows the model context it was given. */
function replyAsModel(api: ReferenceHostApi): void {
  const context = api.modelContext;
  api.modelContext = null;
  const seen = context === null ? "no model context" : `model context: ${JSON.stringify(context)}`;
  api.conversation.push({ role: "assistant", text: `Reference model reply (${seen})` });
}

function download(item: unknown): void {
  const resource = (item as { resource?: { uri?: string; text?: string; blob?: string; mimeType?: string } })
    .resource;
  if (resource?.uri === undefined) return;
  const bytes = resource.blob !== undefined
    ? Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(resource.text ?? "");
  const url = URL.createObjectURL(
    new Blob([bytes], { type: resource.mimeType ?? "application/octet-stream" }),
  );
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = safeFileName(resource.uri);
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
