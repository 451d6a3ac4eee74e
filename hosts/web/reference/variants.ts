/**
 * The broken variants of the reference host: each flips exactly one behaviour, so the suite must fail exactly
 * the tests that check it (mutation testing of the suite). A few are not broken at all but
 * legitimate layouts of real hosts (`passes`), which must PASS the tests they name. The host page and the sandbox proxy
 * read the switch by name; the table test holds each variant to its `fails` list.
 *
 * @module
 */

/** One broken behaviour. */
export interface Variant<Name extends string = string> {
  /** The registry id is `reference:<name>`. */
  readonly name: Name;
  /** The catalogue area whose obligation it breaks. */
  readonly area: string;
  /** What the variant does wrong, for `conformance list hosts`. */
  readonly summary: string;
  /** Suite test ids (`<area>/<name>`) that must not PASS under this variant; every other test must. */
  readonly fails: readonly string[];
  /**
   * For a variant that is legitimate, not broken (a layout a real host uses that an earlier suite misjudged):
   * the tests it exists to prove PASS. Never in `fails`.
   */
  readonly passes?: readonly string[];
  /**
   * Not a host flaw: the harness's own driver fails while servicing a request (it throws, as a product driver
   * does when a selector no longer matches). Every test in `fails` must then be ERROR, never FAIL or WARN.
   */
  readonly harnessFault?: true;
}

