/**
 * The run settings and host setup options tests and benchmarks start from: offline, no mock model, headless,
 * no trace, no report or artifacts folder, a fresh signal. A test names only what it changes.
 *
 * @module
 */
import type { HostSetupOptions } from "../src/runner/host.ts";
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

/**
 * Headless, offline options for a host's own `setup`, with `overrides` on top.
 *
 * @param overrides What the test changes (`appHtml`, `live: true`, a `profileDir`).
 * @returns Options for `Host.setup`.
 * @example
 * ```ts
 * const options = headlessSetup({ appHtml: () => "<p>suite</p>" });
 * console.assert(options.headful === false && options.artifactsDir === null);
 * ```
 */
export function headlessSetup(overrides: Partial<HostSetupOptions> = {}): HostSetupOptions {
  return {
    headful: false,
    live: false,
    trace: "off",
    artifactsDir: null,
    timeoutMultiplier: 1,
    signal: new AbortController().signal,
    ...overrides,
  };
}
