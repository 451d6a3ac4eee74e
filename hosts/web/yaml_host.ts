/**
 * A web host described in the config file (`hosts:` with `kind: web`), for a vendor with an in-house client:
 * the URL, how one render starts (launch steps through its UI, a chat prompt, or steps then a prompt), how to
 * read the conversation, commit a drafted message, switch the theme, and press its own close and cancel
 * controls; optionally the conformance MCP server the harness starts for the run where the host expects it.
 * It is a {@linkcode ChatHost} whose {@linkcode ChatDom} comes from YAML instead of code.
 *
 * ```yaml
 * hosts:
 *   - id: acme-chat
 *     kind: web
 *     url: https://chat.acme.example/
 *     prompt: { selector: "#composer textarea", key: Enter, text: "Call the {launcher} tool now." }
 *     conversation: { selector: ".turn" }
 *     commit: { selector: "button[aria-label=Send]" }
 *     themeToggle: { selector: "[data-theme={to}]" }
 *     live: true
 *   - id: acme-inspector
 *     kind: web
 *     url: http://127.0.0.1:6274/
 *     launch:
 *       - click: "text='{launcher}'"
 *       - click: "role=button[name='Open App']"
 *     teardown: [{ click: "role=button[name=Close]" }]
 *     server: { listen: "127.0.0.1:6280" }
 *     live: false
 * ```
 *
 * @module
 */
import type { Page } from "playwright-core";
import type { WebHostConfig } from "../../src/config.ts";
import type { ServerLog } from "../../src/fixtures.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import type { CapabilityKind, CapabilityResult, LauncherName } from "../../src/protocol.ts";
import type { CapabilityContext, HostSetupOptions, RequestOf } from "../../src/runner/host.ts";
import type { Serving } from "../../src/server/serve.ts";
import { CHAT_HOST_CAPABILITIES, type ChatDom, ChatHost } from "./chat_host.ts";
import { type LaunchStep, placeholdersOf, runSteps, type StepVars } from "../../src/runner/launch_steps.ts";
import { DEFAULT_PACE_MS } from "./pacing.ts";
import { defaultProfileDir, signedInProblem } from "./profile.ts";

/** The {@linkcode ChatDom} a config entry describes. */
export function chatDomOf(config: WebHostConfig): ChatDom {
  const prompt = config.prompt;
  return {
    url: config.url,
    composer: prompt ? [prompt.selector] : [],
    sendKey: prompt?.key ?? "Enter",
    prompt: (launcher) => prompt?.text.replaceAll("{launcher}", launcher) ?? "",
    approve: config.approve,
    dismiss: config.dismiss,
    transcript: config.conversation?.selector ?? null,
    commit: config.commit
      ? {
        selectors: [config.commit.selector],
        labels: [],
        ...(config.commit.key ? { key: config.commit.key } : {}),
      }
      : null,
    dialogs: config.dialogs,
    stop: [],
    theme: config.themeToggle ? { selector: config.themeToggle.selector } : null,
    signedIn: config.signedIn ?? null,
    ...(config.log ? { log: { selector: config.log.selector, entry: config.log.entry ?? null } } : {}),
    nativeDialogs: config.nativeDialogs,
  };
}

/** The capability requests a config entry's host services: its step lists and conversation decide. */
export function yamlHostCapabilities(config: WebHostConfig): CapabilityKind[] {
  return [
    ...CHAT_HOST_CAPABILITIES.filter((kind) => kind !== "conversationContains" || config.conversation),
    ...(config.teardown ? ["triggerTeardown" as const] : []),
    ...(config.cancel ? ["cancelTool" as const] : []),
  ];
}

const UNSUPPORTED: CapabilityResult = { ok: false, unsupported: true };

/**
 * A web host from the config file. With `server:`, the conformance MCP server (and its CSP control origins,
 * and the second server when asked) listen before the browser starts, so a subclass may start its product in
 * `open()` before `super.open()`, pointed at {@linkcode YamlWebHost.serverUrl}.
 */
export class YamlWebHost extends ChatHost {
  /** What the in-process conformance server saw; present only when the entry has `server:`. */
  readonly serverLog?: () => ServerLog;
  readonly #config: WebHostConfig;
  #serving: Serving | null = null;
  /** Another conformance server the host is pointed at (`server: { url }` or `--suite-server`), while set up. */
  #suiteServer: URL | null = null;
  #launcher: LauncherName | null = null;

