/**
 * Registers the fixture tools and resources of the conformance MCP server, exactly as the fixture spec
 * (`src/fixtures.ts`) writes them down: launchers rendering the suite under different `_meta.ui`, probes with
 * every visibility, the app-only server log, and the second server's probe. Registered on every per-request
 * `McpServer` the SDK handler builds; state lives in the {@linkcode ServerLogRecorder} passed in.
 *
 * @module
 */
import { registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  APP_MIME_TYPE,
  type ControlOrigins,
  FIXTURE_TOOLS,
  type FixtureTool,
  launchResult,
  RESOURCE_URIS,
  resourceMeta,
  withSuiteConfig,
} from "../fixtures.ts";
import type { LauncherName } from "../protocol.ts";
import { secondServerLogOf, type ServerLogRecorder } from "./server_log.ts";

/** What {@linkcode registerFixtures} needs. */
export interface FixtureContext {
  readonly log: ServerLogRecorder;
  /** The suite HTML as `buildSuiteHtml()` makes it (with an empty config element), or any app page. */
  readonly appHtml: () => string | Promise<string>;
  readonly controls: ControlOrigins;
  /** Which listener this is: the main server or the second one (cross-server checks). */
  readonly server: "main" | "second";
  /** The second server's log, when one runs in this process (reported by the log tool as `secondServer`). */
  readonly secondServerLog?: ServerLogRecorder;
}

const LAUNCH_INPUT = z.object({ marker: z.string().optional(), filter: z.string().optional() });
const ECHO_INPUT = z.object({ payload: z.string().optional() });
const LOG_INPUT = z.object({ marker: z.string().optional() });

/** Registers every fixture of `context.server` on one per-request server. */
export function registerFixtures(server: McpServer, context: FixtureContext): void {
  for (const tool of FIXTURE_TOOLS) {
    if (tool.server !== context.server) continue;
    registerTool(server, tool, context);
    if (tool.kind === "launch") registerLauncherResource(server, tool.name as LauncherName, context);
  }
}

function registerTool(server: McpServer, tool: FixtureTool, context: FixtureContext): void {
  const ui = {
    ...(tool.resourceUri ? { resourceUri: tool.resourceUri } : {}),
    ...(tool.visibility ? { visibility: tool.visibility } : {}),
  };
  const meta = { ui };
  switch (tool.kind) {
    case "launch":
      registerAppTool(
        server,
        tool.name,
        { description: tool.description, inputSchema: LAUNCH_INPUT, _meta: meta },
        ({ marker }) => launchResult(tool.name as LauncherName, marker ?? null, context.controls),
      );
      return;
    case "echo": {
      const echo = ({ payload }: { payload?: string | undefined }) => ({
        content: [{ type: "text" as const, text: `${tool.name}: ${payload ?? ""}` }],
        structuredContent: { payload: payload ?? null },
      });
      if (tool.visibility === undefined) {
        server.registerTool(tool.name, { description: tool.description, inputSchema: ECHO_INPUT }, echo);
      } else {
        registerAppTool(server, tool.name, {
          description: tool.description,
          inputSchema: ECHO_INPUT,
          _meta: meta,
        }, echo);
      }
      return;
    }
    case "error":
      registerAppTool(
        server,
        tool.name,
        { description: tool.description, inputSchema: ECHO_INPUT, _meta: meta },
        ({ payload }) => ({
          content: [{ type: "text" as const, text: `${tool.name} failed on purpose` }],
          structuredContent: { payload: payload ?? null },
          isError: true,
        }),
      );
      return;
    case "server-log":
      registerAppTool(
        server,
        tool.name,
        { description: tool.description, inputSchema: LOG_INPUT, _meta: meta },
        ({ marker }) => {
          if (marker !== undefined) context.log.recordMarker(marker);
          const second = context.secondServerLog?.snapshot();
          const answer = {
            ...context.log.snapshot(),
            secondServer: second === undefined ? null : secondServerLogOf(second),
          };
          return {
            content: [{ type: "text" as const, text: JSON.stringify(answer) }],
            structuredContent: answer,
          };
        },
      );
      return;
  }
}

function registerLauncherResource(server: McpServer, launcher: LauncherName, context: FixtureContext): void {
  const uri = RESOURCE_URIS[launcher];
  const { listing, content } = resourceMeta(launcher, context.controls);
  registerAppResource(
    server,
    launcher,
    uri,
    {
      description: `The conformance suite, rendered by ${launcher}.`,
      ...(listing ? { _meta: { ui: listing } } : {}),
    },
    async () => ({
      contents: [{
        uri,
        mimeType: APP_MIME_TYPE,
        text: withConfigIfPresent(await context.appHtml(), {
          launcher,
          resourceUri: uri,
          controls: context.controls,
        }),
        ...(content ? { _meta: { ui: content } } : {}),
      }],
    }),
  );
}

/** Fills the suite's config element; an app page without one (a test page) is served unchanged. */
function withConfigIfPresent(html: string, config: Parameters<typeof withSuiteConfig>[1]): string {
  try {
    return withSuiteConfig(html, config);
  } catch (error) {
    if (error instanceof TypeError) return html;
    throw error;
  }
}
