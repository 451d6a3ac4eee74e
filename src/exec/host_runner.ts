/**
 * The agent-CLI host contract: what a host runner declares and builds. The executor and the tiers see hosts
 * only through these types; concrete runners live in `hosts/cli/`.
 *
 * @module
 */
import type { ToolBehavior } from "./tool_behavior.ts";

/** What an invocation actually honours. Every flag is an argv fact checked by the capability tier. */
export interface HostCapabilities {
  /** Streams events as JSON lines. */
  readonly streaming: boolean;
  /** Can skip its permission prompts. */
  readonly permissionSkip: boolean;
  /** Can select a named agent. */
  readonly agentSelect: boolean;
  /** Can limit the tools it may use. */
  readonly toolAllowlist: boolean;
  /** Can answer with JSON matching a schema. */
  readonly structuredOutput: boolean;
  /** Can confine its writes to a workspace folder. */
  readonly workspaceSandboxed: boolean;
}

/** Names of the capability flags, in report order. */
export const CAPABILITY_FLAGS = [
  "streaming",
  "permissionSkip",
  "agentSelect",
  "toolAllowlist",
  "structuredOutput",
  "workspaceSandboxed",
] as const satisfies readonly (keyof HostCapabilities)[];

/** A capability set with every flag false. */
export const NO_CAPABILITIES: HostCapabilities = Object.freeze({
  streaming: false,
  permissionSkip: false,
  agentSelect: false,
  toolAllowlist: false,
  structuredOutput: false,
  workspaceSandboxed: false,
});

/** One fully built command line for a host. Immutable. */
export interface HostInvocation {
  /** The program to start. */
  readonly binary: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Extra environment merged over the projected parent environment. */
  readonly env: Readonly<Record<string, string>>;
  /** What this invocation exercises, for the capability tests. */
  readonly capabilities: HostCapabilities;
  /** Temporary files or folders removed after the run, whatever its outcome. */
  readonly cleanupPaths: readonly string[];
  /** Parent variables the child may see (deny-by-default projection). */
  readonly envAllow: readonly string[];
  /** The working folder; the run's temporary folder when absent. */
  readonly cwd?: string;
}

/** The ways an orchestrator drives a host. */
export const GOLDEN_PATHS = ["streaming", "blocking-json", "resume", "detached", "version-check"] as const;

/** One of {@linkcode GOLDEN_PATHS}, or a user-defined path from the config file. */
export type GoldenPath = typeof GOLDEN_PATHS[number] | (string & Record<never, never>);

/** What the caller wants from one invocation; a runner maps it to argv and reports what it had to drop. */
export interface InvocationRequest {
  /** The prompt to send. */
  readonly prompt: string;
  /** The folder the host works in. */
  readonly workingDir?: string;
  /** The model to ask for. */
  readonly model?: string;
  /** The agent to select. */
  readonly agent?: string;
  /** The tools to allow. */
  readonly tools?: readonly string[];
  /** Inline JSON schema for structured output (blocking JSON path). */
  readonly jsonSchema?: string;
  /** The folder writes are confined to (`workspaceSandboxed`). */
  readonly workspaceRoot?: string;
}

/** How a host's stream starts and ends. */
export interface StreamShape {
  /** `required`: the host sends an init event first; `synthetic`: the normaliser invents one; `none`. */
  readonly init: "required" | "synthetic" | "none";
  /** `event`: a terminal event ends the stream (the executor stops reading there); `eof`: EOF does. */
  readonly terminal: "event" | "eof";
}

/** Where the mock model listens, and the temporary HOME of the run. */
export interface MockModelTarget {
  /** Origin of the mock model, e.g. `http://127.0.0.1:43123` (no path, no trailing slash). */
  readonly url: string;
  /** The run's temporary HOME (absolute); `files` are written relative to it. */
  readonly home: string;
}

/** What a runner needs to reach the mock model. */
export interface MockModelSetup {
  /** Variables added to the invocation's environment (over its own). */
  readonly env: Readonly<Record<string, string>>;
  /** Files to write before the run, by path relative to the temporary HOME. */
  readonly files: Readonly<Record<string, string>>;
  /** The model to put in the request (`InvocationRequest.model`), when the host needs one named. */
  readonly model?: string;
}

/**
 * How a host is started as an Agent Client Protocol agent (the `cli/acp/*` tier): its own binary with a flag
 * (native) or an npm adapter's binary, pinned and installed by `deno task hosts:install`.
 */
