/**
 * What every real agent CLI's runner shares: finding the binary (`CONFORMANCE_<HOST>_BIN`, then the
 * `hosts:install` cache, then PATH: hosts/installed.ts), freezing invocations, and refusing a golden path a
 * host does not have.
 * Each host's argv knowledge stays in its own file.
 *
 * @module
 */
import type { HostCapabilities, HostRunner, InvocationRequest } from "../../src/exec/host_runner.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { CAPABILITY_FLAGS } from "../../src/exec/host_runner.ts";
import { type ArgvPlan, cliRunner } from "./_runner.ts";
import { detectBinary, type PinnedHost, type PinnedRuntimeName, resolveBinary } from "../installed.ts";

/** Environment every real host gets: nothing interactive, no self-update. */
export const QUIET_ENV: Readonly<Record<string, string>> = Object.freeze({
  DISABLE_AUTOUPDATER: "1",
});

/** Parent variables every real host may see: its HOME and config roots (live runs use the user's own). */
export const HOME_ALLOW: readonly string[] = [
  "HOME",
  "USER",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
];

export type { ArgvPlan };

/**
 * How `deno task hosts:install` installs a host: one npm package at an exact version (its pinned version,
 * which the version gate checks), the runtimes its shim puts first on PATH, and files to mark executable.
 */
export interface InstallSpec {
  /** The npm package. */
  readonly package: string;
  /** The exact version installed and pinned. */
  readonly version: string;
  /** Runtime packages whose `bin` folder must come first on the CLI's PATH; default none. */
  readonly runtimes?: readonly PinnedRuntimeName[];
  /** The real entry point inside the install prefix; default `node_modules/.bin/<binary>`. */
  readonly entry?: string;
  /**
   * Arguments that print the version; default `--version`. Empty for a program with no version flag (pi-acp):
   * the installed package's `package.json` is read instead.
   */
  readonly versionArgs?: readonly string[];
  /**
   * What `versionArgs` print when the program hard-codes a number other than its package version (grok-cli
   * 0.0.34 prints `1.0.1`); default the package version. npm's record of the installed package still proves the pin.
   */
  readonly printedVersion?: string;
  /** Files inside the install prefix that must be executable (npm 11 runs no install scripts). */
  readonly executables?: readonly string[];
  /**
   * The host outside npm the package's postinstall downloads the binary from (e.g. `github.com`): the entry
   * is then that downloaded binary, and `hosts:install` reports the CLI as not installed, with the reason,
   * where that host is unreachable.
   */
  readonly binaryDownloadFrom?: string;
}

/**
 * How a real host speaks the Agent Client Protocol: its own binary with `args` (native), or an npm adapter's
 * binary (`adapter`, installed and pinned by `hosts:install` beside the CLI, as host `<id>-acp`).
 */
export interface RealAcpSpec {
  /** The arguments that start the ACP agent on stdio. */
  readonly args: readonly string[];
  /** The flag that names the model, when ACP mode takes one on argv (the mock model's model goes there). */
  readonly modelFlag?: string;
  /** The adapter, when ACP is not native: its executable name and install pin. */
  readonly adapter?: InstallSpec & { readonly binary: string };
}

