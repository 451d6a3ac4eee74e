/**
 * The MCP Apps suite driver: lists the in-iframe catalogue for an apps host and runs it with one browser and
 * one set of servers per host run. Each launcher's tests run in that launcher's render (the one that ends
 * with the teardown tests last); results are reported as `apps/<area>/<name>`. When the View is torn down,
 * the teardown tests are judged from the server log.
 *
 * A host pointed at another conformance MCP server (`entry.suiteServer`, from `--suite-server` or a YAML
 * `server: { url }`) renders that server's View instead, and the driver lists and reports the tests that
 * suite listed, as `<namespace>/<its id>` (src/runner/suite_server.ts); the server log is not ours to read
 * there, so no test is judged from it.
 *
 * @module
 */
import { judgeTeardown, TEARDOWN_TEST_IDS } from "../../src/fixtures.ts";
import type { AppsHostEntry, HostEntry } from "../../src/host.ts";
import type { Outcome } from "../../src/outcome.ts";
import {
  CAPABILITY_KINDS,
  type CapabilityRequest,
  type CapabilityResult,
  type LauncherName,
  outcomeStatusOf,
  runsUnder,
  runTestId,
  type SubtestResult,
  type TestMeta,
} from "../../src/protocol.ts";
import type { Host } from "../../src/runner/host.ts";
import { Runner, SuiteRunInterrupted } from "../../src/runner/runner.ts";
import { settleWithin, untilAborted } from "../../src/runner/abort.ts";
import { loadPlaywright } from "../../src/runner/playwright.ts";
import { APPS_DEADLINES } from "../../src/runner/deadlines.ts";
import type { ResultSink, RunSettings, SuiteDriver, TestCase } from "../../src/suite.ts";
import { suiteServerTestId } from "../../src/runner/suite_server.ts";
import { CATALOGUE } from "./catalogue/mod.ts";
import { inRunOrder } from "./harness/test_api.ts";

/** The main render: most tests, the host's capability requests, and the teardown tests last. */
const MAIN: LauncherName = "run_conformance";

/**
 * Launchers in render order: the main render last, because its last tests tear the View down. A host with
 * `launchAside` renders the others beside the main one, at the same time.
 */
const LAUNCH_ORDER: readonly LauncherName[] = [
  "run_conformance_precedence",
  "run_conformance_nocsp",
  MAIN,
];

/**
 * How long a host's teardown may take once the run is aborted (Ctrl-C, SIGTERM), unscaled: the browser and
 * every process go by SIGKILL then, so this is ample; what is still alive after it, the run kills.
 */
export const TEARDOWN_AFTER_ABORT_MS = 600;

/** The error a host call that the abort cut short rejects with. */
function abortedDuring(what: string): () => Error {
  return () => new Error(`The run was aborted during ${what}`);
}

/** Tears `host` down, waiting at most {@linkcode TEARDOWN_AFTER_ABORT_MS} once the run is aborted. */
async function teardownHost(host: Host, signal: AbortSignal): Promise<void> {
  await settleWithin(host.teardown(), signal, TEARDOWN_AFTER_ABORT_MS);
}

/** The catalogue's declarations, in run order. */
function catalogue(): TestMeta[] {
  return inRunOrder(CATALOGUE).map(({ id, name, vantage, manual, clause, caveat, launcher, draft }) => ({
    id,
    name,
    vantage,
    manual,
    ...(clause ? { clause } : {}),
    ...(caveat ? { caveat } : {}),
    ...(launcher ? { launcher } : {}),
    ...(draft ? { draft } : {}),
  }));
}

let suiteHtml: Promise<string> | null = null;

/** The suite HTML, built once per process. */
function loadSuite(): Promise<string> {
  suiteHtml ??= import("./build.ts").then((build) => build.loadSuiteHtml()).catch((error) => {
    suiteHtml = null;
    throw error;
  });
  return suiteHtml;
}

/** Maps one suite result onto the run's outcome model, keeping what the suite observed. */
export function outcomeOf(result: SubtestResult, extra: Record<string, unknown> = {}): Outcome {
  const status = outcomeStatusOf(result);
  const details: Record<string, unknown> = {
    suiteStatus: result.status,
    vantage: result.vantage,
    manual: result.manual,
    ...(result.clause ? { clause: result.clause } : {}),
    ...(result.caveat ? { caveat: result.caveat } : {}),
    ...(result.value !== undefined ? { observed: result.value } : {}),
    ...extra,
  };
  const fallback = status === "PASS" ? undefined : `The suite reported ${result.status} without a reason`;
  const message = result.message ?? fallback;
  if (status === "PASS" && message !== undefined) details.note = message;
  return status === "PASS" ? { status, details } : { status, message: message ?? "", details };
}

