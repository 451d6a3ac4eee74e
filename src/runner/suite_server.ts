/**
 * Another conformance MCP server's suite (`conformance run --suite-server URL`, or a YAML host's
 * `server: { url }`): before the run, the harness connects to the server as an MCP client, reads its name
 * and its `run_conformance` launcher's app resource, and renders that View on a bare page to ask its suite
 * for the tests it lists (`listTests`, the upstream channel). Those tests are then planned, filtered,
 * expected and reported like the catalogue's, under ids namespaced by the server's name:
 * `<server>/<id>` (see {@linkcode suiteServerTestId}), never `apps/…`, so they cannot mix with ours.
 *
 * What cannot be used (a malformed or unreachable URL, an endpoint that does not speak MCP, a server without
 * the launcher, a View that lists no suite) stops the run before any host starts, in one line.
 *
 * @module
 */
import { EXIT, UsageError } from "../errors.ts";
import type { LauncherName, TestMeta } from "../protocol.ts";
import { untilAborted } from "./abort.ts";
import { launchChromium } from "./chromium.ts";

/** The launcher whose View holds another server's suite (the same name as ours: upstream's). */
export const SUITE_SERVER_LAUNCHER: LauncherName = "run_conformance";

/** Another server's suite, as the run plans it. */
export interface SuiteServer {
  /** The MCP endpoint the host is pointed at, e.g. `http://127.0.0.1:6290/mcp`. */
  readonly url: string;
  /** The namespace of its test ids: the server's `initialize` name, made id-safe. */
  readonly namespace: string;
  /** The tests its View lists, in its order, with its own ids. */
  readonly tests: readonly TestMeta[];
}

/** The first segments of our own test ids, which another suite's namespace must not take. */
const RESERVED = new Set(["apps", "cli"]);

/**
 * The namespace of a server called `name` (its `initialize` `serverInfo.name`): lower case, each run of
 * characters other than letters, digits, `.`, `_` and `-` one `-`. A name that comes out empty, or as one of
 * our own families (`apps`, `cli`), gets a `suite-` prefix.
 *
 * @example
 * ```ts
 * import { suiteNamespace } from "./suite_server.ts";
 * suiteNamespace("Upstream Shaped"); // "upstream-shaped"
 * suiteNamespace("apps"); // "suite-apps"
 * ```
 */
export function suiteNamespace(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");
  if (slug === "") return "suite-server";
  return RESERVED.has(slug) ? `suite-${slug}` : slug;
}

/**
 * The run's id of test `id` of the suite in `namespace`: `<namespace>/<id>`. Its tier (the second segment) is
 * the first segment of the suite's own id.
 *
 * @example
 * ```ts
 * import { suiteServerTestId } from "./suite_server.ts";
 * suiteServerTestId("upstream-shaped", "upstream/read-console"); // "upstream-shaped/upstream/read-console"
 * ```
 */
export function suiteServerTestId(namespace: string, id: string): string {
  return `${namespace}/${id}`;
}

