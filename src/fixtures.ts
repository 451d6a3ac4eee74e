/**
 * The fixtures the in-iframe suite expects on the conformance MCP server, written down once so the server
 * (`src/server/`), the reference host (`hosts/web/`) and the suite (`suite/apps/`) agree on names, visibility,
 * `_meta.ui`, CSP domains and payloads. Pure data and pure helpers: importable from the browser bundle.
 *
 * Control origins: `declared` (A) is the origin every CSP allow-check uses, `undeclared` (B) the one every
 * block-check uses. Locally they are two loopback ports serving {@linkcode controlFixture};
 * on real hosts A is a reachable public origin and B any other origin.
 *
 * `src/server/fixtures.ts` registers the server's side from these values.
 *
 * @module
 */
import type { LauncherName } from "./protocol.ts";

/** The MCP Apps extension id a host advertises in `initialize` (`capabilities.extensions[...]`). */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The MIME type of an MCP App resource. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The two CSP control origins, as `scheme://host[:port]` without a trailing slash. */
export interface ControlOrigins {
  /** Declared in the launcher's CSP (control A): loads from it must succeed. */
  declared: string;
  /** Declared nowhere (control B): loads from it must be blocked. */
  undeclared: string;
}

/** Public control origins for real hosts (upstream uses modelcontextprotocol.io as the declared one). */
export const PUBLIC_CONTROLS: Readonly<ControlOrigins> = Object.freeze({
  declared: "https://modelcontextprotocol.io",
  undeclared: "https://example.com",
});

/** The `ui://` resources, one per launcher. */
export const RESOURCE_URIS: Readonly<Record<LauncherName, string>> = Object.freeze({
  run_conformance: "ui://conformance/runner",
  run_conformance_nocsp: "ui://conformance/runner-nocsp",
  run_conformance_precedence: "ui://conformance/precedence",
});

/** A tool's `_meta.ui.visibility`; `undefined` means the key is omitted (default `["model","app"]`). */
export type Visibility = ("model" | "app")[] | undefined;

/** What a fixture tool does when called. */
export type FixtureToolKind =
  | "launch" // renders the suite; result: launchResult()
  | "echo" // returns `{payload}` as structuredContent and text that contains the payload
  | "error" // returns an `isError: true` result
  | "server-log"; // records `marker` if given, returns the ServerLog as structuredContent

/** One fixture tool. Input schemas: launch `{marker?, filter?}`, echo `{payload?}`, log `{marker?}` (all strings). */
export interface FixtureTool {
  name: string;
  description: string;
  visibility: Visibility;
  /** `_meta.ui.resourceUri` (and the flat `ui/resourceUri` key `registerAppTool` writes). */
  resourceUri?: string;
  kind: FixtureToolKind;
  /** `"second"`: served only by the second MCP listener (the cross-server checks). */
  server: "main" | "second";
}

/** Every fixture tool, main server first. */
export const FIXTURE_TOOLS: readonly FixtureTool[] = [
  {
    name: "run_conformance",
    description: "Render the MCP Apps conformance suite (its resource declares a CSP built from control A).",
    visibility: ["model", "app"],
    resourceUri: RESOURCE_URIS.run_conformance,
    kind: "launch",
    server: "main",
  },
  {
    name: "run_conformance_nocsp",
    description: "Render the suite from a resource that declares no CSP (default-deny checks).",
    visibility: ["model", "app"],
    resourceUri: RESOURCE_URIS.run_conformance_nocsp,
    kind: "launch",
    server: "main",
  },
  {
    name: "run_conformance_precedence",
    description: "Render the suite from the resource whose listing and content item disagree on _meta.ui.",
    visibility: ["model", "app"],
    resourceUri: RESOURCE_URIS.run_conformance_precedence,
    kind: "launch",
    server: "main",
  },
  {
    name: "conformance_probe",
    description: "App-only echo.",
    visibility: ["app"],
    kind: "echo",
    server: "main",
  },
  {
    name: "error_probe",
    description: "App-only tool that always returns an isError result.",
    visibility: ["app"],
    kind: "error",
    server: "main",
  },
  {
    name: "model_only_probe",
    description: "Model-only echo: an app must not be able to call it.",
    visibility: ["model"],
    kind: "echo",
    server: "main",
  },
  {
    name: "empty_visibility_probe",
    description: "Echo with visibility []: neither listed for the model nor callable by the app.",
    visibility: [],
    kind: "echo",
    server: "main",
  },
  {
    name: "default_visibility_probe",
    description: "Echo without a visibility key: listed for the model and callable by the app.",
    visibility: undefined,
    kind: "echo",
    server: "main",
  },
  {
    name: "conformance_server_log",
    description: "App-only: what the server saw (client capabilities, resources read, tool calls, marks).",
    visibility: ["app"],
    kind: "server-log",
    server: "main",
  },
  {
    name: "second_server_probe",
    description: "Echo served only by the second MCP server; an app of the first server must not reach it.",
    visibility: ["model", "app"],
    kind: "echo",
    server: "second",
  },
];

