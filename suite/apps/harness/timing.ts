/**
 * The suite's deadlines under the run's `--timeout-multiplier`. The Runner sends the multiplier in the start
 * message (`StartFilter.timeoutMultiplier`, src/protocol.ts); the engine hands it here when a run starts, and
 * every wait with a deadline inside the View (a test's own deadline, `t.waitFor`, the recorder's
 * `next`, the CSP probes) reads it through {@linkcode suiteDeadline}. Fixed pauses (`t.sleep`, settle delays)
 * are not deadlines and are not scaled. Run by hand (no Runner), the multiplier is 1.
 *
 * @module
 */
import { scaled } from "../../../src/time.ts";

let multiplier = 1;

/**
 * Sets the multiplier of the run that is starting, from the start message's (anything that is not a positive
 * finite number counts as 1), and returns it.
 */
export function useTimeoutMultiplier(value: unknown): number {
  multiplier = typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 1;
  return multiplier;
}

/** `ms`, a deadline before the multiplier, as the running suite waits it. */
export function suiteDeadline(ms: number): number {
  return scaled(ms, multiplier);
}
