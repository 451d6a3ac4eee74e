/**
 * The fixture tools and resources of the conformance MCP server (research sheet §7.2, §7.4): three launchers
 * that render the suite under different CSP metadata, probes with every visibility, and the app-only server
 * log. Registered on every per-request `McpServer` the SDK handler builds; state lives in the
 * {@linkcode ServerLog} passed in.
 *
 * @module
 */
import {
  registerAppResource,
  registerAppTool,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/server";
import type { McpUiResourceCsp } from "@modelcontextprotocol/ext-apps";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ServerLog } from "./server_log.ts";

/** The two loopback (or public) origins the CSP checks use as allow and deny controls. */
export interface ControlOrigins {
  /** Declared in the launcher's CSP (control A): loads from it must succeed. */
  readonly declared: string;
  /** Declared nowhere (control B): loads from it must be blocked. */
  readonly undeclared: string;
}

/** What {@linkcode registerFixtures} needs. */
export interface FixtureContext {
  readonly log: ServerLog;
  readonly appHtml: () => string | Promise<string>;
  readonly controls: ControlOrigins;
  /** Only the cross-server probe (the second server of `visibility/cross-server-blocked`). */
  readonly secondary: boolean;
}

/** Resource URIs of the three renders. */
export const RESOURCE_URIS = {
  run_conformance: "ui://conformance/runner",
  run_conformance_nocsp: "ui://conformance/runner-nocsp",
  run_conformance_precedence: "ui://conformance/precedence",
} as const;

/** A domain string that must not inject a directive (vercel/ai#17192); hosts must drop or sanitize it. */
export const INJECTION_DOMAIN = "https://a.test; script-src *";

/** The tool that exists only on the secondary server. */
export const SECOND_SERVER_TOOL = "second_server_probe";

/** The `_meta` the launcher's result carries, which `lifecycle/tool-result-fidelity` expects verbatim. */
export const LAUNCH_RESULT_META = {
  "conformance/fidelity": { nested: [1, "two", { three: true }] },
} as const;

/** Registers every fixture on one per-request server. */
export function registerFixtures(server: McpServer, context: FixtureContext): void {
  if (context.secondary) {
    registerAppTool(server, SECOND_SERVER_TOOL, {
      description: "App-only echo that exists only on the second server.",
      inputSchema: z.object({ payload: z.string().optional() }),
      _meta: { ui: { visibility: ["app"] } },
    }, ({ payload }) => textResult(`second:${payload ?? ""}`, { payload: payload ?? null }));
    return;
  }
  registerLaunchers(server, context);
  registerProbes(server, context);
}

function registerLaunchers(server: McpServer, context: FixtureContext): void {
  const { declared, undeclared } = context.controls;
  const declaredCsp = {
    connectDomains: [declared],
    resourceDomains: [declared, INJECTION_DOMAIN],
    frameDomains: [declared],
    baseUriDomains: [declared],
  };
  const launchers: {
    name: keyof typeof RESOURCE_URIS;
    listing: McpUiResourceCsp | null;
    content: McpUiResourceCsp | null;
  }[] = [
    { name: "run_conformance", listing: declaredCsp, content: declaredCsp },
    { name: "run_conformance_nocsp", listing: null, content: null },
    {
      name: "run_conformance_precedence",
      listing: { connectDomains: [declared] },
      content: { connectDomains: [undeclared] },
    },
  ];
  for (const launcher of launchers) {
    const uri = RESOURCE_URIS[launcher.name];
    registerAppTool(server, launcher.name, {
      description: `Renders the MCP Apps conformance suite (${uri}).`,
      inputSchema: z.object({ marker: z.string().optional(), filter: z.string().optional() }),
      _meta: { ui: { resourceUri: uri, visibility: ["model", "app"] } },
    }, ({ marker }) => ({
      content: [{ type: "text", text: `conformance suite launched${marker ? ` (${marker})` : ""}` }],
      structuredContent: {
        launcher: launcher.name,
        marker: marker ?? null,
        controls: { declared, undeclared },
      },
      _meta: LAUNCH_RESULT_META,
    }));
    registerAppResource(
      server,
      launcher.name,
      uri,
      launcher.listing
        ? { description: uri, _meta: { ui: { csp: launcher.listing } } }
        : { description: uri },
      async () => ({
        contents: [{
          uri,
          mimeType: RESOURCE_MIME_TYPE,
          text: await context.appHtml(),
          ...(launcher.content ? { _meta: { ui: { csp: launcher.content } } } : {}),
        }],
      }),
    );
  }
}

function registerProbes(server: McpServer, context: FixtureContext): void {
  const echo = z.object({ payload: z.string().optional() });
  registerAppTool(server, "conformance_probe", {
    description: "App-only echo: returns its payload.",
    inputSchema: echo,
    _meta: { ui: { visibility: ["app"] } },
  }, ({ payload }) => textResult(payload ?? "", { payload: payload ?? null }));
  registerAppTool(
    server,
    "error_probe",
    {
      description: "App-only tool whose result has isError: true.",
      inputSchema: echo,
      _meta: { ui: { visibility: ["app"] } },
    },
    ({ payload }) => ({
      ...textResult(`error:${payload ?? ""}`, { payload: payload ?? null }),
      isError: true,
    }),
  );
  registerAppTool(server, "model_only_probe", {
    description: "Model-only tool: a View's call must be rejected by the host.",
    inputSchema: echo,
    _meta: { ui: { visibility: ["model"] } },
  }, ({ payload }) => textResult(`model-only:${payload ?? ""}`, { payload: payload ?? null }));
  registerAppTool(server, "empty_visibility_probe", {
    description: "Tool with visibility []: neither listed for the model nor callable by the View.",
    inputSchema: echo,
    _meta: { ui: { visibility: [] } },
  }, ({ payload }) => textResult(`empty:${payload ?? ""}`, { payload: payload ?? null }));
  server.registerTool("default_visibility_probe", {
    description: "Tool without visibility: listed for the model and callable by the View.",
    inputSchema: echo,
  }, ({ payload }) => textResult(`default:${payload ?? ""}`, { payload: payload ?? null }));
  registerAppTool(server, "conformance_server_log", {
    description:
      "App-only: what this server saw (initialize capabilities, resources read, tool calls, markers).",
    inputSchema: z.object({ marker: z.string().optional() }),
    _meta: { ui: { visibility: ["app"] } },
  }, ({ marker }) => {
    if (marker !== undefined) context.log.recordMarker(marker);
    const snapshot = context.log.snapshot();
    return {
      content: [{ type: "text", text: JSON.stringify(snapshot) }],
      structuredContent: { ...snapshot },
    };
  });
}

function textResult(text: string, structuredContent: Record<string, unknown>) {
  return { content: [{ type: "text" as const, text }], structuredContent };
}
