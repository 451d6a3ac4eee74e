/**
 * `conformance`: one harness that checks whether a host honours the contract its users depend on.
 *
 * @module
 */
export * from "./src/outcome.ts";
export type * from "./src/host.ts";
export type * from "./src/suite.ts";
export type * from "./src/exec/host_runner.ts";
export type * from "./src/normalize/events.ts";
export * from "./src/report/mod.ts";
export type {
  CapabilityContext,
  Host,
  HostCapabilities as AppsHostCapabilities,
  HostSetupOptions,
  SuiteBridge,
} from "./src/runner/host.ts";
