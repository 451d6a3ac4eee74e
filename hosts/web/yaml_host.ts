/**
 * A web host described in the config file (`hosts:` with `kind: web`), for a vendor with an in-house chat
 * client: the URL, how to send a prompt (selector + key), how to read the conversation, how to commit a
 * drafted message, and optionally how to switch the theme. It is a {@linkcode ChatHost} whose
 * {@linkcode ChatDom} comes from YAML instead of code.
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
 * ```
 *
 * @module
 */
import type { WebHostConfig } from "../../src/config.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import { CHAT_HOST_CAPABILITIES, type ChatDom, ChatHost } from "./chat_host.ts";
import { DEFAULT_PACE_MS } from "./pacing.ts";
import { defaultProfileDir, signedInProblem } from "./profile.ts";

/** The {@linkcode ChatDom} a config entry describes. */
export function chatDomOf(config: WebHostConfig): ChatDom {
  return {
    url: config.url,
    composer: [config.prompt.selector],
    sendKey: config.prompt.key ?? "Enter",
    prompt: (launcher) => config.prompt.text.replaceAll("{launcher}", launcher),
    approve: config.approve,
    dismiss: config.dismiss,
    transcript: config.conversation.selector,
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
  };
}

/** A web host from the config file. */
export class YamlWebHost extends ChatHost {
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
  }
}

/** The registry entry of a config-file web host. */
export function yamlHostEntry(config: WebHostConfig, source: string | null): AppsHostEntry {
  return {
    id: config.id,
    kind: "web",
    summary: config.summary ?? `web host at ${config.url} (from ${source ?? "config"})`,
    capabilities: CHAT_HOST_CAPABILITIES,
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
