/**
 * Tool data delivery and proxying: the View's server calls and reads through the host, and
 * what the server saw of the host (server vantage).
 *
 * @module
 */
import {
  APP_MIME_TYPE,
  type ServerLog,
  SUITE_CONFIG_ELEMENT_ID,
  UI_EXTENSION_ID,
} from "../../../src/fixtures.ts";
import type { SuiteEnv } from "../harness/env.ts";
import { suiteDeadline } from "../harness/timing.ts";
import type { TestContext } from "../harness/test_api.ts";
import { controls, controlUrl, requireCapability, type SuiteTest, textOf, tryCall } from "./_shared.ts";
import { probeFetch, withEvidence } from "../harness/csp_probe.ts";

async function serverLog(t: TestContext, env: SuiteEnv, marker?: string) {
  try {
    return await env.serverLog(marker);
  } catch (error) {
    return t.skip(
      `The server log is unreachable through the host (conformance_server_log): ${String(error)}`,
    );
  }
}

/**
 * How long before its launcher call a host's `resources/read` may reach the server and still be the read of
 * that render. Hosts send the read beside the call (the reference host sends both at once), so at load the
 * server can receive the read first; a cached copy is older than this or was read in an earlier session.
 */
export const READ_LEAD_MS = 5_000;

/** What the server log says of one render's `resources/read`s ({@linkcode readsOfRender}). */
export interface RenderReads {
  /** When the launcher call that started the render reached the server. */
  readonly launcherCallAt: number;
  /** Reads of the resource that belong to this render (the View's own reads included). */
  readonly count: number;
  /** The latest read before the render's window, when there is one. */
  readonly nearestEarlier: number | undefined;
  /** What closed the window before the launcher call, when it was not {@linkcode READ_LEAD_MS}. */
  readonly boundary: string | undefined;
}

/**
 * The reads of `uri` that belong to the render tagged `renderTag`: those after its launcher call, and those up
 * to {@linkcode READ_LEAD_MS} before it when neither an earlier launcher call nor a new session (`initialize`,
 * `server/discover`) came between. A read from before (connector setup, an earlier render on the same server)
 * is a cached copy rendered now. `undefined` when the log has no launcher call before the render's first call.
 */
export function readsOfRender(
  log: ServerLog,
  launcher: string,
  renderTag: string,
  uri: string,
): RenderReads | undefined {
  const ofThisRender = log.toolCalls.filter((call) => JSON.stringify(call.arguments).includes(renderTag));
  const firstSeen = Math.min(...ofThisRender.map((call) => call.at));
  const launches = log.toolCalls.filter((call) => call.name === launcher && call.at <= firstSeen);
  const started = launches.at(-1);
  if (started === undefined) return undefined;
  let from = started.at - READ_LEAD_MS;
  let boundary: string | undefined;
  const earlierLaunch = launches.at(-2);
  if (earlierLaunch !== undefined && earlierLaunch.at >= from) {
    from = Math.min(earlierLaunch.at + 1, started.at);
    boundary = `an earlier ${launcher} call`;
  }
  const session = (log.methods ?? []).filter((entry) =>
    (entry.method === "initialize" || entry.method === "server/discover") && entry.at <= started.at
  ).at(-1);
  if (session !== undefined && session.at > from) {
    from = session.at;
    boundary = `a new session (${session.method})`;
  }
  const reads = log.resourcesRead.filter((read) => read.uri === uri);
  return {
    launcherCallAt: started.at,
    count: reads.filter((read) => read.at >= from).length,
    nearestEarlier: reads.filter((read) => read.at < from).at(-1)?.at,
    boundary,
  };
}

