/**
 * Running the MCP Apps catalogue on one host entry from a test: the tests to run, every planned test
 * reported, the outcomes by test id; and the hosts a run created, for the "nothing survives" checks.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { AppsHostEntry, HostEntry } from "../../../src/host.ts";
import type { Outcome } from "../../../src/outcome.ts";
import { launchChromium, type LaunchedBrowser } from "../../../src/runner/chromium.ts";
import type { Host, HostSetupOptions } from "../../../src/runner/host.ts";
import type { SharedBrowser, SharedBrowserSetupOptions } from "../../../src/runner/browser_host.ts";
import type { RunSettings } from "../../../src/suite.ts";
import { appsDriver } from "../../../suite/apps/driver.ts";
import { headlessSettings } from "../../_settings.ts";

/** Which catalogue tests to run and how. */
export interface AppsRunOptions {
  /**
   * The tests to run: these ids (`apps/<area>/<name>`, each must be a catalogue test), the ids the pattern
   * matches, or every test when absent.
   */
  readonly only?: readonly string[] | RegExp;
  /** Headless settings with a timeout multiplier of 1 when absent. */
  readonly settings?: RunSettings;
}

/**
 * Runs catalogue tests on `entry` and asserts that each planned one was reported.
 *
 * @param entry The host entry to run.
 * @param options Which tests, with which settings.
 * @returns Each test's outcome, by its id `apps/<area>/<name>`.
 * @example
 * ```ts ignore
 * const outcomes = await runApps(REFERENCE_HOST, { only: ["apps/lifecycle/tool-input"] });
 * ```
 */
export async function runApps(entry: HostEntry, options: AppsRunOptions = {}): Promise<Map<string, Outcome>> {
  const { only } = options;
  const settings = options.settings ?? headlessSettings();
  const tests = appsDriver.list(entry, settings).filter((test) =>
    only === undefined || (only instanceof RegExp ? only.test(test.id) : only.includes(test.id))
  );
  if (Array.isArray(only)) {
    assert.equal(tests.length, only.length, `every id is a catalogue test: ${only.join(", ")}`);
  }
  const outcomes = new Map<string, Outcome>();
  await appsDriver.run(entry, tests, settings, {
    started: () => {},
    finished: (_host, test, outcome) => void outcomes.set(test, outcome),
  });
  assert.equal(outcomes.size, tests.length, `${entry.id}: every planned test is reported`);
  return outcomes;
}

/**
 * The same outcomes by catalogue id (`<area>/<name>`, as `CATALOGUE` and the variant table name tests).
 *
 * @param outcomes Outcomes by suite id, as {@linkcode runApps} returns them.
 * @returns The outcomes with the `apps/` prefix dropped from each id.
 * @example
 * ```ts
 * const byId = byCatalogueId(new Map([["apps/links/open-external", { status: "PASS" as const }]]));
 * console.assert(byId.has("links/open-external"));
 * ```
 */
export function byCatalogueId(outcomes: ReadonlyMap<string, Outcome>): Map<string, Outcome> {
  return new Map([...outcomes].map(([id, outcome]) => [id.replace(/^apps\//, ""), outcome]));
}

/** A browser host whose listeners a test checks are closed after the run. */
export interface ListeningHost extends Host {
  readonly endpoints: readonly string[];
}

/** The hosts an entry created and the listener URLs each had once set up. */
export interface WatchedEntry<H extends ListeningHost> {
  readonly entry: AppsHostEntry;
  readonly hosts: H[];
  readonly endpoints: string[];
}

/**
 * Wraps `entry` so that each host it creates is recorded, with its listener URLs once its setup ended.
 *
 * @param entry The entry to watch; its `create` must make an `H`.
 * @param shared A browser the hosts open their contexts in, instead of launching one each.
 * @returns The wrapped entry, and the hosts and endpoints it fills in as it runs.
 * @example
 * ```ts ignore
 * const watched = watchHosts<ReferenceHost>(REFERENCE_HOST);
 * await runApps(watched.entry);
 * console.assert(watched.hosts.length === 1);
 * ```
 */
export function watchHosts<H extends ListeningHost>(
  entry: AppsHostEntry,
  shared?: SharedChromium,
): WatchedEntry<H> {
  const hosts: H[] = [];
  const endpoints: string[] = [];
  const watched: AppsHostEntry = {
    ...entry,
    create: () => {
      const host = entry.create() as H;
      const setup = host.setup.bind(host);
      host.setup = async (options: HostSetupOptions) => {
        hosts.push(host);
        const withShared: SharedBrowserSetupOptions | undefined = shared === undefined
          ? undefined
          : { ...options, sharedBrowser: await shared.get() };
        await setup(withShared ?? options);
        endpoints.push(...host.endpoints);
      };
      return host;
    },
  };
  return { entry: watched, hosts, endpoints };
}

/**
 * One Chromium that many host runs of a test share (a launch costs more than a catalogue's worth of some
 * tests), each run in a context of its own; launched on first use and again if it went away. `close` ends
 * every browser it launched and returns the pids still alive, which must be none.
 */
export class SharedChromium {
  #current: LaunchedBrowser | null = null;
  #all: LaunchedBrowser[] = [];

  /** The browser to open a context in. */
  async get(): Promise<SharedBrowser> {
    if (this.#current === null || !this.#current.browser.isConnected()) {
      this.#current = await launchChromium();
      this.#all.push(this.#current);
    }
    return { browser: this.#current.browser, pid: this.#current.pid };
  }

  /** Closes every browser launched here; the pids of their processes still alive afterwards. */
  async close(): Promise<number[]> {
    const all = this.#all;
    this.#all = [];
    this.#current = null;
    const survivors: number[] = [];
    for (const launched of all) {
      await launched.close();
      survivors.push(...await launched.survivors());
    }
    return survivors;
  }
}