/** The apps suite. */
export const appsDriver: SuiteDriver = {
  id: "apps",
  accepts: (entry: HostEntry) => entry.kind !== "cli",
  list: (entry: HostEntry): TestCase[] => {
    const remote = entry.kind === "cli" ? undefined : entry.suiteServer;
    return remote
      ? remote.tests.map((meta) => ({ id: suiteServerTestId(remote.namespace, meta.id), title: meta.name }))
      : catalogue().map((meta) => ({ id: runTestId(meta.id), title: meta.name }));
  },
  preload: async (entry: HostEntry, settings: Pick<RunSettings, "live">) => {
    if (entry.kind === "cli" || (entry.requiresLive && !settings.live)) return;
    await Promise.all([loadPlaywright(), loadSuite()]).catch(() => {});
  },
  run: (entry: HostEntry, tests: readonly TestCase[], settings: RunSettings, sink: ResultSink) =>
    entry.kind === "cli" ? Promise.resolve() : runApps(entry, tests, settings, sink),
};

async function runApps(
  entry: AppsHostEntry,
  tests: readonly TestCase[],
  settings: RunSettings,
  sink: ResultSink,
): Promise<void> {
  const remote = entry.suiteServer;
  const report = new Reporter(entry.id, tests, sink, remote ? `${remote.namespace}/` : "apps/");
  if (tests.length === 0) return;
  if (entry.requiresLive && !settings.live) {
    return report.all({ status: "SKIP", message: entry.requiresLive });
  }
  const host = entry.create();
  try {
    await untilAborted(
      host.setup({
        headful: settings.headful,
        live: settings.live,
        trace: settings.trace,
        artifactsDir: settings.outDir,
        timeoutMultiplier: settings.timeoutMultiplier,
        signal: settings.signal,
        appHtml: loadSuite,
        ...(remote ? { suiteServer: remote.url } : {}),
        ...(settings.profileDir ? { profileDir: settings.profileDir } : {}),
      }),
      settings.signal,
      abortedDuring(`the setup of host "${entry.id}"`),
    );
  } catch (error) {
    await teardownHost(host, settings.signal);
    // Interrupted: no test has a result, and none is blamed (the engine lists them as interrupted).
    if (settings.signal.aborted) return;
    const reason = messageOf(error);
    return report.all(
      /No Chromium found/.test(reason)
        ? { status: "SKIP", message: reason }
        : { status: "ERROR", message: `Host setup failed: ${reason}` },
    );
  }
  try {
    const listed = remote ? remote.tests : catalogue();
    const metas = listed.filter((meta) => report.wants(meta.id));
    // Another server's suite may not know this project's `ids` filter (upstream's takes none): all of it is
    // asked for when all of it runs, and results of tests not asked for are dropped.
    const whole = remote !== undefined && metas.length === listed.length;
    const renders = LAUNCH_ORDER
      .map((launcher) => ({
        launcher,
        ids: metas.filter((meta) => runsUnder(meta, launcher)).map((m) => m.id),
      }))
      .filter((render) => render.ids.length > 0);
    const inOrder = async (list: typeof renders, aside: boolean, onLaunched?: () => void) => {
      for (const { launcher, ids } of list) {
        if (!settings.signal.aborted) {
          await runRender(
            { host, launcher, ids, aside, onLaunched, whole, remote: !!remote },
            settings,
            report,
          );
        }
      }
      onLaunched?.();
    };
    if (host.launchAside === undefined) {
      await inOrder(renders, false);
    } else {
      // The other launchers' renders run in a second page while the main render's tests run: their tests ask
      // the host for nothing, and the main render keeps the host's capability methods to itself. They start
      // once the main View is up, so the second page does not slow its launch.
      const others = renders.filter((render) => render.launcher !== MAIN);
      const main = renders.filter((render) => render.launcher === MAIN);
      const { promise: mainLaunched, resolve } = Promise.withResolvers<void>();
      const aside = mainLaunched.then(() => inOrder(others, true)).then(
        () => null,
        (error: unknown) => ({ error }),
      );
      await inOrder(main, false, resolve).finally(() => aside);
      const failed = await aside;
      if (failed !== null) throw failed.error;
    }
  } finally {
    await teardownHost(host, settings.signal);
    if (!settings.signal.aborted) {
      report.rest({ status: "ERROR", message: "The suite stopped before this test ran" });
    }
  }
}

/** One render: the launcher, its tests, and whether it runs beside the main render (`launchAside`). */
interface Render {
  readonly host: Host;
  readonly launcher: LauncherName;
  readonly ids: string[];
  readonly aside: boolean;
  /** Called once the View is up (or failed to render), before its tests run. */
  readonly onLaunched?: (() => void) | undefined;
  /** Start the suite without a filter (another server's suite, all of it wanted). */
  readonly whole?: boolean;
  /** Another server's suite: its server log is not the harness's to judge from. */
  readonly remote?: boolean;
}

