/**
 * The apps side's default deadlines, in one place: how the Runner (src/runner/runner.ts) polls and guards a
 * suite run, how long a launch step waits (src/runner/launch_steps.ts), and the in-iframe suite's own test
 * deadlines (suite/apps/harness/engine.ts). Times are in milliseconds before `--timeout-multiplier`; every
 * deadline here is scaled by it where it is used (the suite's through the start message, src/protocol.ts's
 * `StartFilter.timeoutMultiplier`). Pauses (poll intervals, the heartbeat) are not deadlines and are not
 * scaled. The CLI side's defaults are in src/exec/deadlines.ts.
 *
 * This module uses no Deno API: the in-iframe suite is bundled for the browser and reads it too.
 *
 * @module
 */

/** The apps side's defaults. */
export const APPS_DEADLINES = {
  /** Between two Runner polls when the bridge cannot wait for a change (not scaled). */
  pollIntervalMs: 50,
  /** The longest one long poll waits inside the View; the stall guard and an abort are checked between. */
  longPollMs: 250,
  /** Between the heartbeat polls that show the suite a Runner is attached (not scaled). */
  heartbeatMs: 400,
  /** The run ends when nothing changes for this long (upstream: 5 minutes). */
  stallMs: 300_000,
  /** Deadline of a request that names none (`readConsole`/`conversationContains` carry their own). */
  requestTimeoutMs: 30_000,
  /** What a request with its own deadline gets on top of it, for the host's round trips. */
  requestGraceMs: 5_000,
  /**
   * The longest one browser action of a capability may take (a click, the wait for a tab it opened), within
   * the request's deadline: a bound against a host that never shows what is clicked or opened.
   */
  actionMs: 30_000,
  /**
   * How long a launch step waits for its element, unless it says otherwise: a bound against a host that never
   * shows it, paid only then. 10 s was too short for the Inspector's tab bar after its connect at load 40.
   */
  stepTimeoutMs: 30_000,
  /** How long an `optional` launch step waits for its element before it is passed over. */
  optionalStepTimeoutMs: 2_000,
  /** How long a local host page (reference, mcp-ui) may take to load and connect to the server. */
  hostPageLoadMs: 15_000,
  /**
   * How long the navigation to a local host page may take, before it connects: Playwright's 30 s default
   * timed out on loopback at load 50 (fresh-clone CI of 2026-12-06). A bound against a hang.
   */
  hostPageGotoMs: 60_000,
  /** How long the reference host may take to render the app after a launch. */
  renderMs: 15_000,
  /** How long the MCP Inspector may take to print its banner. */
  inspectorStartMs: 60_000,
  /** An in-iframe automatic test's deadline, unless it names its own. */
  automaticTestMs: 15_000,
  /** An in-iframe manual test's deadline (a person may be answering), unless it names its own. */
  manualTestMs: 90_000,
} as const;

/**
 * The bound of one browser action a capability takes: the request's deadline, at most
 * {@linkcode APPS_DEADLINES.actionMs}.
 *
 * @example
 * ```ts
 * import { actionTimeoutMs } from "./deadlines.ts";
 * actionTimeoutMs({ timeoutMs: 90_000 }); // 30_000
 * ```
 */
export function actionTimeoutMs(context: { readonly timeoutMs: number }): number {
  return Math.min(context.timeoutMs, APPS_DEADLINES.actionMs);
}
