/**
 * A hold for tests that must SIGKILL the harness at one exact point of a run rather than at a moment a timer
 * picks: with `CONFORMANCE_TEST_HOLD` set to `POINT@FILE` (or `POINT~TEXT@FILE`: only where the point's detail
 * contains TEXT), the harness writes its pid to FILE on reaching POINT and then blocks its only thread for
 * good, so nothing queued behind it (a write to the reaper's pipe, a teardown) runs before the kill. Unset, as
 * in every real run, {@linkcode holdForTest} returns at once. tests/robustness/reaper_test.ts uses it.
 *
 * @module
 */

/** The variable naming the point to hold at. */
export const TEST_HOLD_ENV = "CONFORMANCE_TEST_HOLD";

/** The points a test may hold the harness at. */
export type HoldPoint =
  /** A host process was spawned; the reaper has not been told of its group. Detail: its arguments. */
  | "host-spawned"
  /** Chromium is up (Playwright told its pid); its group is not tracked yet. Detail: its executable. */
  | "browser-launched"
  /** An interrupted run has written its reports and is about to exit. Detail: empty. */
  | "interrupted-reports-written";

interface Hold {
  readonly point: string;
  readonly text: string;
  readonly file: string;
}

let hold: Hold | null | undefined;

function readHold(): Hold | null {
  let value: string | undefined;
  try {
    value = Deno.env.get(TEST_HOLD_ENV);
  } catch {
    return null;
  }
  const match = value === undefined ? null : /^([a-z-]+)(?:~([^@]*))?@(\/.+)$/.exec(value);
  return match ? { point: match[1]!, text: match[2] ?? "", file: match[3]! } : null;
}

/**
 * Holds the harness at `point` when {@linkcode TEST_HOLD_ENV} asks for it (and `detail` contains its text):
 * writes the pid to the named file, then blocks forever. Returns at once otherwise.
 *
 * @example
 * ```ts
 * import { holdForTest } from "./test_hold.ts";
 * holdForTest("host-spawned", "--output-format stream-json"); // returns: the variable is not set
 * ```
 */
export function holdForTest(point: HoldPoint, detail = ""): void {
  if (hold === undefined) hold = readHold();
  if (hold === null || hold.point !== point || !detail.includes(hold.text)) return;
  Deno.writeTextFileSync(hold.file, `${Deno.pid}\n`);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0);
}
