/**
 * `conformance`: one harness that checks whether a host honours the contract its users depend on.
 *
 * This module is the engine as a library: the outcome model, the executor and its observations, the
 * normalisers, the reporters, the MCP Apps Runner and its capability protocol, and the conformance MCP server.
 * It publishes no concrete host: the registry and the host builders (`hosts/`) are the application's data,
 * and browser-driving helpers take Playwright types, so a host is written inside this repository (see
 * docs/architecture.md).
 *
 * @example
 * ```ts
 * import { execute, NO_CAPABILITIES, normalizerFor } from "./mod.ts";
 *
 * // Runs `echo` as a host that prints one claude result line, and reads what the executor observed.
 * const observation = await execute(
 *   {
 *     binary: "echo",
 *     args: ['{"type":"result","subtype":"success","result":"OK"}'],
 *     env: {},
 *     envAllow: [],
 *     cleanupPaths: [],
 *     capabilities: NO_CAPABILITIES,
 *   },
 *   {
 *     host: "echo",
 *     normalizer: normalizerFor("claude")({ argv: [] }),
 *     streamShape: { init: "none", terminal: "event" },
 *     wallTimeoutMs: 5_000,
 *   },
 * );
 * console.log(observation.kinds, observation.stopped);
 * ```
 *
 * @module
 */
export * from "./src/outcome.ts";
export type * from "./src/host.ts";
export type * from "./src/suite.ts";
export type * from "./src/exec/host_runner.ts";
export type * from "./src/exec/tool_behavior.ts";
export { CAPABILITY_FLAGS, GOLDEN_PATHS, NO_CAPABILITIES } from "./src/exec/host_runner.ts";
export { execute } from "./src/exec/executor.ts";
export type { ExecuteOptions, ExecutorPhase, RunControl } from "./src/exec/executor.ts";
export { firstDivergence, kindsMismatch } from "./src/exec/observation.ts";
export type { Observation, StopReason, Violation } from "./src/exec/observation.ts";
export { normalizerFor, NORMALIZERS } from "./src/normalize/mod.ts";
export type * from "./src/normalize/events.ts";
export * from "./src/report/mod.ts";
export type {
  CapabilityContext,
  Host,
  HostCapabilities as AppsHostCapabilities,
  HostSetupOptions,
  SuiteBridge,
} from "./src/runner/host.ts";
export * from "./src/protocol.ts";
export { Runner, SuiteRunInterrupted } from "./src/runner/runner.ts";
export type { RunnerOptions } from "./src/runner/runner.ts";
export { startConformanceServer } from "./src/server/server.ts";
export type { ConformanceServer, ConformanceServerOptions } from "./src/server/server.ts";
export type { PollMark, RequestOf } from "./src/runner/host.ts";
export type { SuiteServer } from "./src/runner/suite_server.ts";
export type { SecondServerLog, ServerLog } from "./src/fixtures.ts";
export { ServerLogRecorder } from "./src/server/server_log.ts";
export type { ServerLogEntry, ServerLogSnapshot } from "./src/server/server_log.ts";
export type { ControlOrigins } from "./src/fixtures.ts";
