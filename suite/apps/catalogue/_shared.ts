/**
 * Helpers the catalogue files share: the test type, capability gates, control origins, and the "was this
 * call rejected" check used by every blocked-call assertion.
 *
 * @module
 */
import type { McpUiHostCapabilities } from "@modelcontextprotocol/ext-apps";
import type { ControlOrigins } from "../../../src/fixtures.ts";
import { suiteDeadline } from "../harness/timing.ts";
import type { TestContext, TestDefinition } from "../harness/test_api.ts";
import { brief } from "../harness/test_api.ts";
import type { CallToolResult, SuiteEnv } from "../harness/env.ts";

/** One catalogue test. */
export type SuiteTest = TestDefinition<SuiteEnv>;

/** The host's capabilities, or SKIP when the handshake gave none. */
export function capabilities(t: TestContext, env: SuiteEnv): McpUiHostCapabilities {
  return env.app.getHostCapabilities() ??
    t.fail("The host sent no hostCapabilities in the ui/initialize result");
}

/** SKIPs unless the host advertised `name`. */
export function requireCapability(t: TestContext, env: SuiteEnv, name: keyof McpUiHostCapabilities): void {
  if (capabilities(t, env)[name] === undefined) {
    t.skip(`The host does not advertise hostCapabilities.${name}`);
  }
}

/** The control origins, or SKIP when the View could not learn them. */
export function controls(t: TestContext, env: SuiteEnv): ControlOrigins {
  return env.config().controls ??
    t.skip(
      "The control origins are unknown: the server injected no suite config and the launch result named none",
    );
}

/** How an app's `tools/call` ended. */
export interface CallOutcome {
  /** A JSON-RPC error, or a result with `isError: true`. */
  rejected: boolean;
  how: "threw" | "isError" | "result";
  result?: CallToolResult;
  error?: string;
}

/** Calls a server tool from the View and reports whether the host (or server) rejected it. */
export async function tryCall(
  env: SuiteEnv,
  name: string,
  args: Record<string, unknown>,
): Promise<CallOutcome> {
  try {
    const result = await env.app.callServerTool({ name, arguments: args }, { timeout: suiteDeadline(8_000) });
    return result.isError
      ? { rejected: true, how: "isError", result }
      : { rejected: false, how: "result", result };
  } catch (error) {
    return { rejected: true, how: "threw", error: brief(error) };
  }
}

/** The text of a result's text content, joined. */
export function textOf(result: CallToolResult | undefined): string {
  return (result?.content ?? []).map((block) => block.type === "text" ? block.text : "").join("\n");
}

/** A URL on a control origin (the file name picks the fixture, see `controlFixture`). */
export function controlUrl(origin: string, file: string, query = ""): string {
  return `${origin}/conformance/${file}${query}`;
}

/** The standard style variable keys of McpUiStyleVariableKey (ext-apps 2.0.4). */
export const STANDARD_STYLE_KEYS: ReadonlySet<string> = new Set([
  "--color-background-primary",
  "--color-background-secondary",
  "--color-background-tertiary",
  "--color-background-inverse",
  "--color-background-ghost",
  "--color-background-info",
  "--color-background-danger",
  "--color-background-success",
  "--color-background-warning",
  "--color-background-disabled",
  "--color-text-primary",
  "--color-text-secondary",
  "--color-text-tertiary",
  "--color-text-inverse",
  "--color-text-ghost",
  "--color-text-info",
  "--color-text-danger",
  "--color-text-success",
  "--color-text-warning",
  "--color-text-disabled",
  "--color-border-primary",
  "--color-border-secondary",
  "--color-border-tertiary",
  "--color-border-inverse",
  "--color-border-ghost",
  "--color-border-info",
  "--color-border-danger",
  "--color-border-success",
  "--color-border-warning",
  "--color-border-disabled",
  "--color-ring-primary",
  "--color-ring-secondary",
  "--color-ring-inverse",
  "--color-ring-info",
  "--color-ring-danger",
  "--color-ring-success",
  "--color-ring-warning",
  "--font-sans",
  "--font-mono",
  "--font-weight-normal",
  "--font-weight-medium",
  "--font-weight-semibold",
  "--font-weight-bold",
  "--font-text-xs-size",
  "--font-text-sm-size",
  "--font-text-md-size",
  "--font-text-lg-size",
  "--font-heading-xs-size",
  "--font-heading-sm-size",
  "--font-heading-md-size",
  "--font-heading-lg-size",
  "--font-heading-xl-size",
  "--font-heading-2xl-size",
  "--font-heading-3xl-size",
  "--font-text-xs-line-height",
  "--font-text-sm-line-height",
  "--font-text-md-line-height",
  "--font-text-lg-line-height",
  "--font-heading-xs-line-height",
  "--font-heading-sm-line-height",
  "--font-heading-md-line-height",
  "--font-heading-lg-line-height",
  "--font-heading-xl-line-height",
  "--font-heading-2xl-line-height",
  "--font-heading-3xl-line-height",
  "--border-radius-xs",
  "--border-radius-sm",
  "--border-radius-md",
  "--border-radius-lg",
  "--border-radius-xl",
  "--border-radius-full",
  "--border-width-regular",
  "--shadow-hairline",
  "--shadow-sm",
  "--shadow-md",
  "--shadow-lg",
]);
