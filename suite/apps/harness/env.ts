/**
 * What every catalogue test can reach: the connected `App`, the recorder of host traffic, the CSP violation
 * log, the render's configuration, and the server vantage (through the app-only `conformance_server_log`).
 *
 * @module
 */
import type { App, McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import {
  type ControlOrigins,
  RESOURCE_URIS,
  type ServerLog,
  SUITE_CONFIG_ELEMENT_ID,
  type SuiteConfig,
} from "../../../src/fixtures.ts";
import type { LauncherName } from "../../../src/protocol.ts";
import type { Recorder } from "./recorder.ts";
import type { ViolationLog } from "./csp_probe.ts";

/** A `tools/call` result as the App returns it. */
export type CallToolResult = Awaited<ReturnType<App["callServerTool"]>>;

/** The render's configuration as far as the View could learn it. */
export interface ResolvedConfig {
  launcher: LauncherName;
  resourceUri: string;
  /** `null` when neither the injected config nor the launch result named them. */
  controls: ControlOrigins | null;
  /** Where the values came from, for messages. */
  source: "injected" | "tool-result" | "host-context" | "default";
}

/** The environment passed to every test body. */
export interface SuiteEnv {
  readonly app: App;
  readonly recorder: Recorder;
  readonly violations: ViolationLog;
  readonly doc: Document;
  /** The host context right after `connect()`, before any change notification. */
  readonly initialHostContext: McpUiHostContext | undefined;
  config(): ResolvedConfig;
  /** When the View's `onteardown` handler ran, if it did. */
  readonly teardown: { receivedAt?: number };
  /** How many times the View itself read its own resource (those reads are not the host's). */
  ownResourceReads: number;
  /** The server's log, read through the app-only `conformance_server_log` tool. */
  serverLog(marker?: string): Promise<ServerLog>;
  /** A unique marker string for this render. */
  nonce(prefix: string): string;
  /** The tag every {@linkcode nonce} of this render carries (`-<id>-`), to find its entries in the server log. */
  readonly renderTag: string;
}

const LAUNCHERS = Object.keys(RESOURCE_URIS) as LauncherName[];

function isLauncher(value: unknown): value is LauncherName {
  return typeof value === "string" && (LAUNCHERS as string[]).includes(value);
}

function isControls(value: unknown): value is ControlOrigins {
  const record = value as Record<string, unknown> | null;
  return typeof record?.declared === "string" && typeof record.undeclared === "string";
}

/** Reads the injected {@linkcode SuiteConfig}, or `undefined` when the server did not inject one. */
export function injectedConfig(doc: Document): Partial<SuiteConfig> | undefined {
  const text = doc.getElementById(SUITE_CONFIG_ELEMENT_ID)?.textContent ?? "";
  try {
    const parsed = JSON.parse(text) as Partial<SuiteConfig>;
    return isLauncher(parsed.launcher) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Works out the render's configuration: injected config, else the launch result, else the host context. */
export function resolveConfig(
  injected: Partial<SuiteConfig> | undefined,
  toolResult: CallToolResult | undefined,
  hostContext: McpUiHostContext | undefined,
): ResolvedConfig {
  const structured = toolResult?.structuredContent as Record<string, unknown> | undefined;
  const resultControls = isControls(structured?.controls) ? structured.controls : null;
  if (injected && isLauncher(injected.launcher)) {
    return {
      launcher: injected.launcher,
      resourceUri: injected.resourceUri ?? RESOURCE_URIS[injected.launcher],
      controls: isControls(injected.controls) ? injected.controls : resultControls,
      source: "injected",
    };
  }
  if (isLauncher(structured?.launcher)) {
    return {
      launcher: structured.launcher,
      resourceUri: RESOURCE_URIS[structured.launcher],
      controls: resultControls,
      source: "tool-result",
    };
  }
  const named = hostContext?.toolInfo?.tool.name;
  const launcher = isLauncher(named) ? named : "run_conformance";
  return {
    launcher,
    resourceUri: RESOURCE_URIS[launcher],
    controls: null,
    source: isLauncher(named) ? "host-context" : "default",
  };
}

/** Reads the server log from a `conformance_server_log` result, or throws saying what was wrong. */
export function serverLogOf(result: CallToolResult): ServerLog {
  const log = result.structuredContent as Partial<ServerLog> | undefined;
  if (
    !log || !Array.isArray(log.toolCalls) || !Array.isArray(log.resourcesRead) || !Array.isArray(log.markers)
  ) {
    throw new TypeError("conformance_server_log returned no server log: is this the conformance server?");
  }
  return log as ServerLog;
}