/** The proxying tests. */
export const TOOLS: SuiteTest[] = [
  {
    id: "tools/proxy-call",
    name: "The View's tools/call reaches the server and returns its result",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "serverTools");
      const payload = env.nonce("probe");
      const call = await tryCall(env, "conformance_probe", { payload });
      t.assert(
        !call.rejected,
        `conformance_probe failed (${call.how}): ${call.error ?? textOf(call.result)}`,
      );
      const structured = call.result?.structuredContent as Record<string, unknown> | undefined;
      t.assert(
        structured?.payload === payload || textOf(call.result).includes(payload),
        "conformance_probe did not echo its payload",
        call.result,
      );
    },
  },
  {
    id: "tools/proxy-error-passthrough",
    name: "An isError result comes back as a result, not as a JSON-RPC error",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "serverTools");
      const payload = env.nonce("error");
      const call = await tryCall(env, "error_probe", { payload });
      if (call.how === "threw") {
        // Positive control: a call the server never saw was refused by the host, which is not this test's
        // question (see tools/proxy-call); only a call the server answered can have had its isError lost.
        const seen = await env.serverLog().then(
          (log) =>
            log.toolCalls.some((c) =>
              c.name === "error_probe" && JSON.stringify(c.arguments).includes(payload)
            ),
          () => undefined,
        );
        t.assert(
          seen !== false,
          `Not testable: the host refused the call before the server saw it: ${call.error}`,
        );
        t.fail(
          `The isError result became a thrown error: ${call.error}` +
            (seen === undefined
              ? " (the server log is out of reach, so whether the server answered is unknown)"
              : ""),
        );
      }
      t.assert(call.how === "isError", "The error_probe result lost isError: true", call.result);
    },
  },
  {
    id: "resources/read-referenced",
    name: "The host fetched the ui:// resource with resources/read",
    clause: "MUST",
    vantage: "server",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { resourceUri: uri, launcher } = env.config();
      // The marker puts this render in the log on the server's clock, even when nothing else of it is there.
      const log = await serverLog(t, env, env.nonce("read-referenced"));
      const reads = readsOfRender(log, launcher, env.renderTag, uri);
      if (reads === undefined) {
        t.notTestable(`The server log has no tools/call ${launcher} before this render's first call`);
      }
      t.observe("launcherCallAt", reads.launcherCallAt);
      t.observe("readsForThisRender", reads.count);
      t.observe("ownReads", env.ownResourceReads);
      t.assert(
        reads.count > env.ownResourceReads,
        reads.nearestEarlier !== undefined
          ? `The host rendered ${uri} without reading it for this render: the server's nearest earlier read of ` +
            `it came ${reads.launcherCallAt - reads.nearestEarlier} ms before the ${launcher} call` +
            (reads.boundary ? ` (${reads.boundary} came between)` : "")
          : reads.count > 0
          ? `The host rendered ${uri} without reading it for this render: the ${reads.count} read(s) of it ` +
            `since the ${launcher} call are the View's own`
          : `The server never saw the host read ${uri}`,
      );
    },
  },
  {
    id: "resources/proxy-read",
    name: "The View can read its own ui:// resource through the host",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "serverResources");
      const uri = env.config().resourceUri;
      let read;
      try {
        read = await env.app.readServerResource({ uri }, { timeout: suiteDeadline(8_000) });
      } catch (error) {
        return t.fail(`resources/read of ${uri} failed: ${String(error)}`);
      }
      env.ownResourceReads++;
      const item = read.contents[0];
      t.assert(item, `resources/read of ${uri} returned no contents`);
      t.assertEqual(item.mimeType, APP_MIME_TYPE, "mimeType of the read resource");
      t.assert(
        "text" in item && item.text.includes(SUITE_CONFIG_ELEMENT_ID),
        "The read resource is not this suite",
      );
    },
  },
  {
    id: "capabilities/server-passthrough",
    name: "The View's resources/list is forwarded to the server",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "serverResources");
      let list;
      try {
        list = await env.app.listServerResources({}, { timeout: suiteDeadline(8_000) });
      } catch (error) {
        return t.fail(`resources/list failed: ${String(error)}`);
      }
      const uris = list.resources.map((resource) => resource.uri);
      t.assert(uris.includes(env.config().resourceUri), "resources/list lacks this render's resource", uris);
    },
  },
  {
    id: "capabilities/ui-extension-advertised",
    name: `initialize advertises extensions["${UI_EXTENSION_ID}"].mimeTypes with the MCP App profile`,
    clause: "REQUIRED",
    vantage: "server",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const log = await serverLog(t, env);
      const last = log.clientCapabilities.at(-1);
      t.assert(last, "The server saw no initialize");
      const extensions = last.extensions as Record<string, { mimeTypes?: unknown }> | undefined;
      const mimeTypes = extensions?.[UI_EXTENSION_ID]?.mimeTypes;
      t.assert(
        Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE),
        "The host's initialize does not advertise the MCP Apps extension",
        last,
      );
    },
  },
  {
    id: "resources/meta-precedence",
    name: "The content item's _meta.ui wins over the listing's",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    draft: true,
    launcher: "run_conformance_precedence",
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      // Here the content item declares the "undeclared" origin: it is this render's positive control.
      const fromContent = await withEvidence(
        env.violations,
        undeclared,
        () => probeFetch(controlUrl(undeclared, "ok.txt")),
      );
      const fromListing = await withEvidence(
        env.violations,
        declared,
        () => probeFetch(controlUrl(declared, "ok.txt")),
      );
      t.observe("contentItemOrigin", fromContent);
      t.observe("listingOrigin", fromListing);
      if (fromContent.verdict !== "allowed" && !fromContent.violation) {
        t.notTestable(
          `the content item's connect domain ${undeclared} is unreachable (a fetch failed with no CSP ` +
            "violation naming it), so the check has no positive control",
        );
      }
      t.assert(
        fromContent.verdict === "allowed",
        `The content item's connect domain was ${fromContent.verdict}`,
      );
      t.assert(
        fromListing.verdict === "blocked",
        `The listing-only connect domain was ${fromListing.verdict}, not blocked`,
      );
      if (!fromListing.violation) {
        t.notTestable(
          `the listing-only connect domain ${declared} failed with no CSP violation naming it, so the block ` +
            "may be the network's, not the policy's",
        );
      }
    },
  },
];