/** The `_meta` the launch result carries; it must reach the View verbatim. */
export const LAUNCH_RESULT_META = Object.freeze({
  "conformance/fidelity": { nested: [1, "two", { three: true }] },
});

/**
 * The launch tools' result: text content, `structuredContent` naming the launcher, the marker it got and the
 * control origins, `_meta` = {@linkcode LAUNCH_RESULT_META}, no `isError`.
 */
export function launchResult(launcher: LauncherName, marker: string | null, controls: ControlOrigins): {
  content: { type: "text"; text: string }[];
  structuredContent: { launcher: LauncherName; marker: string | null; controls: ControlOrigins };
  _meta: typeof LAUNCH_RESULT_META;
} {
  return {
    content: [{ type: "text", text: `conformance suite launched${marker ? ` (${marker})` : ""}` }],
    structuredContent: { launcher, marker, controls },
    _meta: LAUNCH_RESULT_META,
  };
}

/** The structured content of `conformance_server_log`: the server vantage. */
export interface ServerLog {
  /** `params.capabilities` of every `initialize` the server answered, oldest first. */
  clientCapabilities: Record<string, unknown>[];
  /** `params.clientInfo` of every `initialize`. */
  clientInfo?: Record<string, unknown>[];
  /** Every `resources/read` URI, in order. */
  resourcesRead: { uri: string; at: number }[];
  /** Every `tools/call`, in order (`conformance_server_log` calls included). */
  toolCalls: { name: string; arguments: unknown; at: number }[];
  /** Every `marker` posted through `conformance_server_log`, in order. */
  markers: { marker: string; at: number }[];
  /**
   * Every JSON-RPC method received, in order (`target`: the tool or URI); absent from a server that does not
   * keep it.
   */
  methods?: { method: string; at: number; target?: string }[];
  /**
   * What the second server running in the same process received (`visibility/cross-server-blocked`);
   * `null` when this server knows of none (a second server may still run elsewhere).
   */
  secondServer?: SecondServerLog | null;
}

/** The second server's vantage as the main server reports it: did a host connect to it, and what did it call. */
export interface SecondServerLog {
  /** Whether the second server received an `initialize`. */
  initialized: boolean;
  /** Whether the second server received a `tools/list`. */
  toolsListed: boolean;
  /** Every `tools/call` the second server received, in order. */
  toolCalls: { name: string; arguments: unknown; at: number }[];
}

