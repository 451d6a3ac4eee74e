/**
 * `conformance`: one harness that checks whether a host honours the contract its users depend on.
 *
 * @module
 */
export * from "./src/outcome.ts";
export type * from "./src/host.ts";
export type * from "./src/suite.ts";
export type * from "./src/exec/host_runner.ts";
export { CAPABILITY_FLAGS, GOLDEN_PATHS, NO_CAPABILITIES } from "./src/exec/host_runner.ts";
export { execute } from "./src/exec/executor.ts";
export type { ExecuteOptions, RunControl } from "./src/exec/executor.ts";
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
export { findSuiteFrame, FrameSuiteBridge } from "./src/runner/suite_bridge.ts";
export { BrowserHost } from "./src/runner/browser_host.ts";
export { startConformanceServer } from "./src/server/server.ts";
export type { ConformanceServer, ConformanceServerOptions } from "./src/server/server.ts";
export type { RequestOf } from "./src/runner/host.ts";
export type { FindSuiteFrameOptions } from "./src/runner/suite_bridge.ts";
export type { ServerLog } from "./src/fixtures.ts";
export { ServerLogRecorder } from "./src/server/server_log.ts";
export type { ServerLogEntry, ServerLogSnapshot } from "./src/server/server_log.ts";
export type { ControlOrigins } from "./src/fixtures.ts";
