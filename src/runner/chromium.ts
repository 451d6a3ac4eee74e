/**
 * Launching the browser for Playwright-driven hosts: Debian's Chromium (or `$CONFORMANCE_CHROMIUM`) in its own
 * process group, with a close that proves the whole group is gone.
 *
 * @module
 */
import type { Browser } from "playwright-core";
import { loadPlaywright } from "./playwright.ts";
// Through the kill binary where Deno.kill is refused (the harness's permission set, src/permissions.ts).
import {
  ABORT_KILL_GRACE_MS,
  groupAlive,
  signalGroup,
  trackGroup,
  trackLaunch,
  waitGroupGone as waitUntilGone,
} from "../exec/process_group.ts";
import { readEnv, RUN_ID_ENV } from "../exec/env.ts";
import { settleWithin, untilAborted } from "./abort.ts";
import { pollUntil } from "../time.ts";
import { runTagEnv } from "../exec/run_tag.ts";
import { holdForTest } from "../exec/test_hold.ts";

/**
 * The flags every launch uses: no sandbox (root in containers), no GPU, no background traffic. Debian's
 * Chromium still starts two `chrome_crashpad_handler` daemons in groups of their own (with
 * `--disable-breakpad` or `--disable-crash-reporter` too; `--disable-crashpad-for-testing` starts none but
 * aborts every navigation): they carry the launch's private config folder on their command line, which is how
 * the close, the abort and the reaper find them (tests/runner/chromium_launch_test.ts).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * What the browser is handed of the harness's environment: where to find libraries and fonts, the display for
 * a headful sign-in, locale and temp, and the run id that tags every process of a run.
 */
export const BROWSER_ENV: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "LANG",
  "LC_*",
  "TZ",
  "TMPDIR",
  RUN_ID_ENV,
];

/** Launch options that leave SIGINT, SIGTERM and SIGHUP to the harness: pass them to every Playwright launch. */
export const PLAYWRIGHT_SIGNALS_OFF = {
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
} as const;

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The browser binary: `$CONFORMANCE_CHROMIUM`, else the first system Chromium found, else `null`. */
export function chromiumPath(): string | null {
  const named = Deno.env.get("CONFORMANCE_CHROMIUM");
  if (named) return named;
  for (const candidate of CANDIDATES) {
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // Not installed here; try the next one.
    }
  }
  return null;
}

/** A running browser; disposing it closes it and waits until every process it started is gone. */
export interface LaunchedBrowser extends AsyncDisposable {
  readonly browser: Browser;
  /** The browser's pid, which is also its process group id. */
  readonly pid: number;
  /** Pids of this browser's processes still alive: its group, plus the crashpad daemons that left it. */
  survivors(): Promise<number[]>;
  close(): Promise<void>;
}

/** How to launch. */
export interface LaunchOptions {
  readonly headful?: boolean;
  /** Extra flags after {@linkcode CHROMIUM_ARGS}. */
  readonly args?: readonly string[];
  /**
   * The run's abort: a launch in progress stops at once (the browser, found by {@linkcode LAUNCH_MARKER} on
   * its command line, is killed), and a close after it skips the graceful part.
   */
  readonly signal?: AbortSignal;
}

/**
 * A switch Chromium ignores, carrying the launch's private config folder: it finds the browser of a launch
 * that the run's abort cut short, before Playwright has told its pid.
 */
export const LAUNCH_MARKER = "--conformance-launch";

/** The folder of `--user-data-dir=FOLDER` among a browser's arguments, or null. */
export function profileDirOf(args: readonly string[]): string | null {
  for (const arg of args) {
    const match = /^--user-data-dir=(.+)$/.exec(arg);
    if (match) return match[1]!;
  }
  return null;
}

/** The longest a graceful `browser.close()` may take before the group is killed anyway. */
const GRACEFUL_CLOSE_MS = 5_000;