/** The `_meta.ui.csp` a resource declares (same shape as ext-apps `McpUiResourceCsp`). */
export interface DeclaredCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** A domain string that must not inject a directive (vercel/ai#17192); hosts must drop or sanitize it. */
export const INJECTION_DOMAIN = "https://a.test; script-src *";

/**
 * The `_meta.ui` of each resource, in the listing (`resources/list`) and on the content item
 * (`resources/read`). `undefined` means the key is absent there.
 */
export function resourceMeta(
  launcher: LauncherName,
  controls: ControlOrigins,
): { listing: { csp?: DeclaredCsp } | undefined; content: { csp?: DeclaredCsp } | undefined } {
  switch (launcher) {
    case "run_conformance": {
      const csp: DeclaredCsp = {
        connectDomains: [controls.declared],
        resourceDomains: [controls.declared, INJECTION_DOMAIN],
        frameDomains: [controls.declared],
        baseUriDomains: [controls.declared],
      };
      return { listing: { csp }, content: { csp } };
    }
    case "run_conformance_nocsp":
      return { listing: undefined, content: undefined };
    case "run_conformance_precedence":
      return {
        listing: { csp: { connectDomains: [controls.declared] } },
        content: { csp: { connectDomains: [controls.undeclared] } },
      };
  }
}

/** What the View needs to know about its render; injected into the suite HTML by `withSuiteConfig`. */
export interface SuiteConfig {
  launcher: LauncherName;
  resourceUri: string;
  controls: ControlOrigins;
}

/** The `id` of the `<script type="application/json">` element that carries the {@linkcode SuiteConfig}. */
export const SUITE_CONFIG_ELEMENT_ID = "conformance-config";

/** The placeholder `buildSuiteHtml` leaves in the config element. */
export const SUITE_CONFIG_PLACEHOLDER = "{}";

/**
 * Returns the suite HTML with `config` in its config element. `<` is escaped, so no value can close the
 * script element.
 *
 * @example
 * ```ts
 * import { RESOURCE_URIS, withSuiteConfig } from "./fixtures.ts";
 * const page = withSuiteConfig('<script id="conformance-config" type="application/json">{}</script>', {
 *   launcher: "run_conformance",
 *   resourceUri: RESOURCE_URIS.run_conformance,
 *   controls: { declared: "http://127.0.0.1:4001", undeclared: "http://127.0.0.1:4002" },
 * });
 * ```
 */
export function withSuiteConfig(html: string, config: SuiteConfig): string {
  const open = `<script id="${SUITE_CONFIG_ELEMENT_ID}" type="application/json">`;
  const at = html.indexOf(open + SUITE_CONFIG_PLACEHOLDER + "</script>");
  if (at < 0) {
    throw new TypeError(
      `The suite HTML has no empty "${SUITE_CONFIG_ELEMENT_ID}" element: build it with buildSuiteHtml()`,
    );
  }
  const json = JSON.stringify(config).replaceAll("<", "\\u003c");
  const start = at + open.length;
  return html.slice(0, start) + json + html.slice(start + SUITE_CONFIG_PLACEHOLDER.length);
}

/** Paths the control origins serve (any directory; only the file name counts, see {@linkcode controlFixture}). */
export const CONTROL_FILES = {
  text: "ok.txt",
  pixel: "pixel.png",
  script: "flag.js",
  frame: "frame.html",
  link: "link.html",
} as const;

/** A 1×1 transparent PNG. */
const PIXEL_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** What a control origin answers. */
export interface ControlResponse {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

/**
 * The control origins' responses, by the request URL's last path segment. Every response needs
 * `Access-Control-Allow-Origin: *` and `Cache-Control: no-store`.
 * - `ok.txt`: `ok`.
 * - `pixel.png`: a 1×1 PNG.
 * - `flag.js?name=X`: sets `globalThis[X] = true` (X must be an identifier).
 * - `frame.html`: posts `{conformanceFrame: "loaded", origin}` to its parent.
 * - `link.html`: a page `checkLinkOpen` can wait for.
 * Anything else: 404.
 */
export function controlFixture(url: URL): ControlResponse {
  const file = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
  switch (file) {
    case CONTROL_FILES.text:
      return { status: 200, contentType: "text/plain; charset=utf-8", body: "ok" };
    case CONTROL_FILES.pixel:
      return {
        status: 200,
        contentType: "image/png",
        body: Uint8Array.from(atob(PIXEL_PNG_BASE64), (c) => c.charCodeAt(0)),
      };
    case CONTROL_FILES.script: {
      const name = url.searchParams.get("name") ?? "";
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) {
        return { status: 400, contentType: "text/plain; charset=utf-8", body: "name must be an identifier" };
      }
      return {
        status: 200,
        contentType: "text/javascript; charset=utf-8",
        body: `globalThis.${name} = true;\n`,
      };
    }
    case CONTROL_FILES.frame:
      return {
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: `<!doctype html><title>control frame</title><script>parent.postMessage(` +
          `{conformanceFrame: "loaded", origin: location.origin}, "*");</script>`,
      };
    case CONTROL_FILES.link:
      return {
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: "<!doctype html><title>conformance link target</title><p>Link opened.</p>",
      };
    default:
      return { status: 404, contentType: "text/plain; charset=utf-8", body: "not found" };
  }
}

/** The markers the View posts to `conformance_server_log` from its `onteardown` handler. */
export const TEARDOWN_MARKS = {
  /** Posted (not awaited) the moment `ui/resource-teardown` arrives. */
  received: "teardown:received",
  /** Posted after the View has held its answer for {@linkcode TEARDOWN_ACK_DELAY_MS}, right before answering. */
  acked: "teardown:acked",
} as const;

/** How long the View delays its `ui/resource-teardown` answer. */
export const TEARDOWN_ACK_DELAY_MS = 800;

/**
 * Why `lifecycle/teardown-notify` fails when the View was removed with no teardown receipt. Worded for what the
 * View saw: a request never sent and one posted as the frame is removed in the same turn look the same to it.
 */
export const TEARDOWN_NOT_RECEIVED =
  "The View never received ui/resource-teardown before the host removed it " +
  "(the suite cannot tell a request never sent from one sent as the frame was removed in the same turn: " +
  "either way the View could not answer it)";

/** The suite test ids whose verdicts come from the server log after the View is gone. */
export const TEARDOWN_TEST_IDS = ["lifecycle/teardown-notify", "lifecycle/teardown-await"] as const;

/**
 * Judges the teardown tests from the server vantage, for the Runner once the View is gone (or to confirm).
 * `removed`: whether the View's frame was detached by the host. `since`: only marks at or after this time.
 */
export function judgeTeardown(log: Pick<ServerLog, "markers">, removed: boolean, since = 0): {
  id: (typeof TEARDOWN_TEST_IDS)[number];
  status: "PASS" | "FAIL" | "SKIP";
  message?: string;
}[] {
  const marks = new Set(log.markers.filter((m) => m.at >= since).map((m) => m.marker));
  const received = marks.has(TEARDOWN_MARKS.received);
  const acked = marks.has(TEARDOWN_MARKS.acked);
  const notify = received ? { id: TEARDOWN_TEST_IDS[0], status: "PASS" as const } : removed
    ? {
      id: TEARDOWN_TEST_IDS[0],
      status: "FAIL" as const,
      message: TEARDOWN_NOT_RECEIVED,
    }
    : {
      id: TEARDOWN_TEST_IDS[0],
      status: "SKIP" as const,
      message: "The host kept the View and sent no teardown (it may ignore a teardown request)",
    };
  const wait = !received
    ? {
      id: TEARDOWN_TEST_IDS[1],
      status: "SKIP" as const,
      message: "No ui/resource-teardown arrived to await",
    }
    : acked
    ? { id: TEARDOWN_TEST_IDS[1], status: "PASS" as const }
    : {
      id: TEARDOWN_TEST_IDS[1],
      status: "FAIL" as const,
      message: `The host removed the View before its delayed (${TEARDOWN_ACK_DELAY_MS} ms) teardown answer`,
    };
  return [notify, wait];
}

/**
 * The console line a host's CSP audit log must produce (`security/csp-audit-log`, SHOULD), in whatever format
 * the host logs: a line about a CSP (it says CSP or Content-Security-Policy, or shows a `*-src` directive or a
 * `*Domains` key of `ui.csp`) that names the resource URI or one of the origins the resource declared. The
 * browser's own violation reports ("Refused to …", "… violates the following Content Security Policy …")
 * quote the policy too, so they never count. A RegExp source, for `readConsole`.
 *
 * @example
 * ```ts
 * import { cspAuditPattern } from "./fixtures.ts";
 * const pattern = new RegExp(cspAuditPattern("ui://conformance/runner", ["https://a.test"]));
 * pattern.test('[sandbox] applying CSP {"connectDomains":["https://a.test"]}'); // true
 * ```
 */
export function cspAuditPattern(resourceUri: string, declaredOrigins: readonly string[] = []): string {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  // Bounded, so ui://x/runner does not match ui://x/runner-nocsp, nor an origin one with a longer port.
  const names = [resourceUri, ...declaredOrigins].map((name) => `${escape(name)}(?![\\w-])`).join("|");
  // "CSP" as a word: a resource URI such as ui://x/runner-nocsp is not a line about a CSP (a host's log pane
  // shows such URIs in every message about resources).
  const aboutCsp = "\\b(?:CSP|[Cc]sp)\\b|[Cc]ontent-[Ss]ecurity-[Pp]olicy|[a-z]-src\\b|[a-z]Domains\\b";
  return `^(?!.*(?:Refused to |violates the following))(?=.*(?:${aboutCsp}))(?=.*(?:${names})).*`;
}