export interface AcpLaunch {
  /**
   * The program and its arguments, resolved when the tier starts the agent; `model` (the mock model's
   * `MockModelSetup.model`) is passed on argv when the host takes one there.
   */
  command(model?: string): { readonly binary: string; readonly args: readonly string[] };
  /** The adapter package and version (`@agentclientprotocol/codex-acp@2.6.0`) when ACP is not native. */
  readonly adapter?: string;
  /** Variables set for the agent, under the sandbox's and the mock model's. */
  readonly env?: Readonly<Record<string, string>>;
  /** The agent needs no model at all (the scripted fake): its ACP tests run without `--mock-model`. */
  readonly modelFree?: boolean;
}

/**
 * One agent-CLI host: how to find it, how to build its command lines, what its stream looks like.
 * Concrete runners live in `hosts/cli/`; the executor and tiers see only this interface.
 */
export interface HostRunner {
  /** Registry id, e.g. `claude-code`. */
  readonly name: string;
  /** Executable name looked up on PATH, overridable by `CONFORMANCE_<HOST>_BIN`. */
  readonly binary: string;
  /** Normaliser dialect id (`claude`, `codex`, `gemini`, …). */
  readonly dialect: string;
  /** What the host can do. */
  readonly capabilities: HostCapabilities;
  /** Which events its stream must start and end with. */
  readonly streamShape: StreamShape;
  /** Golden paths the host supports at all; others are reported as SKIP with `unsupportedPaths[path]`. */
  readonly goldenPaths: readonly GoldenPath[];
  /** Why each standard golden path the host lacks is missing (e.g. codex has no blocking-JSON output). */
  readonly unsupportedPaths?: Readonly<Partial<Record<string, string>>>;
  /**
   * True for hosts that follow a `@@fake` … `@@end` directive script in the prompt (the built-in fakes):
   * the scripted and composition tiers run only on them.
   */
  readonly scripted?: boolean;
  /**
   * True for a host with no model service of its own (the reference agent): every run of it is pointed at the
   * local mock model, so the behaviour tier runs it without `--live`, in a sandbox, against a mock model.
   */
  readonly mockModelOnly?: boolean;
  /**
   * The exact version this runner's argv was written against (pinned by `deno task hosts:install`), or absent
   * for hosts without a pin. Reports stamp the version the binary itself prints.
   */
  readonly pinnedVersion?: string;
  /**
   * Argv (or environment, as `NAME=value`) markers of each capability the runner claims: the capabilities
   * tier checks that a claimed flag's markers appear in the streaming invocation and a disclaimed flag's do not.
   */
  readonly capabilityMarkers?: Readonly<Partial<Record<keyof HostCapabilities, readonly string[]>>>;
  /** Known-noise stderr lines (e.g. codex's `Reading additional input from stdin...`), ignored by stderr checks. */
  readonly stderrNoise?: readonly RegExp[];
  /**
   * How to point the host at a local mock model (`--mock-model`): environment variables and files written into
   * the run's temporary HOME, never the user's real config. Absent when the host cannot be pointed at a local
   * endpoint; `mockModelUnsupported` then says what is missing.
   */
  mockModel?(target: MockModelTarget): MockModelSetup;
  /** Why the host cannot be pointed at a local mock model, when `mockModel` is absent. */
  readonly mockModelUnsupported?: string;
  /**
   * For a host without `mockModel` whose own service URL can be set (its protocol is not one the mock model
   * speaks): that URL pointed at `url`, with a bogus credential. The fixture recorder's unreachable-endpoint
   * case uses it, with a closed loopback port.
   */
  vendorEndpoint?(target: MockModelTarget): MockModelSetup;
  /** Built-in tool names and capability switches for the capability-behaviour tier; absent: that tier SKIPs. */
  readonly toolBehavior?: ToolBehavior;
  /**
   * Why `hosts:install` may leave the binary absent on a machine, when it may (crush: "its postinstall
   * downloads the binary from github.com"); a tier's "binary absent" SKIP names it.
   */
  readonly absentWhere?: string;
  /** How to start it as an ACP agent; absent: `acpUnsupported` says why (its ACP tests SKIP with that). */
  readonly acp?: AcpLaunch;
  /** Why the host cannot be driven over ACP, when `acp` is absent. */
  readonly acpUnsupported?: string;
  /** Resolves the binary to run, or `null` when it is absent. */
  detect(): Promise<string | null>;
  /** Builds the invocation for one golden path. */
  build(path: GoldenPath, request: InvocationRequest): HostInvocation;
}