/** The table as written; its names are {@linkcode VariantName}. */
const TABLE = [
  {
    name: "input-before-initialized",
    area: "lifecycle",
    summary: "sends tool-input right after connect(), before ui/notifications/initialized",
    fails: ["lifecycle/nothing-before-initialized"],
  },
  {
    name: "double-tool-input",
    area: "lifecycle",
    summary: "sends tool-input twice",
    fails: ["lifecycle/tool-input-once"],
  },
  {
    name: "result-before-input",
    area: "lifecycle",
    summary: "sends tool-result before tool-input",
    fails: ["lifecycle/tool-input-before-result"],
  },
  {
    name: "partial-after-input",
    area: "lifecycle",
    summary: "keeps streaming tool-input-partial after tool-input",
    fails: ["lifecycle/tool-input-partial-stop"],
  },
  {
    name: "drops-result-meta",
    area: "lifecycle",
    summary: "drops _meta from the forwarded tool result (ext-apps#646, goose#7435)",
    fails: ["lifecycle/tool-result-fidelity"],
  },
  {
    name: "no-cancel-notify",
    area: "lifecycle",
    summary: "cancels the tool call without ui/notifications/tool-cancelled",
    fails: ["lifecycle/tool-cancelled"],
  },
  {
    name: "cancel-reason-replaced",
    area: "lifecycle",
    summary: 'sends tool-cancelled with its own reason ("cancelled") instead of the one it was given',
    fails: ["lifecycle/tool-cancelled"],
  },
  {
    name: "no-teardown-wait",
    area: "lifecycle",
    summary: "removes the View right after sending ui/resource-teardown, without awaiting the answer",
    fails: ["lifecycle/teardown-await"],
  },
  {
    name: "iserror-as-throw",
    area: "tools",
    summary: "turns an isError tool result into a JSON-RPC error",
    fails: ["tools/proxy-error-passthrough"],
  },
  {
    name: "no-resource-read-proxy",
    area: "resources",
    summary: "rejects the View's resources/read",
    fails: ["resources/proxy-read"],
  },
  {
    name: "no-ui-extension",
    area: "capabilities",
    summary: "omits the io.modelcontextprotocol/ui extension from initialize",
    fails: ["capabilities/ui-extension-advertised"],
  },
  {
    name: "stateless-mcp",
    area: "capabilities",
    summary: "speaks stateless MCP (2026-07-28) as the mcp-use Inspector does: server/discover, never " +
      "initialize, its capabilities in every request's _meta (legitimate)",
    fails: [],
    passes: ["capabilities/ui-extension-advertised"],
  },
  {
    name: "stateless-no-ui-extension",
    area: "capabilities",
    summary: "speaks stateless MCP as stateless-mcp does, but its _meta capabilities omit the " +
      "io.modelcontextprotocol/ui extension",
    fails: ["capabilities/ui-extension-advertised"],
  },
  {
    name: "listing-meta-only",
    area: "resources",
    summary: "ignores the content item's _meta.ui and uses the resources/list entry",
    fails: ["resources/meta-precedence"],
  },
  {
    name: "no-visibility-guard",
    area: "visibility",
    summary: "keeps AppBridge's blind tools/call forwarder: the View may call model-only tools (trap T1)",
    fails: ["visibility/app-tool-call-guard"],
  },
  {
    name: "model-list-unfiltered",
    area: "visibility",
    summary: "puts every tool in the model's tool list",
    fails: ["visibility/app-tool-hidden", "visibility/empty-array-hidden"],
  },
  {
    name: "model-list-sdk-predicate",
    area: "visibility",
    summary: "filters the model's list with isToolVisibilityAppOnly, so visibility [] leaks (trap T2)",
    fails: ["visibility/empty-array-hidden"],
  },
  {
    name: "cross-server-leak",
    area: "visibility",
    summary: "resolves the View's tool calls across every connected server",
    fails: ["visibility/cross-server-blocked"],
  },
  {
    name: "cross-server-forward-rejected",
    area: "visibility",
    summary: "forwards the View's call to another server's tool, then answers the View with a rejection",
    // Only the second server's log shows it: the View saw the call rejected.
    fails: ["visibility/cross-server-blocked"],
  },
  {
    name: "bad-timezone",
    area: "context",
    summary: 'sends timeZone "Mars/Olympus"',
    fails: ["context/shape-valid"],
  },
  {
    name: "wrong-toolinfo",
    area: "context",
    summary: "names another tool in hostContext.toolInfo",
    fails: ["context/toolinfo-matches"],
  },
  {
    name: "theme-not-sent",
    area: "context",
    summary: "ignores prefers-color-scheme changes: no host-context-changed on a theme switch",
    // Cascade: with no theme change at all, partial-merge has nothing to judge (SKIP).
    fails: ["context/theme-change-notify", "context/partial-merge"],
  },
  {
    name: "full-context-patch",
    area: "context",
    summary: "re-sends the whole host context on every change instead of the changed keys",
    fails: ["context/partial-merge"],
  },
  {
    name: "no-resize",
    area: "dimensions",
    summary: "ignores ui/notifications/size-changed",
    fails: ["dimensions/listen-size-changed"],
  },
  {
    name: "accepts-undeclared-mode",
    area: "display",
    summary: "grants a display mode the app did not declare and returns it (the ChatGPT pip bug)",
    fails: ["display/no-undeclared-mode", "display/unavailable-returns-current"],
  },
  {
    name: "pip-answered-error",
    area: "display",
    summary: "answers a request for a mode it will not grant (pip) with a JSON-RPC error, and stays inline",
    // The SHOULD wants the current mode back; the MUST NOT only forbids a switch, and nothing switched.
    fails: ["display/unavailable-returns-current"],
    passes: ["display/no-undeclared-mode"],
  },
  {
    name: "pip-switch-error",
    area: "display",
    summary: "switches to the undeclared pip (and tells the View), yet answers the request with an error",
    fails: ["display/no-undeclared-mode", "display/unavailable-returns-current"],
  },
  {
    name: "no-display-notify",
    area: "display",
    summary: "switches display mode without host-context-changed",
    fails: ["display/change-notifies-context"],
  },
  {
    name: "open-link-dropped",
    area: "links",
    summary: "answers ui/open-link with {} but opens nothing",
    fails: ["links/open-external"],
  },
  {
    name: "message-dropped",
    area: "messages",
    summary: "answers ui/message with {} but adds nothing to the conversation",
    // Cascade: the model-context tests need a user turn (the message) for the model to answer.
    fails: ["messages/add-to-conversation", "model-context/provide-future-turns", "model-context/last-wins"],
  },
  {
    name: "model-context-first-wins",
    area: "model-context",
    summary: "keeps the first ui/update-model-context instead of the last",
    fails: ["model-context/last-wins"],
  },
  {
    name: "same-origin-proxy",
    area: "security",
    summary: "serves the sandbox proxy from the host page's own origin",
    fails: ["security/sandbox-isolation"],
  },
  {
    name: "dangerous-sandbox",
    area: "security",
    summary: "adds allow-top-navigation and allow-popups-to-escape-sandbox to the outer frame",
    fails: ["security/iframe-sandboxed"],
  },
  {
    name: "loose-csp",
    area: "security",
    summary: "adds connect-src * to the proxy's CSP (loosens the declared policy)",
    // connect-src * also lets the no-CSP render and the precedence render reach origins they must not.
    fails: ["security/csp-connect", "security/csp-default-deny", "resources/meta-precedence"],
  },
  {
    name: "wrong-tool-input",
    area: "lifecycle",
    summary: "sends tool-input with arguments other than those the server got",
    fails: ["lifecycle/tool-input"],
  },
  {
    name: "no-tool-result",
    area: "lifecycle",
    summary: "never sends tool-result",
    fails: ["lifecycle/tool-result", "lifecycle/tool-result-fidelity", "lifecycle/tool-input-before-result"],
  },
  {
    name: "drop-ping",
    area: "lifecycle",
    summary: "the sandbox proxy swallows the View's ping",
    fails: ["lifecycle/ping"],
  },
  {
    name: "teardown-without-notify",
    area: "lifecycle",
    summary: "removes the View without sending ui/resource-teardown",
    fails: ["lifecycle/teardown-notify", "lifecycle/teardown-await"],
  },
  {
    name: "no-resource-list-proxy",
    area: "capabilities",
    summary: "rejects the View's resources/list",
    fails: ["capabilities/server-passthrough"],
  },
  {
    name: "default-visibility-app-only",
    area: "visibility",
    summary: "treats a tool without visibility as model-only and blocks the View's call",
    fails: ["visibility/default-both"],
  },
  {
    name: "static-hex-palette",
    area: "context",
    summary: "sends plain hex colours and does not re-send them on a theme change",
    fails: ["context/style-variables", "context/palette-follows-theme"],
  },
  {
    name: "theme-invariant-colour",
    area: "context",
    summary: "the MCP Inspector's palette: plain hex colours re-sent with new values on a theme change, " +
      "except one that is the same in both themes, left out of the partial patch (legitimate)",
    fails: ["context/style-variables"],
    passes: ["context/palette-follows-theme"],
  },
  {
    name: "display-mode-empty",
    area: "display",
    summary: "answers ui/request-display-mode with {} (the VS Code bug)",
    fails: [
      "display/return-resulting-mode",
      "display/unavailable-returns-current",
      "display/change-notifies-context",
    ],
  },
  {
    name: "model-context-dropped",
    area: "model-context",
    summary: "answers ui/update-model-context with {} but never gives it to the model",
    fails: ["model-context/provide-future-turns", "model-context/last-wins"],
  },
  {
    name: "model-context-shown-only",
    area: "model-context",
    summary:
      "shows the latest ui/update-model-context as a note in the thread, but never gives it to the model",
    fails: ["model-context/provide-future-turns", "model-context/last-wins"],
  },
  {
    name: "download-error",
    area: "download-file",
    summary: "advertises downloadFile but rejects every ui/download-file",
    fails: ["download-file/confirm"],
  },
  {
    name: "sampling-error",
    area: "sampling",
    summary: "advertises sampling but rejects every sampling/createMessage",
    fails: ["sampling/create-message"],
  },
  {
    name: "no-csp",
    area: "security",
    summary: "the sandbox proxy sends no Content-Security-Policy",
    fails: [
      "resources/meta-precedence",
      "security/csp-applied-policy",
      "security/csp-base-uri",
      "security/csp-connect",
      "security/csp-default-deny",
      "security/csp-frame-src",
      "security/csp-no-unsafe-eval",
      "security/csp-object-src",
      "security/csp-resource-img",
      "security/csp-resource-script",
      "security/csp-sanitized",
      "security/csp-scheme-sources",
      "security/csp-default-scheme-sources",
    ],
  },
  {
    name: "resource-domains-ignored",
    area: "security",
    summary: "builds the CSP without the declared resourceDomains (anthropics/claude-ai-mcp#40, #54)",
    // The sanitisation check's positive control (an image from the valid declared origin) fails with it.
    fails: ["security/csp-resource-img", "security/csp-resource-script", "security/csp-sanitized"],
  },
  {
    name: "frame-domains-ignored",
    area: "security",
    summary: "builds the CSP without the declared frameDomains (anthropics/claude-ai-mcp#40, #54)",
    fails: ["security/csp-frame-src", "security/csp-applied-policy"],
  },
  {
    name: "csp-unsanitized",
    area: "security",
    summary: "copies declared domain strings into the CSP verbatim (vercel/ai#17192)",
    fails: ["security/csp-sanitized"],
  },
  {
    name: "csp-scheme-scripts",
    area: "security",
    summary:
      "adds blob: and data: to script-src in every policy (basic-host style), so workers from blob: run too",
    fails: ["security/csp-scheme-sources", "security/csp-default-scheme-sources"],
  },
  {
    name: "csp-unsafe-eval",
    area: "security",
    summary: "adds 'unsafe-eval' to script-src (basic-host style; informational)",
    fails: ["security/csp-no-unsafe-eval"],
  },
  {
    name: "no-csp-log",
    area: "security",
    summary: "does not log the CSP it applies",
    fails: ["security/csp-audit-log"],
  },
  {
    name: "csp-log-declared-domains",
    area: "security",
    summary: "logs the declared ui.csp as JSON, without the resource URI or a built policy (another " +
      "host's audit format, no violation)",
    fails: [],
    passes: ["security/csp-audit-log"],
  },
  {
    name: "bad-initialize-result",
    area: "lifecycle",
    summary:
      "answers ui/initialize with the MCP core protocol version instead of the View's MCP Apps version",
    fails: ["lifecycle/initialize-result"],
  },
  {
    name: "log-breaks-channel",
    area: "logging",
    summary:
      "the sandbox proxy stalls after relaying a notifications/message and loses what the View sends next",
    fails: ["logging/accepted"],
  },
  {
    name: "app-calls-model-list",
    area: "tools",
    summary:
      "resolves the View's tools/call against the model's tool list: app-only tools are unknown (fastmcp#5041)",
    // Every app-only tool is unreachable, conformance_server_log included: the error probe throws, the guard's
    // positive control fails (SKIP), the server vantage is lost (SKIP), and the teardown tests, judged from
    // receipts the View posts through that tool, are not testable (SKIP).
    fails: [
      "tools/proxy-call",
      "tools/proxy-error-passthrough",
      "visibility/app-tool-call-guard",
      "resources/read-referenced",
      "capabilities/ui-extension-advertised",
      "lifecycle/teardown-notify",
      "lifecycle/teardown-await",
    ],
  },
  {
    name: "guard-forward-rejected",
    area: "visibility",
    summary: 'forwards the View\'s call to a ["model"] tool to the server, then shows the View a rejection',
    fails: ["visibility/app-tool-call-guard"],
  },
  {
    name: "driver-throws-tool-list",
    area: "visibility",
    summary: "the host is conformant, but the harness's driver throws while reading the model's tool list " +
      "(a selector that no longer matches): the tests that need the list are ERROR",
    fails: [
      "visibility/app-tool-hidden",
      "visibility/empty-array-hidden",
      "visibility/default-both",
    ],
    harnessFault: true,
  },
  {
    name: "stale-resource-cache",
    area: "resources",
    summary:
      "renders from a copy of the ui:// resource cached from an earlier server process, never resources/read",
    fails: ["resources/read-referenced"],
  },
  {
    name: "connect-time-resource-cache",
    area: "resources",
    summary:
      "its backend reads every ui:// resource once when the connector is added, then renders from that " +
      "copy without resources/read (same server process: only the time of the read gives it away)",
    fails: ["resources/read-referenced"],
  },
  {
    name: "late-hostcontext",
    area: "context",
    summary: "answers ui/initialize without hostContext and sends the whole context afterwards as a change",
    // The initial-context checks find nothing to judge (SKIP) or miss what they need (toolInfo, styles).
    fails: [
      "context/initialize-hostcontext",
      "context/shape-valid",
      "context/display-mode-consistent",
      "context/toolinfo-matches",
      "context/style-variables",
    ],
  },
  {
    name: "inconsistent-display-mode",
    area: "context",
    summary:
      'lists only the modes the View can switch to: displayMode "inline", availableDisplayModes ["fullscreen"]',
    fails: ["context/display-mode-consistent"],
  },
  {
    name: "opaque-view",
    area: "security",
    summary: "the MCP Inspector's frames: a proxy frame without a sandbox attribute, the View's own frame " +
      'sandbox="allow-scripts allow-forms" (an opaque origin: more isolated than required, no violation)',
    fails: [],
    passes: ["security/sandbox-isolation", "security/iframe-sandboxed"],
  },
  {
    name: "same-origin-proxy-opaque-view",
    area: "security",
    summary:
      "the opaque-view frames with the proxy served from the host page's own origin (the View cannot " +
      "see it; the frame chain does)",
    fails: ["security/sandbox-isolation"],
  },
  {
    name: "dangerous-view-sandbox",
    area: "security",
    summary:
      "gives the View's own frame allow-top-navigation and allow-popups-to-escape-sandbox (the proxy " +
      "frame stays clean)",
    fails: ["security/iframe-sandboxed"],
  },
  {
    name: "no-proxy",
    area: "security",
    summary: "renders the View in one srcdoc frame on the host page (CSP in a <meta>), with no sandbox proxy",
    fails: ["security/sandbox-isolation"],
  },
] as const satisfies readonly Variant[];

/** The name of a variant: the host page, the sandbox proxy and the listeners switch on these, never on other strings. */
export type VariantName = (typeof TABLE)[number]["name"];

/** Every variant, by catalogue area. */
export const VARIANTS: readonly Variant<VariantName>[] = TABLE;

/** The variant a request names (the sandbox proxy's `?variant=`), or `null` for none or an unknown name. */
export function variantNamed(raw: string | null): VariantName | null {
  return VARIANTS.find((variant) => variant.name === raw)?.name ?? null;
}