/** Checks `value` is an http(s) URL; the flag or field it came from names it in the message. */
export function parseSuiteServerUrl(value: string, what = "--suite-server"): string {
  if (!URL.canParse(value)) {
    throw new UsageError(
      `${what} "${value}" is not a URL: give the MCP endpoint, e.g. http://127.0.0.1:6290/mcp`,
    );
  }
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${what} "${value}" is not an http(s) URL`);
  }
  return url.href;
}

/** How long the server may take to answer, and the View to list its tests, unscaled. */
const PROBE_MS = 10_000;

/** A Ctrl-C or SIGTERM while the suite was being listed: the browser is gone, the run ends with 130 or 143. */
class ListingInterrupted extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, url: string) {
    super(`interrupted while listing the suite of ${url}`);
    this.name = "ListingInterrupted";
    this.exitCode = exitCode;
  }
}

/**
 * Connects to the server at `url`, reads its name and its launcher's View, and lists the View's tests.
 * Every way this can fail is a {@linkcode UsageError} of one line naming the URL.
 */
export async function loadSuiteServer(
  url: string,
  options: { readonly timeoutMultiplier?: number; readonly what?: string } = {},
): Promise<SuiteServer> {
  const what = options.what ?? "--suite-server";
  const budget = PROBE_MS * (options.timeoutMultiplier ?? 1);
  // The run's own signal handlers are not installed yet: a signal now stops the listing (its browser closed,
  // its process group gone) rather than ending the process with the browser left behind.
  const abort = new AbortController();
  let interrupted: number | null = null;
  const handlers = ([["SIGINT", EXIT.interrupted], ["SIGTERM", EXIT.terminated]] as const).map(
    ([signal, code]) => {
      const handler = () => {
        interrupted ??= code;
        abort.abort();
      };
      Deno.addSignalListener(signal, handler);
      return [signal, handler] as const;
    },
  );
  let listed: { name: string; tests: TestMeta[] };
  try {
    const { name, html } = await readServer(url, what, budget, abort.signal);
    const tests = await listViewTests(html, budget, abort.signal).catch((error: unknown) => {
      if (abort.signal.aborted) throw error;
      throw new UsageError(`${what} ${url}: its ${SUITE_SERVER_LAUNCHER} View ${messageOf(error)}`);
    });
    listed = { name, tests };
  } catch (error) {
    if (interrupted !== null) throw new ListingInterrupted(interrupted, url);
    throw error;
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
  if (interrupted !== null) throw new ListingInterrupted(interrupted, url);
  const { name, tests } = listed;
  if (tests.length === 0) throw new UsageError(`${what} ${url}: its suite lists no tests`);
  const ids = new Set<string>();
  for (const test of tests) {
    if (ids.has(test.id)) throw new UsageError(`${what} ${url}: its suite lists "${test.id}" twice`);
    ids.add(test.id);
  }
  return { url, namespace: suiteNamespace(name), tests };
}

/** The server's `initialize` name and the text of its launcher's `ui://` resource. */
async function readServer(
  url: string,
  what: string,
  budget: number,
  signal: AbortSignal,
): Promise<{ name: string; html: string }> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const client = new Client({ name: "conformance-suite-server-probe", version: "1.0.0" });
  const deadline = AbortSignal.any([AbortSignal.timeout(budget), signal]);
  const within = <T>(promise: Promise<T>): Promise<T> =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        deadline.addEventListener("abort", () => reject(new Error(`no answer within ${budget / 1000} s`)))
      ),
    ]);
  try {
    try {
      await within(client.connect(new StreamableHTTPClientTransport(new URL(url))));
    } catch (error) {
      throw new UsageError(`${what} ${url} did not answer as an MCP server: ${firstLine(error)}`);
    }
    const name = client.getServerVersion()?.name ?? "";
    let tools;
    try {
      tools = (await within(client.listTools())).tools;
    } catch (error) {
      throw new UsageError(`${what} ${url}: tools/list failed: ${firstLine(error)}`);
    }
    const launcher = tools.find((tool) => tool.name === SUITE_SERVER_LAUNCHER);
    const uri = launcher ? resourceUriOf(launcher._meta) : null;
    if (uri === null) {
      throw new UsageError(
        `${what} ${url} is not a conformance MCP server: it has no ${SUITE_SERVER_LAUNCHER} tool with a ui:// resource`,
      );
    }
    let read;
    try {
      read = await within(client.readResource({ uri }));
    } catch (error) {
      throw new UsageError(`${what} ${url}: resources/read ${uri} failed: ${firstLine(error)}`);
    }
    const content = read.contents[0] as { text?: unknown } | undefined;
    if (typeof content?.text !== "string") throw new UsageError(`${what} ${url}: ${uri} has no HTML text`);
    return { name, html: content.text };
  } finally {
    await client.close().catch(() => {});
  }
}

/** The `ui://` resource of a tool's `_meta` (`ui.resourceUri`, or the flat `ui/resourceUri`), or `null`. */
function resourceUriOf(meta: Record<string, unknown> | undefined): string | null {
  const nested = (meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  const flat = meta?.["ui/resourceUri"];
  const uri = typeof nested === "string" ? nested : typeof flat === "string" ? flat : null;
  return uri !== null && uri.startsWith("ui://") ? uri : null;
}

/**
 * Loads the View's HTML as a bare page in a headless Chromium of its own (its own process group, gone when
 * this returns) and reads `__mcpConformance.listTests()`. The page has no host: a View that waits for its
 * host before it lists its tests is not supported.
 */
async function listViewTests(html: string, budget: number, signal: AbortSignal): Promise<TestMeta[]> {
  await using launched = await launchChromium({ headful: false, signal });
  // Each wait ends at the abort; the browser is closed (by `await using`) before the error leaves.
  const stopped = () => new Error("listing interrupted");
  const page = await untilAborted(launched.browser.newPage(), signal, stopped);
  await untilAborted(page.setContent(html, { waitUntil: "load", timeout: budget }), signal, stopped);
  try {
    await untilAborted(
      page.waitForFunction(
        () =>
          typeof (globalThis as { __mcpConformance?: { listTests?: unknown } }).__mcpConformance
            ?.listTests ===
            "function",
        null,
        { timeout: budget },
      ),
      signal,
      stopped,
    );
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error("exposes no suite (no __mcpConformance.listTests)");
  }
  const listed = await untilAborted(
    page.evaluate(() =>
      (globalThis as unknown as { __mcpConformance: { listTests(): unknown } }).__mcpConformance.listTests()
    ),
    signal,
    stopped,
  );
  if (!Array.isArray(listed)) throw new Error("listTests() did not return an array");
  return listed.map((meta, index): TestMeta => {
    const record = meta as Record<string, unknown> | null;
    if (typeof record?.id !== "string" || record.id === "") {
      throw new Error(`listed test ${index + 1} has no id`);
    }
    return {
      ...(record as unknown as TestMeta),
      name: typeof record.name === "string" ? record.name : record.id,
      manual: record.manual === true,
    };
  });
}

function firstLine(error: unknown): string {
  return messageOf(error).split("\n")[0]!.trim();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
