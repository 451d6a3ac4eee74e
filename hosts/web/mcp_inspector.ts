/**
 * The built-in `mcp-inspector` host: the official MCP Inspector (`@modelcontextprotocol/inspector` 2.12.0,
 * installed by `deno task hosts:install`), which renders MCP Apps in its Apps tab. It is a YAML web host: its
 * whole description (how a render starts, how the View is closed, where the conformance server listens) is
 * the YAML of {@linkcode mcpInspectorYaml}, parsed like any `--config` file, so a user who starts the
 * Inspector by hand and gives that YAML gets the same results. The built-in host adds one thing: it starts the
 * Inspector itself (hosts/web/mcp_inspector_process.ts), on free loopback ports, pointed at the server.
 *
 * The launch, as a person does it: turn the server's connect switch on, open the Apps tab, close the View a
 * previous launch left open, pick the launcher's card, stage a partial input (its own control for sending
 * `tool-input-partial`, so `lifecycle/tool-input-partial-stop` has something to judge), press Open App. The Inspector has its own close control
 * (the View panel's Close button), so the teardown tests run; it has no control that cancels a tool call, so
 * `lifecycle/tool-cancelled` SKIPs as unsupported.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { parseConfig, type WebHostConfig } from "../../src/config.ts";
import { APPS_DEADLINES } from "../../src/runner/deadlines.ts";
import { scaled } from "../../src/time.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import { yamlHostCapabilities, YamlWebHost } from "./yaml_host.ts";
import { freeLoopbackPort } from "./_server_process.ts";
import {
  DEFAULT_INSPECTOR_UI_PORT,
  type InspectorProcess,
  MCP_INSPECTOR_ID,
  startInspector,
} from "./mcp_inspector_process.ts";

/** Where the Inspector's UI and the conformance server listen, as the YAML names them. */
export interface McpInspectorYamlOptions {
  /** The host id; `mcp-inspector` is the built-in one, so a config file needs another. */
  readonly id?: string;
  /** The Inspector's UI port on 127.0.0.1 (its `CLIENT_PORT`); 6274, its default, when absent. */
  readonly uiPort?: number;
  /** Where the harness starts the conformance server (`server.listen`); `127.0.0.1:6280` when absent. */
  readonly listen?: string;
}

/** The server address the YAML description names when none is given. */
export const DEFAULT_INSPECTOR_SERVER_LISTEN = "127.0.0.1:6280";

/**
 * The MCP Inspector described as a YAML web host. Every selector was found on the Inspector 2.12.0 itself:
 * the connect switch is a Mantine switch whose `input` sits under its styled track (a plain click is
 * intercepted, hence `force`), the tab bar appears only once connected, the launcher cards share a prefix (so
 * the card's name is matched exactly), the app panel (`data-testid=apps-form`) carries the Close button, and
 * the Protocol monitor's "Messages" panel shows each message as a card, collapsed until "Expand all".
 *
 * @example
 * ```ts
 * import { mcpInspectorYaml } from "./mcp_inspector.ts";
 * // For an Inspector started by hand on its default port, pointed at http://127.0.0.1:6280/mcp:
 * console.log(mcpInspectorYaml({ id: "my-inspector" }));
 * ```
 */
export function mcpInspectorYaml(options: McpInspectorYamlOptions = {}): string {
  const uiPort = options.uiPort ?? DEFAULT_INSPECTOR_UI_PORT;
  const listen = options.listen ?? DEFAULT_INSPECTOR_SERVER_LISTEN;
  return `hosts:
  - id: ${options.id ?? MCP_INSPECTOR_ID}
    kind: web
    summary: MCP Inspector 2.12.0 (its Apps tab), on loopback
    url: http://127.0.0.1:${uiPort}/
    server: { listen: "${listen}" }
    launch:
      # The server's connect switch; the tab bar shows only once connected.
      - click: "input[role=switch]"
        force: true
        unless: "input[type=radio][value=Apps] + label"
      - click: "input[type=radio][value=Apps] + label"
      # The View a previous launch left open: picking its card again would do nothing.
      - click: "[data-testid=apps-form] button[aria-label=Close]"
        optional: true
        timeoutMs: 500
      - click: 'button:has(p:text-is("{launcher}"))'
      # Its own control for partial input: the form's (empty) arguments, sent as tool-input-partial first.
      # Both are optional: a launcher tool without input fields has its app opened as soon as its card is
      # picked, and shows neither button.
      - click: "role=button[name='Stage partial input']"
        optional: true
        timeoutMs: 3000
      - click: "role=button[name='Open App']"
        optional: true
        timeoutMs: 3000
    teardown:
      - click: "[data-testid=apps-form] button[aria-label=Close]"
    # Its download consent is the browser's own confirm().
    nativeDialogs: [download]
    # Its Protocol monitor: every message, one card each, the resource's _meta.ui.csp in resources/read.
    log:
      selector: "div[data-variant=panel]:has(h4:text-is('Messages'))"
      entry: ".mantine-Card-root"
      reveal:
        # Collapsed cards show only the method; once expanded the button reads "Collapse all".
        - click: "button[aria-label='Expand all']"
          optional: true
          timeoutMs: 500
      # Collapsed again after the read: dozens of expanded editors slow its theme switch past the suite's wait.
      conceal:
        - click: "button[aria-label='Collapse all']"
          optional: true
          timeoutMs: 500
    live: false
`;
}

