/**
 * The built-in `mcp-use` host: the mcp-use Inspector (`@mcp-use/inspector` 20.3.10, installed by `deno task
 * hosts:install`), which renders MCP Apps in the result pane of its Tools tab through ext-apps' AppBridge. Like
 * `mcp-inspector` it is a YAML web host (its description is {@linkcode mcpUseYaml}); the built-in host adds only
 * the start: the Inspector on a free loopback port, in its own process group, telemetry off, auto-connected to
 * the conformance server (hosts/web/mcp_use_process.ts). Its UI is opened at `localhost`, so its sandbox proxy is
 * served from `127.0.0.1` on the same port: a distinct origin.
 *
 * The launch, as a person does it: the Tools tab, the launcher in the tool list, Execute. No model is involved.
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
import { MCP_USE_BINARY, MCP_USE_ID, type McpUseProcess, startMcpUse } from "./mcp_use_process.ts";

/** Where the UI and the conformance server listen, as the YAML names them. */
export interface McpUseYamlOptions {
  /** The host id; `mcp-use` is the built-in one, so a config file needs another. */
  readonly id?: string;
  /** The Inspector's UI port (`--port`). */
  readonly port?: number;
  /** Where the harness starts the conformance server (`server.listen`); `127.0.0.1:6281` when absent. */
  readonly listen?: string;
}

/**
 * The mcp-use Inspector described as a YAML web host; the selectors are the `data-testid`s of its 20.3.10 UI.
 *
 * @example
 * ```ts
 * import { mcpUseYaml } from "./mcp_use.ts";
 * // For one started by hand: mcp-use-inspector --url http://127.0.0.1:6281/mcp --port 6275 --no-open
 * console.log(mcpUseYaml({ id: "my-mcp-use", port: 6275 }));
 * ```
 */
export function mcpUseYaml(options: McpUseYamlOptions = {}): string {
  return `hosts:
  - id: ${options.id ?? MCP_USE_ID}
    kind: web
    summary: mcp-use Inspector 20.3.10 (its Tools tab), on loopback
    # At localhost the sandbox proxy is served from 127.0.0.1: a distinct origin.
    url: http://localhost:${options.port ?? 6275}/inspector
    server: { listen: "${options.listen ?? "127.0.0.1:6281"}" }
    launch:
      # The tab bar is rendered twice, the narrow-window copy hidden; it shows once the auto-connect is
      # done ("Connecting to MCP server..."), which takes seconds on a loaded machine.
      - click: "[data-testid=tab-tools] >> visible=true"
        timeoutMs: 60000
      - click: "[data-testid=tool-item-{launcher}]"
      - click: "[data-testid=tool-execution-execute-button]"
    live: false
`;
}

/** The description of {@linkcode mcpUseYaml}, parsed and schema-checked as a config file is. */
export function mcpUseConfig(options: McpUseYamlOptions = {}): WebHostConfig {
  const [host] = parseConfig(mcpUseYaml(options), "hosts/web/mcp_use.ts").hosts;
  if (host?.kind !== "web") throw new TypeError("The mcp-use Inspector's description must be one web host");
  return host;
}

/** The mcp-use Inspector, started by this host on a free loopback port, driven as its YAML describes. */
export class McpUseHost extends YamlWebHost {
  readonly #port: number;
  #process: McpUseProcess | null = null;
  #pid: number | null = null;

  /**
   * Picks the UI port now (the page URL names it); the server gets a free one at setup. `describe` gives the
   * YAML description for that port (another tab of the same Inspector: hosts/web/mcp_use_chat.ts).
   */
  constructor(
    port: number = freeLoopbackPort(),
    describe: (options: McpUseYamlOptions) => WebHostConfig = mcpUseConfig,
  ) {
    super(describe({ port, listen: "127.0.0.1:0" }));
    this.#port = port;
  }

  /** The process group of the Inspector this host last started, kept after teardown (to prove it gone). */
  get processPid(): number | null {
    return this.#pid;
  }

  /** Starts the Inspector pointed at the conformance server, then opens its UI. */
  protected override async open(page: Page): Promise<void> {
    const serverUrl = this.serverUrl;
    if (serverUrl === null) throw new Error(`Host "${this.id}" has no conformance server to point at`);
    this.#process = await startMcpUse({
      serverUrl: serverUrl.href,
      port: this.#port,
      startTimeoutMs: scaled(APPS_DEADLINES.inspectorStartMs, this.options.timeoutMultiplier),
      signal: this.options.signal,
    });
    this.#pid = this.#process.pid;
    if (this.#process.uiUrl.port !== String(this.#port)) {
      throw new Error(
        `The mcp-use Inspector took port ${this.#process.uiUrl.port}, not ${this.#port} (it moves on when a port is taken)`,
      );
    }
    await super.open(page);
  }

  /** Closes the browser and the server, then ends the Inspector's process group and checks it is gone. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      const running = this.#process;
      this.#process = null;
      await running?.close();
    }
  }
}

/** The registry entry. */
export const MCP_USE_HOST: AppsHostEntry = {
  id: MCP_USE_ID,
  kind: "web",
  summary:
    'mcp-use Inspector 20.3.10 on loopback, launched through its Tools tab ("deno task hosts:install")',
  capabilities: yamlHostCapabilities(mcpUseConfig()),
  program: MCP_USE_BINARY,
  create: () => new McpUseHost(),
};
