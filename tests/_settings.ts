/**
 * The run settings tests and benchmarks start from: offline, no mock model, headless, no trace, no report
 * folder, a fresh signal. A test names only what it changes.
 *
 * @module
 */
import type { RunSettings } from "../src/suite.ts";

/**
 * Headless, offline run settings, with `overrides` on top.
 *
 * @param overrides What the test changes (a slower `timeoutMultiplier`, its own `signal`, `mockModel: true`).
 * @returns Settings for a driver or tier run.
 * @example
 * ```ts
 * const settings = headlessSettings({ timeoutMultiplier: 2 });
 * console.assert(settings.headful === false && settings.timeoutMultiplier === 2);
 * ```
 */
export function headlessSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    live: false,
    mockModel: false,
    timeoutMultiplier: 1,
    headful: false,
    trace: "off",
    outDir: null,
    signal: new AbortController().signal,
    ...overrides,
  };
}