/**
 * Launches Chromium in its own process group (Playwright spawns it detached) and connects to it.
 *
 * @example
 * ```ts ignore
 * await using launched = await launchChromium({ headful: false });
 * const page = await launched.browser.newPage();
 * ```
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const executablePath = chromiumPath();
  if (executablePath === null) {
    throw new Error(
      'No Chromium found: install Debian\'s "chromium" or set CONFORMANCE_CHROMIUM to a Chromium binary',
    );
  }
  const { chromium } = await loadPlaywright();
  // An abort while Playwright loaded: start no browser at all.
  if (options.signal?.aborted) throw new Error("The Chromium launch was stopped: the run was aborted");
  // Chromium's crashpad handlers daemonize out of the browser's process group; a private config dir puts a
  // unique path on their command line, so they can be found and waited for.
  const configDir = await Deno.makeTempDir({ prefix: "conformance-chromium-" });
  const { signal } = options;
  const marker = `${LAUNCH_MARKER}=${configDir}`;
  // Until the close has seen every process gone: a harness killed outright while Playwright is still starting
  // the browser (its pid not yet told, so its group not yet tracked), or with the crashpad daemons outside the
  // group, leaves its reaper the folder to find them all by.
  const forgetLaunch = trackLaunch(configDir);
  // Playwright's artifacts (downloads, traces in progress) go inside the launch's folder rather than a
  // `playwright-artifacts-*` folder of its own in the temp folder: the reaper removes the launch's folder, and
  // a harness SIGKILLed mid-run left the other behind.
  const artifactsDir = `${configDir}/artifacts`;
  await Deno.mkdir(artifactsDir);
  const launching = chromium.launchServer({
    executablePath,
    headless: !options.headful,
    args: [...CHROMIUM_ARGS, ...(options.args ?? []), marker],
    // An explicit environment, so Playwright does not list the harness's (refused under its env permission).
    // The run's tag: the reaper finds every process of the browser by it (src/exec/run_tag.ts).
    env: { ...readEnv(BROWSER_ENV), XDG_CONFIG_HOME: configDir, ...runTagEnv() },
    // Accepted by launchServer's validator, absent from its declared options.
    ...{ artifactsDir },
    host: "127.0.0.1",
    // The harness alone handles signals: Playwright's handlers would exit with 130 before the reports are
    // written. The run's abort closes the browser through the hosts' teardown, a second Ctrl-C kills its group.
    ...PLAYWRIGHT_SIGNALS_OFF,
  });
  const server = await untilAborted(
    launching,
    signal,
    () => new Error("The Chromium launch was stopped: the run was aborted"),
  ).catch(async (error) => {
    const cleanUp = async () => {
      forgetLaunch();
      await Deno.remove(configDir, { recursive: true }).catch(() => {});
    };
    if (!signal?.aborted) {
      await cleanUp();
      throw error;
    }
    // The browser may be starting: kill it by its marker now, and by its server and marker once the launch
    // settles. Until then the reaper keeps the marker: a supervisor's SIGKILL that follows the abort (before
    // Playwright has even spawned the browser) must still leave it something to find the browser by.
    const settled = launching.then((started) => started.kill()).catch(() => {});
    void settled.then(() => killLaunch(configDir)).catch(() => {}).then(cleanUp);
    await killLaunch(configDir);
    throw error;
  });
  const pid = server.process().pid ?? -1;
  holdForTest("browser-launched", executablePath);
  const untrack = pid > 1 ? trackGroup(pid) : () => false;
  // Playwright's own profile folder, on the browser's command line: the reaper removes it (and ends whatever
  // names it) if the harness dies before Playwright has.
  const profile = profileDirOf(server.process().spawnargs ?? []);
  const forgetProfile = profile === null ? () => false : trackLaunch(profile);
  const survivors = () => leftovers(pid, configDir);
  const removeConfig = async () => {
    await Deno.remove(configDir, { recursive: true }).catch(() => {});
    forgetLaunch();
  };
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      // After an abort nothing waits for a graceful close; otherwise it is capped, and an abort cuts it short.
      if (!signal?.aborted && browser !== null) {
        await settleWithin(browser.close(), signal, 0, GRACEFUL_CLOSE_MS);
      }
      // The profile is a throwaway and traces are saved before this point, so nothing needs a graceful exit:
      // the whole group goes at once (a graceful close took 0.5-1.3 s under load), and Playwright, seeing the
      // exit, removes its temporary folders meanwhile.
      if (pid > 0) {
        try {
          signalGroup(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      // Playwright's kill resolves once it has removed its profile: only then is the folder forgotten.
      const cleanedUp = server.kill().then(() => void forgetProfile(), () => {});
      if (signal?.aborted) {
        // Interrupted, only the processes are waited for. The folders are removed meanwhile; any the harness
        // exits before removing, its reaper removes (they stay listed until removed).
        await waitGone(survivors, 0);
        untrack();
        void removeConfig();
        return;
      }
      await Promise.all([settleWithin(cleanedUp, signal, ABORT_KILL_GRACE_MS), waitGone(survivors, 10_000)]);
      untrack();
      await removeConfig();
    })();
    return closed;
  };
  let browser: Browser | null = null;
  try {
    if (pid < 0) {
      throw new Error(`Chromium at "${executablePath}" did not start: check that it runs headless`);
    }
    browser = await untilAborted(
      chromium.connect(server.wsEndpoint()),
      signal,
      () => new Error("The Chromium launch was stopped: the run was aborted"),
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { browser, pid, survivors, close, [Symbol.asyncDispose]: close };
}

/**
 * The live (not zombie) processes of group `pgid` and those whose command line contains `marker` (the crashpad
 * daemons that left the group, and a browser whose launch was cut short, with its whole group), from one `ps`
 * listing (/proc needs --allow-all).
 */
