/**
 * Starting a Chromium-family app with `--remote-debugging-port=0` in its own process group and reading the
 * DevTools port it picked from `DevToolsActivePort` in its profile folder. Real product hosts use it for a
 * headful browser on a persistent profile (which keeps Playwright's automation switches out of the product's
 * sight); tests use it to stand in for a desktop app the user started with `--remote-debugging-port`.
 *
 * @module
 */
import { groupAlive, signalGroup, trackGroup } from "../exec/process_group.ts";
import { runTagEnv } from "../exec/run_tag.ts";
import { chromiumPath, waitGroupGone } from "./chromium.ts";

/** How to start the app. */
export interface CdpProcessOptions {
  /** The binary; `$CONFORMANCE_CHROMIUM` or the system Chromium when absent. */
  readonly executable?: string;
  /** The profile folder (`--user-data-dir`); a temporary one, removed on close, when absent. */
  readonly userDataDir?: string;
  readonly headless: boolean;
  /** URLs the first window opens. */
  readonly urls?: readonly string[];
  /** Extra flags. */
  readonly args?: readonly string[];
  /** How long to wait for the DevTools port. */
  readonly startTimeoutMs?: number;
  /** The run's abort: once aborted, a close gives the app `ABORT_KILL_GRACE_MS` after SIGTERM, not 10 s. */
  readonly signal?: AbortSignal;
}

/** A running app with a DevTools endpoint; disposing it ends its process group. */
export interface CdpProcess extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, for `chromium.connectOverCDP`. */
  readonly endpoint: string;
  /** The app's pid, which is also its process group id. */
  readonly pid: number;
  readonly userDataDir: string;
  /** Ends the process group (SIGTERM, then SIGKILL after a grace period) and waits until it is gone. */
  close(): Promise<void>;
}

/**
 * Flags for a browser nobody watches over: no GPU, no background traffic, no crash reporter, HTTP left as HTTP.
 * `--no-sandbox` only as root, where Chromium refuses to start without it. (`--disable-crashpad-for-testing`
 * is left out: with it, Chromium 156 aborts every navigation of a CDP-attached page with net::ERR_ABORTED.)
 */
export function quietBrowserArgs(): string[] {
  const root = Deno.uid() === 0;
  return [
    "--disable-breakpad",
    ...(root ? ["--no-sandbox"] : []),
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    // Chromium 156 upgrades (and then aborts) plain-HTTP navigations, loopback included, without this.
    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable",
  ];
}

/**
 * Starts the app detached (pid == pgid) with stdin, stdout and stderr closed, and waits for its DevTools port.
 *
 * @example
 * ```ts ignore
 * await using app = await startCdpProcess({ headless: true, urls: ["http://127.0.0.1:8000/"] });
 * const browser = await chromium.connectOverCDP(app.endpoint);
 * ```
 */
export async function startCdpProcess(options: CdpProcessOptions): Promise<CdpProcess> {
  const executable = options.executable ?? chromiumPath();
  if (executable === null) {
    throw new Error(
      'No Chromium found: install Debian\'s "chromium" or set CONFORMANCE_CHROMIUM to a Chromium binary',
    );
  }
  const temporary = options.userDataDir === undefined;
  const userDataDir = options.userDataDir ?? await Deno.makeTempDir({ prefix: "conformance-cdp-" });
  const portFile = `${userDataDir}/DevToolsActivePort`;
  // A profile outside temp is read-only to the harness, so a stale port file is told apart by its age.
  const since = Date.now() - 1_000;
  const args = [
    ...quietBrowserArgs(),
    `--user-data-dir=${userDataDir}`,
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    ...(options.headless ? ["--headless"] : []),
    ...(options.args ?? []),
    ...(options.urls ?? ["about:blank"]),
  ];
  const child = new Deno.Command(executable, {
    args,
    // Over the inherited environment: the run's tag, by which the reaper finds the app's processes.
    env: runTagEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const pid = child.pid;
  // No Playwright launch here, so no Playwright signal handlers; a second Ctrl-C finds the group in the registry.
  const untrack = trackGroup(pid);
  let exited = false;
  const status = child.status.then((value) => {
    exited = true;
    return value;
  });
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      // Through the kill binary where Deno.kill is refused (the harness's permission set).
      if (await groupAlive(pid)) signalGroup(pid, "SIGTERM");
      await waitGroupGone(pid, 10_000, options.signal);
      await status;
      untrack();
      if (temporary) await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
    })();
    return closed;
  };
  try {
    const port = await readDevToolsPort(portFile, {
      timeoutMs: options.startTimeoutMs ?? 30_000,
      exited: () => exited,
      since,
    });
    const endpoint = `http://127.0.0.1:${port}`;
    return { endpoint, pid, userDataDir, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    const code = exited ? ` (it exited with code ${(await status).code})` : "";
    throw new Error(`"${executable}" did not open a DevTools port${code}: ${messageOf(error)}`);
  }
}

/** Polls `DevToolsActivePort` (first line: the port) until this start wrote it. */
async function readDevToolsPort(
  path: string,
  options: { timeoutMs: number; exited: () => boolean; since: number },
): Promise<number> {
  const deadline = Date.now() + options.timeoutMs;
  while (true) {
    const fresh = await Deno.stat(path).then(
      (info) => (info.mtime?.getTime() ?? 0) >= options.since,
      () => false,
    );
    const text = fresh ? await Deno.readTextFile(path).catch(() => "") : "";
    const port = Number(text.split("\n")[0]);
    if (Number.isInteger(port) && port > 0) return port;
    if (options.exited()) throw new Error("the process ended first");
    if (Date.now() > deadline) throw new Error(`no ${path} within ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
