/**
 * The MCP Apps host contract the Runner drives. Only `setup()` and `teardown()` are mandatory; every
 * capability method is optional, and an absent one answers `{ unsupported: true }` to the suite.
 *
 * @module
 */

/** Settings a host gets when the run starts it. */
export interface HostSetupOptions {
  readonly headful: boolean;
  readonly live: boolean;
  readonly trace: "on" | "off" | "on-failure";
  /** Where screenshots and traces go, or `null` when the run keeps no artifacts. */
  readonly artifactsDir: string | null;
  readonly timeoutMultiplier: number;
  readonly signal: AbortSignal;
}

/** A host that renders MCP Apps. Capability methods are added by the Runner work. */
export interface Host {
  readonly id: string;
  setup(options: HostSetupOptions): Promise<void>;
  teardown(): Promise<void>;
}
