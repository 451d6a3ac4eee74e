/**
 * The reference host page's observable state, shared by the page modules and read by the Runner through
 * `page.evaluate(() => window.__referenceHost)`: the host log, the conversation, the model's tool list and the
 * pending model context, plus the local-only hooks.
 *
 * @module
 */
import type { LauncherName } from "../../../src/protocol.ts";
import type { VariantName } from "./variants.ts";

/** The configuration the host page is served with (an inline JSON element). */
export interface HostPageConfig {
  readonly mcpUrl: string;
  readonly secondMcpUrl: string;
  /** The sandbox proxy page, on a distinct origin (`localhost` vs the page's `127.0.0.1`). */
  readonly sandboxUrl: string;
  /** The broken variant's switch, or `null` for the conformant host. */
  readonly variant: VariantName | null;
  /**
   * Each View in a panel of its own, with its own "Close app" and "Cancel tool" buttons and its consent
   * dialogs inside it, like a chat thread that keeps every tool call's View (see `chat_surface.ts`); the page
   * then has no page-wide app controls. Absent: one set of controls above the app slot, dialogs over the page.
   */
  readonly panels?: boolean;
}

/** The `id` of the config element. */
export const HOST_CONFIG_ELEMENT_ID = "reference-config";

/** One turn of the conversation. */
export interface Turn {
  readonly role: "user" | "assistant";
  readonly text: string;
}

/** One entry of the host log. */
export interface HostLogEntry {
  readonly method: string;
  readonly at: number;
  readonly params?: unknown;
}

/** What `window.__referenceHost` offers. */
export interface ReferenceHostApi {
  /** Set once the MCP client connected and the model list is known. */
  ready: boolean;
  error: string | null;
  readonly log: HostLogEntry[];
  readonly conversation: Turn[];
  modelTools: string[];
  /** The model context the next model turn will see (the last update unless a variant says otherwise). */
  modelContext: unknown;
  /** Renders the suite through `launcher`; resolves once the tool result was delivered. */
  launch(launcher: LauncherName): Promise<void>;
  /** Tears the View down through `ui/resource-teardown`; says whether the View answered. */
  teardown(reason: string): Promise<{ acked: boolean }>;
  /** Cancels the launching tool call. */
  cancelTool(reason: string): Promise<{ sent: boolean; reason?: string }>;
  /** Streams `tool-input-partial` snapshots; a conformant host refuses once `tool-input` is out. */
  streamPartialInput(snapshots: Record<string, unknown>[]): Promise<{ sent: number }>;
  /** Clears the transient logs between manual tests; answers the newest View's display mode. */
  clearTransient(): string | null;
}

declare global {
  var __referenceHost: ReferenceHostApi | undefined;
}
