/**
 * The `stale-resource-cache` variant's backend cache: a host that fetched the app's `ui://` resources once,
 * from an earlier process of the same MCP server (as when the connector was added), and renders from that copy
 * instead of calling `resources/read` at render time. The earlier process is a real conformance server that
 * lives only while the copy is taken, so the server the host talks to during the run never sees a read.
 *
 * @module
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type ControlOrigins, RESOURCE_URIS } from "../../../src/fixtures.ts";
import { startConformanceServer } from "../../../src/server/server.ts";

/** One cached resource: the first content item of its `resources/read`, `_meta` included. */
export type CachedResources = Record<string, unknown>;

/** What the earlier server process serves. */
export interface ResourceCacheOptions {
  readonly appHtml: () => string | Promise<string>;
  readonly controls: ControlOrigins;
}

/** Reads every launcher's resource from a short-lived server process, then stops it. */
export async function cacheResourcesFromEarlierServer(
  options: ResourceCacheOptions,
): Promise<CachedResources> {
  await using earlier = await startConformanceServer({
    appHtml: options.appHtml,
    controls: options.controls,
  });
  return await readEveryResource(earlier.url);
}

/**
 * Reads every launcher's resource from the server at `url`, as a host's backend does once when the connector
 * is added (`connect-time-resource-cache` reads the server of the run itself, before any render).
 */
export async function readEveryResource(url: URL): Promise<CachedResources> {
  const client = new Client({ name: "conformance-reference-host-cache", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const cache: CachedResources = {};
    for (const uri of Object.values(RESOURCE_URIS)) {
      const read = await client.readResource({ uri });
      cache[uri] = read.contents[0];
    }
    return cache;
  } finally {
    await client.close();
  }
}
