/**
 * The built-in `mcp-use-chat` host: the Chat tab of the mcp-use Inspector (`@mcp-use/inspector` 20.3.10, the
 * install and pin of the `mcp-use` host), with its own-key settings pointed at the local mock model
 * (src/mock_model/chat.ts) through its `openai-compatible` provider. The launch is a chat turn: the prompt
 * "Call the run_conformance tool now." goes into its composer, the mock model answers with a call of that tool,
 * the Inspector runs it on the conformance server and renders the View inside the conversation. So the code
 * that drives the chat products (composer, send, transcript, drafted messages) runs against a chat interface
 * nobody here wrote.
 *
 * Like `mcp-use` it is a YAML web host ({@linkcode mcpUseChatYaml}); the built-in host adds the start: the mock
 * model, the Inspector on a free loopback port in its own process group (hosts/web/mcp_use_process.ts), and the
 * Inspector's model settings written to the page's storage before it loads (its `mcp-inspector-llm-config`,
 * `mcp-inspector-api-keys`, `mcp-inspector-base-urls` and `mcp-inspector:chat-mode` keys, as its settings dialog
 * saves them). The page calls the mock model directly (the Inspector's client does, and aimock answers CORS).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { parseConfig, type WebHostConfig } from "../../src/config.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import { type ChatModel, type ChatModelTurn, startChatModel } from "../../src/mock_model/chat.ts";
import { yamlHostCapabilities } from "./yaml_host.ts";
import { freeLoopbackPort } from "./_server_process.ts";
import { McpUseHost, type McpUseYamlOptions } from "./mcp_use.ts";
import { MCP_USE_BINARY } from "./mcp_use_process.ts";

/** The registry id. */
export const MCP_USE_CHAT_ID = "mcp-use-chat";

/** The model name the Inspector is configured with (the mock model answers any). */
export const MCP_USE_CHAT_MODEL = "conformance-mock";

/**
 * The mcp-use Inspector's Chat tab described as a YAML web host; the selectors are the `data-testid`s of its
 * 20.3.10 UI. Its model settings are not in the YAML (they name the mock model's port): a person sets them
 * once in the Chat tab's settings dialog, and the built-in host writes them to the page's storage.
 *
 * @example
 * ```ts
 * import { mcpUseChatYaml } from "./mcp_use_chat.ts";
 * console.log(mcpUseChatYaml({ id: "my-mcp-use-chat", port: 6275 }));
 * ```
 */
export function mcpUseChatYaml(options: McpUseYamlOptions = {}): string {
  return `hosts:
  - id: ${options.id ?? MCP_USE_CHAT_ID}
    kind: web
    summary: mcp-use Inspector 20.3.10 (its Chat tab, the mock model), on loopback
    # At localhost the sandbox proxy is served from 127.0.0.1: a distinct origin.
    url: http://localhost:${options.port ?? 6275}/inspector
    server: { listen: "${options.listen ?? "127.0.0.1:6281"}" }
    launch:
      # The tab bar is rendered twice, the narrow-window copy hidden; it shows once the auto-connect is done.
      - click: "[data-testid=tab-chat] >> visible=true"
        unless: "[data-testid=chat-input] >> visible=true"
        timeoutMs: 60000
    prompt:
      selector: "[data-testid=chat-input]"
      key: Enter
      text: "Call the {launcher} tool now."
    conversation: { selector: "[data-testid=chat-message-user], [data-testid=chat-message-assistant]" }
    commit: { selector: "[data-testid=chat-send-button]" }
    live: false
`;
}

/** The description of {@linkcode mcpUseChatYaml}, parsed and schema-checked as a config file is. */
export function mcpUseChatConfig(options: McpUseYamlOptions = {}): WebHostConfig {
  const [host] = parseConfig(mcpUseChatYaml(options), "hosts/web/mcp_use_chat.ts").hosts;
  if (host?.kind !== "web") throw new TypeError("The mcp-use Chat tab's description must be one web host");
  return host;
}

/**
 * What the Inspector's settings dialog saves for an `openai-compatible` provider at `baseUrl`, by storage key.
 *
 * @example
 * ```ts
 * import { mcpUseChatStorage } from "./mcp_use_chat.ts";
 * JSON.parse(mcpUseChatStorage("http://127.0.0.1:4000/v1")["mcp-inspector-llm-config"]!).provider;
 * // "openai-compatible"
 * ```
 */
export function mcpUseChatStorage(baseUrl: string): Record<string, string> {
  const provider = "openai-compatible";
  return {
    "mcp-inspector-llm-config": JSON.stringify({
      provider,
      apiKey: "mock",
      model: MCP_USE_CHAT_MODEL,
      baseUrl,
    }),
    "mcp-inspector-api-keys": JSON.stringify({ [provider]: "mock" }),
    "mcp-inspector-base-urls": JSON.stringify({ [provider]: baseUrl }),
    "mcp-inspector:chat-mode": "byok",
  };
}

/**
 * The mcp-use Inspector's Chat tab against the mock model: the Tools-tab host's Inspector process, its model
 * settings written to the page's storage before the UI opens, and the mock model started beside it.
 */
export class McpUseChatHost extends McpUseHost {
  #model: ChatModel | null = null;
  #journal: readonly ChatModelTurn[] = [];

  /** Picks the UI port now (the page URL names it); the server and the model get free ones at setup. */
  constructor(port: number = freeLoopbackPort()) {
    super(port, mcpUseChatConfig);
  }

  /** How the mock model answered each chat request, kept after teardown (the last setup's). */
  modelJournal(): readonly ChatModelTurn[] {
    return this.#model?.journal() ?? this.#journal;
  }

  /** Starts the mock model, writes its settings for the Inspector's origin, then starts the Inspector. */
  protected override async open(page: Page): Promise<void> {
    this.#model = await startChatModel();
    const storage = mcpUseChatStorage(this.#model.baseUrl);
    const origin = new URL(this.loginUrl).origin;
    await page.addInitScript(([entries, at]) => {
      if (location.origin !== at) return;
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, [storage, origin] as const);
    await super.open(page);
  }

  /** Closes the browser, the server and the Inspector's process group, then stops the model. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      const model = this.#model;
      this.#model = null;
      if (model !== null) this.#journal = model.journal();
      await model?.stop();
    }
  }
}

/** The registry entry. */
export const MCP_USE_CHAT_HOST: AppsHostEntry = {
  id: MCP_USE_CHAT_ID,
  kind: "web",
  summary:
    'mcp-use Inspector 20.3.10 on loopback, launched by a chat turn of the mock model ("deno task hosts:install")',
  capabilities: yamlHostCapabilities(mcpUseChatConfig()),
  program: MCP_USE_BINARY,
  create: () => new McpUseChatHost(),
};
