/**
 * The MCP Apps host contract the Runner drives. Only `setup()`, `teardown()` and `launch()` are mandatory;
 * every capability method is optional, and an absent one answers `{ unsupported: true }` to the suite.
 *
 * @module
 */
import type { ServerLog } from "../fixtures.ts";
import type {
  CapabilityKind,
  CapabilityRequest,
  CapabilityResult,
  LauncherName,
  StartFilter,
  SuitePoll,
  TestMeta,
} from "../protocol.ts";

/** Settings a host gets when the run starts it. */
export interface HostSetupOptions {
  /** Show the browser window (`--headful`); headless otherwise. */
  readonly headful: boolean;
  /** Real products may be contacted (`--live`). */
  readonly live: boolean;
  /** Whether to keep a Playwright trace (`--trace`). */
  readonly trace: "on" | "off" | "on-failure";
  /** Where screenshots and traces go, or `null` when the run keeps no artifacts. */
  readonly artifactsDir: string | null;
  /** Scales every deadline (`--timeout-multiplier`). */
  readonly timeoutMultiplier: number;
  /** Aborted when the run stops (Ctrl-C, SIGTERM). */
  readonly signal: AbortSignal;
  /** The suite's HTML, for hosts that serve the conformance MCP server themselves (the reference host). */
  readonly appHtml?: () => string | Promise<string>;
  /**
   * Another conformance MCP server to render the suite from (`--suite-server`): the host connects to it
   * instead of starting a server of its own with `appHtml`. Only hosts whose entry says `suiteServers` get it.
   */
  readonly suiteServer?: string;
  /** The browser profile folder of a real product (`--profile-dir`); the host's default when absent. */
  readonly profileDir?: string;
}

/**
 * The Runner's handle on the suite running inside one rendered View: the upstream `SuiteBridge`
 * (listTests / start / poll / resolve), asynchronous because every call crosses into the browser.
 */
export interface SuiteBridge {
  /** The suite's tests, in run order. */
  listTests(): Promise<TestMeta[]>;
  /** Starts a run of the tests `filter` selects (`null`: all of this render's). */
  start(filter: StartFilter | null): Promise<void>;
  /** The suite's state: running test, pending request, results so far. */
  poll(): Promise<SuitePoll>;
  /**
   * Optional: like `poll`, but waits up to `waitMs` inside the View until the state differs from `seen` (a new
   * result, another running test, another request, or the run's end), so a Runner hears of a change at once
   * rather than at its next poll.
   */
  pollChange?(seen: PollMark, waitMs: number): Promise<SuitePoll>;
  /** Answers the pending request numbered `seq`. */
  resolve(result: CapabilityResult, seq?: number): Promise<void>;
  /** Whether the View this bridge talks to is gone (torn down or navigated away). */
  isDetached(): boolean;
}

/** What a Runner last saw of a running suite (see {@linkcode SuiteBridge.pollChange}). */
export interface PollMark {
  /** How many results it had. */
  readonly results: number;
  /** The running test's id. */
  readonly runningId: string;
  /** `"<requestSeq>:<kind>"` of the parked request, `""` when none was parked. */
  readonly request: string;
}

/** What a capability method gets besides its request. */
export interface CapabilityContext {
  /** Aborted when the request's deadline passes or the run stops. */
  readonly signal: AbortSignal;
  /** The request's deadline budget in milliseconds (already scaled by the timeout multiplier). */
  readonly timeoutMs: number;
}

/** The request of one kind. */
export type RequestOf<K extends CapabilityKind> = Extract<CapabilityRequest, { kind: K }>;

/** One optional method per capability request kind; an absent method means "unsupported". */
export type HostCapabilities = {
  readonly [K in CapabilityKind]?: (
    request: RequestOf<K>,
    context: CapabilityContext,
  ) => Promise<CapabilityResult>;
};

/** A host that renders MCP Apps. */
export interface Host extends HostCapabilities {
  /** The registry id, e.g. `reference` or `reference:loose-csp`. */
  readonly id: string;
  /** Starts whatever the host needs (browser, listeners, sign-in); call once before `launch`. */
  setup(options: HostSetupOptions): Promise<void>;
  /**
   * Renders the conformance suite through `launcher` (a real host is prompted to call that tool) and returns
   * the bridge to the suite in the new View. A previous View may be torn down first.
   */
  launch(launcher: LauncherName): Promise<SuiteBridge>;
  /**
   * Renders the suite through `launcher` beside the View of `launch` (another page of the same browser), so
   * the Runner can run both at once. The capability methods keep acting on the `launch` View: a render aside
   * is for tests that ask the host for nothing (the driver answers their requests with an error).
   */
  launchAside?(launcher: LauncherName): Promise<SuiteBridge>;
  /**
   * What the conformance MCP server saw, for hosts that run it themselves (the server vantage read directly;
   * it judges the teardown tests once the View is gone).
   */
  serverLog?(): ServerLog;
  /**
   * Keeps evidence for a failed test: marks the run as failed (so `--trace on-failure` keeps the trace) and,
   * with `screenshot`, saves a screenshot; returns the files written.
   */
  keepEvidence?(testId: string, options?: { readonly screenshot?: boolean }): Promise<string[]>;
  /** Stops everything `setup` started; every process and listener is gone when it resolves. */
  teardown(): Promise<void>;
}