async function leftovers(pgid: number, marker: string): Promise<number[]> {
  // Detached, like every helper the harness runs: a Ctrl-C to the harness's group must not end the probe.
  const output = await new Deno.Command("ps", {
    args: ["-A", "-o", "pid=,pgid=,stat=,args="],
    stdin: "null",
    stderr: "null",
    detached: true,
  }).output().catch(() => null);
  if (output === null || !output.success) return await groupAlive(pgid) ? [pgid] : [];
  const rows = new TextDecoder().decode(output.stdout).split("\n").flatMap((line) => {
    const [pid, group, state = "", ...args] = line.trim().split(/\s+/);
    const id = Number(pid);
    if (!Number.isInteger(id) || id <= 1 || id === Deno.pid || /^[ZX]/.test(state)) return [];
    return [{ id, group: Number(group), marked: args.join(" ").includes(marker) }];
  });
  // A marked group leader is a browser (its LAUNCH_MARKER): its zygotes and renderers go with it.
  const groups = new Set([
    pgid,
    ...rows.filter((row) => row.marked && row.id === row.group).map((row) => row.id),
  ]);
  return rows.filter((row) => row.marked || (row.group > 1 && groups.has(row.group))).map((row) => row.id);
}

/**
 * Kills the browser of a launch the run's abort cut short, found by `marker` on its command line: each marked
 * group leader with its whole group at once (a kill by pid could miss a zygote forked meanwhile), then what is
 * left after `ABORT_KILL_GRACE_MS` one by one.
 */
async function killLaunch(marker: string): Promise<void> {
  const groups = (await leftovers(-1, marker)).filter((pid) => signalGroup(pid, "SIGKILL"));
  const left =
    async () => [...new Set((await Promise.all(groups.map((pgid) => leftovers(pgid, marker)))).flat())];
  await waitGone(groups.length > 0 ? left : () => leftovers(-1, marker), ABORT_KILL_GRACE_MS);
}

/**
 * Polls `find` until it finds nothing; after `graceMs`, kills what is left with SIGKILL and waits up to
 * {@linkcode DYING_MS} more for it to go: a SIGKILLed Chromium process stays listed (running) while the kernel
 * tears down its memory, which under load took long enough for a check right after the run to count it
 * (fresh-clone CI of 2026-12-05, two zygotes of an interrupted run).
 */
export async function waitGone(find: () => Promise<number[]>, graceMs: number): Promise<void> {
  let left: number[] = [];
  const gone = async () => (left = await find()).length === 0;
  if (await pollUntil(gone, { timeoutMs: graceMs, intervalMs: 50 })) return;
  // Through the kill binary: Deno.kill needs unrestricted run access, which the harness does not have.
  for (const pid of left) {
    await new Deno.Command("kill", {
      args: ["-s", "KILL", "--", String(pid)],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    })
      .output();
  }
  await pollUntil(gone, { timeoutMs: DYING_MS, intervalMs: 50 });
}

/** Against a hang only: how long SIGKILLed browser processes may take to leave the process table. */
const DYING_MS = 5_000;

/**
 * Waits until group `pgid` is gone (a zombie counts as gone, see `src/exec/process_group.ts`); after
 * `graceMs` (cut to `ABORT_KILL_GRACE_MS` once `signal` aborts), kills what is left with SIGKILL and waits up
 * to 5 s more.
 */
export async function waitGroupGone(pgid: number, graceMs: number, signal?: AbortSignal): Promise<void> {
  if (await waitUntilGone(pgid, graceMs, signal)) return;
  if (!signalGroup(pgid, "SIGKILL")) return;
  await waitUntilGone(pgid, 5_000);
}