  /** The host `config` describes; `headless` overrides a live host's window (tests only). */
  constructor(config: WebHostConfig, options: { headless?: boolean } = {}) {
    super({
      id: config.id,
      product: config.summary ?? config.id,
      dom: chatDomOf(config),
      paceMs: config.paceMs ?? (config.live ? DEFAULT_PACE_MS : 0),
      persistent: config.live,
      ...(options.headless !== undefined ? { headless: options.headless } : {}),
    });
    this.#config = config;
    if (config.server?.listen !== undefined) {
      this.serverLog = () => {
        if (this.#serving === null) throw new Error(`Host "${this.id}" is not set up`);
        return this.#serving.server.log.snapshot();
      };
    }
  }

  /**
   * The conformance server's MCP endpoint while set up (`server:` only), e.g. `http://127.0.0.1:6280/mcp`:
   * another server's (`server: { url }`, `--suite-server`) or the one the harness started.
   */
  get serverUrl(): URL | null {
    return this.#suiteServer ?? this.#serving?.server.url ?? null;
  }

  /** The servers and control origins this host started, while set up (`server:` only). */
  get serving(): Serving | null {
    return this.#serving;
  }

  /**
   * Starts the conformance server when the entry asks for it (`server: { listen }`, and no other server is
   * given), then the browser.
   */
  override async setup(options: HostSetupOptions): Promise<void> {
    const server = this.#config.server;
    const elsewhere = options.suiteServer ?? server?.url;
    if (elsewhere !== undefined) {
      this.#suiteServer = new URL(elsewhere);
    } else if (server?.listen !== undefined) {
      const appHtml = options.appHtml;
      if (appHtml === undefined) {
        throw new TypeError(`Host "${this.id}" needs the suite HTML: pass appHtml in the setup options`);
      }
      // Loaded lazily: the server SDK is not needed by commands that only list hosts.
      const { startServing } = await import("../../src/server/serve.ts");
      try {
        this.#serving = await startServing({
          listen: server.listen,
          ...(server.second ? { second: server.second } : {}),
          cspOrigins: server.cspOrigins,
          // The host page may call from its own origin (loopback origins are always allowed).
          allowOrigins: [new URL(this.#config.url).origin, ...server.allowOrigins],
          appHtml,
        });
      } catch (error) {
        if (!(error instanceof Deno.errors.AddrInUse)) throw error;
        throw new Error(
          `Host "${this.id}" could not start its conformance server: ${server.listen}` +
            `${server.second ? ` or ${server.second}` : ""} is in use (another run or "conformance serve"?)`,
        );
      }
    }
    // On failure, BrowserHost.setup runs this.teardown(), which stops the servers too.
    await super.setup(options);
  }

  /** The launch steps, then the prompt when the entry gives one. */
  protected override async startRender(page: Page, launcher: LauncherName): Promise<void> {
    this.#launcher = launcher;
    const launch = this.#config.launch;
    if (launch) await this.#run(page, launch, "launch", this.options.signal);
    if (this.#config.prompt) await super.startRender(page, launcher);
  }

  async #run(page: Page, steps: readonly LaunchStep[], what: string, signal: AbortSignal): Promise<void> {
    const vars: StepVars = {
      ...(this.#launcher ? { launcher: this.#launcher } : {}),
      ...(this.serverUrl ? { serverUrl: this.serverUrl.href } : {}),
    };
    await runSteps(page, steps, vars, {
      timeoutMultiplier: this.options.timeoutMultiplier,
      signal,
      what,
      beforeStep: () => this.pace(signal),
      view: () => this.viewFrameElement(page),
    });
  }

  /** Runs the `log.reveal` steps before the log pane is read, the `log.conceal` steps after. */
  protected override async logPaneSteps(which: "reveal" | "conceal", signal: AbortSignal): Promise<void> {
    const steps = this.#config.log?.[which];
    if (steps) await this.#run(this.page, steps, `log ${which}`, signal);
  }

  /** Unsupported without `conversation:` (a host launched by steps may have no conversation at all). */
  override async conversationContains(
    request: RequestOf<"conversationContains">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    if (this.#config.conversation === undefined) return { ...UNSUPPORTED };
    return await super.conversationContains(request, context);
  }

  /** Presses the host's own close control (`teardown:` steps). */
  async triggerTeardown(
    _request: RequestOf<"triggerTeardown">,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    return await this.#press(this.#config.teardown, "teardown", context);
  }

  /** Presses the host's own cancel control (`cancel:` steps). */
  async cancelTool(_request: RequestOf<"cancelTool">, context: CapabilityContext): Promise<CapabilityResult> {
    return await this.#press(this.#config.cancel, "cancel", context);
  }

  async #press(
    steps: readonly LaunchStep[] | undefined,
    what: string,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    if (steps === undefined) return { ...UNSUPPORTED };
    try {
      await this.#run(this.page, steps, what, context.signal);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Closes the browser, then the servers it started. */
  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      const serving = this.#serving;
      this.#serving = null;
      this.#suiteServer = null;
      this.#launcher = null;
      await serving?.close();
    }
  }
}

/**
 * Whether a host can be pointed at another conformance server: its entry names one (`server: { url }`), or
 * its launch steps take the server's URL (`{serverUrl}`) and so follow `--suite-server`.
 */
export function pointsAtServerUrl(config: WebHostConfig): boolean {
  if (config.server?.url !== undefined) return true;
  return config.launch !== undefined && placeholdersOf(config.launch).has("serverUrl");
}

/** The registry entry of a config-file web host. */
export function yamlHostEntry(config: WebHostConfig, source: string | null): AppsHostEntry {
  return {
    id: config.id,
    kind: "web",
    summary: config.summary ?? `web host at ${config.url} (from ${source ?? "config"})`,
    capabilities: yamlHostCapabilities(config),
    ...(pointsAtServerUrl(config) ? { suiteServers: true } : {}),
    ...(config.live
      ? {
        requiresLive: "drives a real web product",
        preflight: (options: { readonly profileDir?: string }) =>
          signedInProblem(config.id, options.profileDir ?? defaultProfileDir(config.id)),
      }
      : {}),
    create: () => new YamlWebHost(config),
  };
}