/**
 * The description for an Inspector started by hand on its default UI port, pointed at
 * `http://127.0.0.1:6280/mcp` (the worked example of a YAML host: copy it under an id of your own).
 */
export const MCP_INSPECTOR_YAML: string = mcpInspectorYaml({ id: "my-inspector" });

/**
 * The description of {@linkcode mcpInspectorYaml}, parsed and schema-checked as a config file is.
 *
 * @example
 * ```ts
 * import { mcpInspectorConfig } from "./mcp_inspector.ts";
 * mcpInspectorConfig({ uiPort: 6274 }).url; // "http://127.0.0.1:6274/"
 * ```
 */
export function mcpInspectorConfig(options: McpInspectorYamlOptions = {}): WebHostConfig {
  const [host] = parseConfig(mcpInspectorYaml(options), "hosts/web/mcp_inspector.ts").hosts;
  if (host?.kind !== "web") throw new TypeError("The MCP Inspector's description must be one web host");
  return host;
}

/**
 * The MCP Inspector, started by this host on free loopback ports, driven as its YAML describes.
 *
 * @example
 * ```ts ignore
 * const host = new McpInspectorHost();
 * await host.setup({ headful: false, live: false, trace: "off", artifactsDir: null, timeoutMultiplier: 1,
 *   signal: new AbortController().signal, appHtml: () => suiteHtml });
 * const bridge = await host.launch("run_conformance");
 * await host.teardown();
 * ```
 */
export class McpInspectorHost extends YamlWebHost {
  readonly #uiPort: number;
  #inspector: InspectorProcess | null = null;
  #inspectorPid: number | null = null;

  /** Picks the Inspector's UI port now (it cannot take 0); the server gets a free one at setup. */
  constructor(uiPort: number = freeLoopbackPort()) {
    super(mcpInspectorConfig({ uiPort, listen: "127.0.0.1:0" }));
    this.#uiPort = uiPort;
  }

  /** The running Inspector (its pid is its process group), while set up. */
  get inspector(): InspectorProcess | null {
    return this.#inspector;
  }

  /** The process group of the Inspector this host last started, kept after teardown (to prove it gone). */
  get inspectorPid(): number | null {
    return this.#inspectorPid;
  }

  /** Starts the Inspector pointed at the conformance server (already listening), then opens its UI. */
  protected override async open(page: Page): Promise<void> {
    const serverUrl = this.serverUrl;
    if (serverUrl === null) throw new Error(`Host "${this.id}" has no conformance server to point at`);
    this.#inspector = await startInspector({
      serverUrl: serverUrl.href,
      uiPort: this.#uiPort,
      startTimeoutMs: scaled(APPS_DEADLINES.inspectorStartMs, this.options.timeoutMultiplier),
      signal: this.options.signal,
    });
    this.#inspectorPid = this.#inspector.pid;
    await super.open(page);
  }

  /** Closes the browser and the server, then ends the Inspector's process group and checks it is gone. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      const inspector = this.#inspector;
      this.#inspector = null;
      await inspector?.close();
    }
  }
}

/** The registry entry. */
export const MCP_INSPECTOR_HOST: AppsHostEntry = {
  id: MCP_INSPECTOR_ID,
  kind: "web",
  summary: 'MCP Inspector 2.12.0 on loopback, launched through its Apps tab ("deno task hosts:install")',
  capabilities: yamlHostCapabilities(mcpInspectorConfig()),
  program: MCP_INSPECTOR_ID,
  suiteServers: true,
  create: () => new McpInspectorHost(),
};