/** A real host's static description; {@linkcode defineRealHost} turns it into a runner and registry entry. */
export interface RealHostSpec
  extends Omit<HostRunner, "name" | "detect" | "build" | "goldenPaths" | "pinnedVersion" | "acp"> {
  /** How it is driven over ACP; absent: `acpUnsupported` says why. */
  readonly acp?: RealAcpSpec;
  readonly id: string;
  readonly summary: string;
  /** Its install pin: `hosts:install` installs it, and its version is the pinned version. */
  readonly install: InstallSpec;
  /**
   * The variables the harness's env permission must allow for this host, as `PREFIX*` wildcards (or exact
   * names): its credentials, base URLs and config folders. Every name of `envAllow` falls under one of them
   * (a test checks); `deno task permissions` adds them to the permission set.
   */
  readonly envPrefixes: readonly string[];
  /** Argv builders per supported golden path. */
  readonly paths: Readonly<Partial<Record<string, (request: InvocationRequest) => ArgvPlan>>>;
  /** Why each unsupported standard golden path is unsupported. */
  readonly unsupportedPaths?: Readonly<Partial<Record<string, string>>>;
  /**
   * Credential and config variables the host may read from the parent (live tier): names, or `PREFIX*`
   * wildcards, each of which needs its variables named in {@linkcode RealHostSpec.envNames}.
   */
  readonly envAllow: readonly string[];
  /**
   * The variables the wildcards of `envAllow` stand for, by name. Under the harness's permission set the
   * environment can be read by name but not listed (src/exec/env.ts), so there a wildcard hands on only these
   * names: `deno task permissions` writes them, with the exact names of `envAllow`, into the set's known names
   * (src/host_permissions.ts). Each falls under a wildcard of `envAllow` (a test checks).
   */
  readonly envNames?: readonly string[];
  /** Variables every invocation sets. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A real host: its runner (with the reasons its missing golden paths are missing), its registry entry, its
 * install pin and the env names its permission needs.
 */
export interface RealHost {
  readonly runner: HostRunner & { readonly unsupportedPaths: Readonly<Partial<Record<string, string>>> };
  readonly entry: CliHostEntry;
  readonly pin: PinnedHost;
  /** The pin of its ACP adapter (host id `<id>-acp`), when it speaks ACP through one. */
  readonly acpPin?: PinnedHost;
  readonly envPrefixes: readonly string[];
  /**
   * Every variable its `envAllow` hands on, by name: its exact names, and the names its wildcards stand for
   * (`envNames`). What the harness can read of them under its permission set, and so hand on.
   */
  readonly envNames: readonly string[];
}

/**
 * Builds a runner and its registry entry from a spec.
 *
 * @example
 * ```ts
 * import { capabilities, defineRealHost } from "./_real_host.ts";
 *
 * const host = defineRealHost({
 *   id: "my-agent",
 *   binary: "my-agent",
 *   install: { package: "my-agent", version: "1.0.0" },
 *   envPrefixes: ["MY_AGENT_*"],
 *   summary: "my agent (stream-json)",
 *   dialect: "claude",
 *   capabilities: capabilities("streaming"),
 *   streamShape: { init: "required", terminal: "event" },
 *   envAllow: ["MY_AGENT_API_KEY"],
 *   paths: { "version-check": () => ({ args: ["--version"] }) },
 * });
 * host.runner.build("version-check", { prompt: "" }).args; // ["--version"]
 * ```
 */
export function defineRealHost(spec: RealHostSpec): RealHost {
  const {
    id,
    summary,
    paths,
    unsupportedPaths,
    envAllow,
    envNames,
    env,
    install,
    envPrefixes,
    acp,
    ...rest
  } = spec;
  const adapter = acp?.adapter;
  const unsupported: Readonly<Partial<Record<string, string>>> = Object.freeze({ ...unsupportedPaths });
  const built = cliRunner({
    ...rest,
    name: id,
    pinnedVersion: install.version,
    unsupportedPaths: unsupported,
    detect: () => detectBinary(id, spec.binary),
    ...(install.binaryDownloadFrom
      ? {
        absentWhere: `its postinstall downloads the binary from ${install.binaryDownloadFrom}, ` +
          `so it installs only where ${install.binaryDownloadFrom} is reachable`,
      }
      : {}),
    command: () => ({ binary: resolveBinary(id, spec.binary), args: [] }),
    ...(acp
      ? {
        acp: {
          // An adapter is found like the host's own binary: its shim, else PATH.
          command: (model?: string) => ({
            binary: adapter ? resolveBinary(`${id}-acp`, adapter.binary) : resolveBinary(id, spec.binary),
            args: [...acp.args, ...(acp.modelFlag && model ? [acp.modelFlag, model] : [])],
          }),
          env: { ...QUIET_ENV, ...env },
          ...(adapter ? { adapter: `${adapter.package}@${adapter.version}` } : {}),
        },
      }
      : {}),
    env: { ...QUIET_ENV, ...env },
    envAllow: [...HOME_ALLOW, ...envAllow],
    missingPath: (path) => {
      const why = unsupportedPaths?.[path] ?? "not a golden path of this host";
      return `Host "${id}" has no golden path "${path}" (${why}): use one of ${
        Object.keys(paths).join(", ")
      }`;
    },
    paths,
  });
  const runner = { ...built, unsupportedPaths: unsupported };
  const entry: CliHostEntry = {
    id,
    kind: "cli",
    summary,
    capabilities: CAPABILITY_FLAGS.filter((flag) => spec.capabilities[flag]),
    runner,
  };
  return {
    runner,
    entry,
    pin: pinOf(id, spec.binary, install),
    ...(adapter ? { acpPin: pinOf(`${id}-acp`, adapter.binary, adapter) } : {}),
    envPrefixes: Object.freeze([...envPrefixes]),
    envNames: Object.freeze([
      ...new Set([...envAllow.filter((name) => !name.endsWith("*")), ...(envNames ?? [])]),
    ]),
  };
}

function pinOf(host: string, binary: string, install: InstallSpec): PinnedHost {
  return Object.freeze({
    host,
    binary,
    pkg: Object.freeze({ name: install.package, version: install.version }),
    entry: install.entry ?? `node_modules/.bin/${binary}`,
    runtimes: Object.freeze([...(install.runtimes ?? [])]),
    versionArgs: Object.freeze([...(install.versionArgs ?? ["--version"])]),
    ...(install.printedVersion ? { printedVersion: install.printedVersion } : {}),
    ...(install.executables ? { executables: Object.freeze([...install.executables]) } : {}),
    ...(install.binaryDownloadFrom ? { binaryDownloadFrom: install.binaryDownloadFrom } : {}),
    ...(install.versionArgs?.length === 0 ? { versionFromPackage: true } : {}),
  });
}

/** `[flag, value]` when `value` is set, else nothing: keeps argv builders flat. */
export function opt(flag: string, value: string | undefined): string[] {
  return value === undefined || value === "" ? [] : [flag, value];
}

/** A capability set from the flags that are true. */
export function capabilities(...flags: (keyof HostCapabilities)[]): HostCapabilities {
  return Object.freeze(
    Object.fromEntries(CAPABILITY_FLAGS.map((flag) => [flag, flags.includes(flag)])),
  ) as unknown as HostCapabilities;
}

/** Whether the harness runs as root (claude then needs `IS_SANDBOX=1` to accept its permission bypass). */
export function runningAsRoot(): boolean {
  return Deno.uid() === 0;
}
