/**
 * Registry entries: the typed descriptor of every host the harness knows. `hosts/registry.ts` is the one list
 * of them; suites, `list hosts` and the board read only this shape.
 *
 * @module
 */
import type { HostRunner } from "./exec/host_runner.ts";
import type { CapabilityKind } from "./protocol.ts";
import type { Host } from "./runner/host.ts";
import type { SuiteServer } from "./runner/suite_server.ts";

/** Where a host runs: a subprocess CLI, a web product in a browser, or a desktop app over CDP. */
export type HostKind = "cli" | "web" | "desktop";

/** What every registry entry has, whatever its kind. */
export interface HostEntryBase {
  /** Registry id as typed on the command line, e.g. `gemini`, `reference:loose-csp`. */
  readonly id: string;
  /** Where the host runs. */
  readonly kind: HostKind;
  /** One line for `conformance list hosts`. */
  readonly summary: string;
  /** Test-only hosts (the fakes, broken reference variants) are left off the markdown board. */
  readonly testOnly?: boolean;
  /** For a broken variant of a test-only host, the id of the host it breaks (`reference-agent`). */
  readonly variantOf?: string;
  /** Capability names for listing. */
  readonly capabilities: readonly string[];
}

/** A coding-agent CLI host. */
export interface CliHostEntry extends HostEntryBase {
  /** Always `cli`. */
  readonly kind: "cli";
  /** Builds the host's invocations and finds its binary. */
  readonly runner: HostRunner;
}

/** An MCP Apps host (web or desktop). */
export interface AppsHostEntry extends HostEntryBase {
  /** `web` for a browser page, `desktop` for an app attached over CDP. */
  readonly kind: "web" | "desktop";
  /**
   * The capability requests the host services: exactly the methods of {@linkcode create}'s host that do not
   * answer unsupported at once (tests/hosts/apps_capabilities_test.ts holds every entry to it).
   */
  readonly capabilities: readonly CapabilityKind[];
  /** Real products only run with `--live`; the reason they need it. */
  readonly requiresLive?: string;
  /**
   * Checks, before anything starts, that a live run can go ahead (e.g. a signed-in browser profile). Returns
   * `null` when it can, else one line saying what to do; the run stops with it as a usage error (exit 2).
   */
  preflight?(options: { readonly profileDir?: string }): Promise<string | null>;
  /**
   * The local program this host starts (the MCP Inspector's shim), looked for like a CLI host's binary
   * (`CONFORMANCE_<HOST>_BIN`, the `hosts:install` cache, `PATH`) before a run that names the host.
   */
  readonly program?: string;
  /**
   * Whether the host can be pointed at another conformance MCP server (`--suite-server URL`): its setup then
   * gets that URL as `suiteServer` and connects to it instead of a server of its own.
   */
  readonly suiteServers?: boolean;
  /**
   * The other server's suite this run reports instead of the catalogue (`--suite-server`, or the YAML
   * `server: { url }`), set when the run is planned.
   */
  readonly suiteServer?: SuiteServer;
  /** A fresh host for one run. */
  create(): Host;
}

/** Any registry entry. */
export type HostEntry = CliHostEntry | AppsHostEntry;
