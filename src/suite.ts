/**
 * How suites plug into a run. A {@linkcode SuiteDriver} lists the tests that apply to a host and runs a
 * selection of them, reporting each outcome through a {@linkcode ResultSink}. The engine plans, shards,
 * filters and applies expectations; drivers only run tests.
 *
 * @module
 */
import type { HostEntry } from "./host.ts";
import type { Outcome } from "./outcome.ts";

/** The two test families. */
export type SuiteId = "cli" | "apps";

/** One test as planned: its id follows the README's test ids ("cli/<tier>/<name>", "apps/<area>/<name>"). */
export interface TestCase {
  /** `cli/<tier>/<name>` or `apps/<area>/<name>`. */
  readonly id: string;
  /** A human title for reports; defaults to the id. */
  readonly title?: string;
}

/** The tier (or area) of a test id: its second segment. */
export function tierOf(testId: string): string {
  return testId.split("/")[1] ?? "";
}

/**
 * A golden path a user defines in the config file (`goldenPaths:`): a name, the built-in path it runs as, its
 * prompt and request options. The CLI tiers add one test per host for each (e.g. the four orchestration paths
 * of an existing orchestrator).
 */
export interface UserGoldenPath {
  /** The path's name; its tests are `cli/<tier>/<name>`. */
  readonly name: string;
  /** The built-in path whose argv it uses when the host has none under its name. */
  readonly mode: "streaming" | "blocking-json" | "resume" | "detached";
  /** The prompt sent to the host. */
  readonly prompt: string;
  /** Request options filled into the host's argv. */
  readonly options: {
    readonly model?: string | undefined;
    readonly agent?: string | undefined;
    readonly tools?: readonly string[] | undefined;
    readonly jsonSchema?: string | undefined;
  };
}

/** Run-wide settings every driver sees. */
export interface RunSettings {
  /** `--live`: real models and products with the user's credentials. */
  readonly live: boolean;
  /** `--mock-model`: real CLIs against the local mock model. */
  readonly mockModel: boolean;
  /** User-defined golden paths from the config file; none when absent. */
  readonly goldenPaths?: readonly UserGoldenPath[];
  /** `--timeout-multiplier`: scales every deadline. */
  readonly timeoutMultiplier: number;
  /** `--headful`: show the browser. */
  readonly headful: boolean;
  /** `--trace`: when to keep a Playwright trace. */
  readonly trace: "on" | "off" | "on-failure";
  /** Report folder for artifacts (screenshots, traces), or `null`. */
  readonly outDir: string | null;
  /** Aborted on Ctrl-C / SIGTERM: drivers stop their hosts and return promptly. */
  readonly signal: AbortSignal;
  /** The browser profile folder of a real web product (`--profile-dir`); each host's default when absent. */
  readonly profileDir?: string;
  /**
   * Which run of its tests a driver is asked for: absent (or 1) for the first, 2 for the first retry pass of
   * `--retries`, and so on. Each retry pass gets settings of its own, so what a driver shares per settings
   * object (the behaviour tier's shared host runs, `sharedRun` in suite/cli/capability_run.ts) is shared
   * within one attempt only: a retried test starts its host runs again.
   */
  readonly attempt?: number;
  /**
   * MCP Apps: each render runs its tests in an order shuffled by this seed (phases kept), so a gate can show
   * that order does not change a verdict. Catalogue order when absent.
   */
  readonly shuffleSeed?: number;
}

/** Where a driver sends each outcome, and what it is working on (for the progress line). */
export interface ResultSink {
  /** A test of the host has begun. */
  started(host: string, test: string): void;
  /** A test of the host has ended with this outcome. */
  finished(host: string, test: string, outcome: Outcome, durationMs: number): void;
}

/** One suite's entry point. */
export interface SuiteDriver {
  /** The family it runs. */
  readonly id: SuiteId;
  /** Whether this suite has tests for the host. */
  accepts(entry: HostEntry): boolean;
  /** Every test of this suite for the host, in run order. Must be deterministic and cheap. */
  list(entry: HostEntry, settings: Pick<RunSettings, "live" | "mockModel" | "goldenPaths">): TestCase[];
  /**
   * The host's own version for the report (e.g. from its version-check invocation), or `null` when it cannot
   * tell. Optional; must not take long and must not throw for an absent host.
   */
  version?(entry: HostEntry, settings: RunSettings): Promise<string | null>;
  /**
   * Loads, before the run installs its signal handlers and starts any host, the heavy modules that running
   * the host will need (the apps suite: Playwright and the in-iframe suite, a quarter second or more of
   * compiling that blocks the event loop, and with it a Ctrl-C's handler). Optional; never throws: a module that
   * fails to load fails where it is used.
   */
  preload?(entry: HostEntry, settings: Pick<RunSettings, "live">): Promise<void>;
  /** Runs the given tests (a subset of `list`), reporting every one of them through `sink`. */
  run(entry: HostEntry, tests: readonly TestCase[], settings: RunSettings, sink: ResultSink): Promise<void>;
}