async function runRender(
  { host, launcher, ids, aside, onLaunched, whole, remote }: Render,
  settings: RunSettings,
  report: Reporter,
): Promise<void> {
  const since = Date.now();
  let bridge;
  try {
    bridge = await untilAborted(
      aside && host.launchAside ? host.launchAside(launcher) : host.launch(launcher),
      settings.signal,
      abortedDuring(`the ${launcher} render`),
    );
  } catch (error) {
    onLaunched?.();
    if (settings.signal.aborted) return;
    for (const id of ids) {
      report.one(id, { status: "ERROR", message: `${launcher} did not render: ${messageOf(error)}` });
    }
    return;
  }
  onLaunched?.();
  const runner = new Runner(aside ? refusingHost(host.id, launcher) : host, {
    pollIntervalMs: APPS_DEADLINES.pollIntervalMs,
    timeoutMultiplier: settings.timeoutMultiplier,
    signal: settings.signal,
    onTestStart: (id) => report.start(id),
    onResult: async (result) => {
      const failed = result.status === "FAIL" || result.status === "TIMEOUT";
      const evidence = failed && host.keepEvidence
        ? await host.keepEvidence(report.runIdOf(result.id)).catch(() => [])
        : [];
      report.one(
        result.id,
        outcomeOf(result, evidence.length > 0 ? { screenshots: evidence } : {}),
        result.durationMs,
      );
    },
  });
  try {
    await runner.run(
      bridge,
      whole ? null : {
        ids,
        ...(settings.shuffleSeed === undefined ? {} : { shuffleSeed: settings.shuffleSeed }),
      },
    );
  } catch (error) {
    // Interrupted: the tests left end as the abort made them end, which says nothing about the host.
    if (settings.signal.aborted) return;
    if (!(error instanceof SuiteRunInterrupted)) throw error;
    const removed = bridge.isDetached();
    // The server log judges the teardown tests only when the View went away during them, not after a stall.
    const duringTeardown = (TEARDOWN_TEST_IDS as readonly (string | null)[]).includes(error.runningId);
    const log = duringTeardown && !remote ? host.serverLog?.() : undefined;
    for (const verdict of log ? judgeTeardown(log, removed, since) : []) {
      if (!ids.includes(verdict.id) || report.done(verdict.id)) continue;
      const meta = catalogue().find((candidate) => candidate.id === verdict.id)!;
      report.one(
        verdict.id,
        outcomeOf({
          ...meta,
          status: verdict.status,
          durationMs: 0,
          ...(verdict.message ? { message: verdict.message } : {}),
        }),
      );
    }
    for (const id of ids) {
      if (report.done(id)) continue;
      const teardown = (TEARDOWN_TEST_IDS as readonly string[]).includes(id);
      report.one(
        id,
        teardown && removed && duringTeardown && !log
          ? { status: "SKIP", message: "The View was removed and this host cannot read the server log" }
          : { status: "ERROR", message: `The suite stopped: ${error.message}` },
      );
    }
  }
}

/**
 * The host a render aside talks to: the real host's capability methods act on the main render's View, so a
 * request from a test aside gets an error answer (its test FAILs as "not testable") rather than a wrong one.
 * Exported for tests.
 */
export function refusingHost(id: string, launcher: LauncherName): Host {
  const refuse = (request: CapabilityRequest): Promise<CapabilityResult> =>
    Promise.resolve({
      ok: false,
      error: `"${request.kind}" is not serviced in the ${launcher} render, which runs beside the main one: ` +
        `a test that asks the host for something belongs in the ${MAIN} render`,
    });
  const methods = Object.fromEntries(CAPABILITY_KINDS.map((kind) => [kind, refuse]));
  return {
    ...methods,
    id,
    setup: () => Promise.resolve(),
    launch: () => Promise.reject(new Error("A render aside cannot launch")),
    teardown: () => Promise.resolve(),
  } as Host;
}

/**
 * Tracks which planned tests were started and finished, so every one is reported exactly once. It is keyed by
 * the suite's own ids; the run's are those with `prefix` (`apps/`, or another server's `<namespace>/`).
 */
class Reporter {
  readonly #host: string;
  readonly #sink: ResultSink;
  readonly #prefix: string;
  readonly #pending: Map<string, { started: number | null }>;

  constructor(host: string, tests: readonly TestCase[], sink: ResultSink, prefix: string) {
    this.#host = host;
    this.#sink = sink;
    this.#prefix = prefix;
    this.#pending = new Map(
      tests.map((
        test,
      ) => [test.id.startsWith(prefix) ? test.id.slice(prefix.length) : test.id, { started: null }]),
    );
  }

  /** The run's id of the suite's test `id`. */
  runIdOf(id: string): string {
    return `${this.#prefix}${id}`;
  }

  wants(id: string): boolean {
    return this.#pending.has(id);
  }

  done(id: string): boolean {
    return !this.#pending.has(id);
  }

  start(id: string): void {
    const entry = this.#pending.get(id);
    if (entry === undefined || entry.started !== null) return;
    entry.started = performance.now();
    this.#sink.started(this.#host, this.runIdOf(id));
  }

  /** Reports one test; `durationMs` defaults to the time since it was seen starting. */
  one(id: string, outcome: Outcome, durationMs?: number): void {
    if (!this.#pending.has(id)) return;
    this.start(id);
    const started = this.#pending.get(id)!.started!;
    this.#pending.delete(id);
    const elapsed = durationMs ?? performance.now() - started;
    this.#sink.finished(this.#host, this.runIdOf(id), outcome, Math.round(elapsed));
  }

  all(outcome: Outcome): void {
    this.rest(outcome);
  }

  rest(outcome: Outcome): void {
    for (const id of [...this.#pending.keys()]) this.one(id, outcome);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
