/**
 * `deno task hosts:install`: installs the registry's agent CLIs (`PINNED_HOSTS` of hosts/registry.ts, each pin
 * from its host file), the ACP adapters some of them are driven through (`PINNED_ACP_ADAPTERS`, ids `<host>-acp`)
 * and the MCP Apps hosts that run from an npm package (the MCP Inspector) at their exact
 * pinned versions (plus bun for omp and a Node ≥ 22.19 for kimi-code and the Inspector) into a cache folder
 * outside the repository, writes one shim per program into
 * `<cache>/bin`, and asserts each one's `--version` (once per install; `--verify` repeats it). Idempotent: a
 * package already installed (its marker file present) is not touched, so a warm run takes about a second.
 * A CLI whose postinstall downloads its binary from outside npm (`binaryDownloadFrom` in its pin: crush, from
 * github.com) is installed from npm without scripts, then its postinstall runs; where that host cannot be
 * reached the CLI is reported "not installed" with the postinstall's error and the install goes on (exit 0).
 *
 * Usage: `deno task hosts:install [--only claude-code,mcp-inspector] [--force] [--verify]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import {
  hostsCacheDir,
  packagePrefix,
  PINNED_APPS_HOSTS,
  type PinnedHost,
  type PinnedPackage,
  type PinnedRuntime,
  printedVersion,
  RUNTIMES,
  shimPath,
} from "../hosts/installed.ts";
import { PINNED_ACP_ADAPTERS, PINNED_HOSTS } from "../hosts/registry.ts";

const MARKER = ".conformance-installed";
/** Everything `hosts:install` installs: the agent CLIs, then the MCP Apps hosts. */
const INSTALLABLE: readonly PinnedHost[] = [...PINNED_HOSTS, ...PINNED_ACP_ADAPTERS, ...PINNED_APPS_HOSTS];
const VERIFIED = ".conformance-verified";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const child = new Deno.Command(cmd, {
    detached: true,
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const out = await child.output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** Installs one package at its exact version into its own prefix, unless its marker says it is there. */
async function installPackage(
  pkg: PinnedPackage,
  cacheDir: string,
  force: boolean,
  ignoreScripts = false,
): Promise<"cached" | "installed"> {
  const prefix = packagePrefix(pkg, cacheDir);
  const marker = join(prefix, MARKER);
  if (!force && await exists(marker)) return "cached";
  await Deno.mkdir(prefix, { recursive: true });
  // A prefix of its own with a package.json keeps npm from walking up into another project.
  await Deno.writeTextFile(join(prefix, "package.json"), JSON.stringify({ private: true }) + "\n");
  const result = await run("npm", [
    "install",
    "--no-save",
    "--no-audit",
    "--no-fund",
    "--prefer-online",
    "--loglevel=error",
    // A package whose postinstall downloads its binary from outside npm: its scripts run apart (fetchBinary).
    ...(ignoreScripts ? ["--ignore-scripts"] : []),
    `${pkg.name}@${pkg.version}`,
  ], { cwd: prefix });
  if (result.code !== 0) {
    throw new Error(
      `Installing "${pkg.name}@${pkg.version}" failed (npm exit ${result.code}): ${result.stderr.trim()}`,
    );
  }
  const installed = JSON.parse(
    await Deno.readTextFile(join(prefix, "node_modules", pkg.name, "package.json")),
  ) as { version?: string };
  if (installed.version !== pkg.version) {
    throw new Error(
      `npm installed "${pkg.name}@${installed.version}" instead of "${pkg.version}": clear ${prefix} and retry`,
    );
  }
  await Deno.writeTextFile(marker, `${pkg.name}@${pkg.version}\n`);
  return "installed";
}

/** Errors of a download that never reached its host: no name resolution, no route, refused, reset, timed out. */
const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

/**
 * Runs the postinstall of a package that downloads its binary from `pin.binaryDownloadFrom` (npm installed
 * it without scripts) unless the binary is already there. Returns `null` when the binary is in place, or why it
 * is not installed when that host could not be reached; any other failure of the postinstall throws.
 */
async function fetchBinary(pin: PinnedHost, cacheDir: string): Promise<string | null> {
  const from = pin.binaryDownloadFrom;
  const prefix = packagePrefix(pin.pkg, cacheDir);
  if (from === undefined || await exists(join(prefix, pin.entry))) return null;
  const result = await run("npm", ["rebuild", "--loglevel=error", pin.pkg.name], { cwd: prefix });
  if (result.code === 0 && await exists(join(prefix, pin.entry))) return null;
  const output = `${result.stdout}\n${result.stderr}`;
  const lines = output.split("\n").map((line) => line.replace(/^npm error\s*/, "").trim());
  const cause = lines.find((line) => UNREACHABLE.test(line) && line.includes(from));
  if (cause !== undefined) {
    return `its postinstall downloads the binary from ${from}, which is unreachable here (${cause})`;
  }
  throw new Error(
    `The postinstall of "${pin.pkg.name}@${pin.pkg.version}" (its binary, from ${from}) failed ` +
      `(npm exit ${result.code}): ${output.trim().slice(-600)}`,
  );
}

/** Creates a runtime's PATH links (e.g. `bun` → `bun.exe`), replacing stale ones. */
async function linkRuntime(runtime: PinnedRuntime, cacheDir: string): Promise<void> {
  const dir = join(packagePrefix(runtime, cacheDir), runtime.bin);
  for (const [name, target] of Object.entries(runtime.links)) {
    const link = join(dir, name);
    await Deno.remove(link).catch(() => {});
    await Deno.symlink(target, link);
  }
}

/** Writes the shim for one program: its runtimes first on PATH, then `exec` of the real entry point. */
async function writeShim(pin: PinnedHost, cacheDir: string): Promise<string> {
  const entry = join(packagePrefix(pin.pkg, cacheDir), pin.entry);
  const pathDirs = pin.runtimes.map((r) => join(packagePrefix(RUNTIMES[r], cacheDir), RUNTIMES[r].bin));
  const pathLine = pathDirs.length > 0 ? `PATH="${pathDirs.join(":")}:$PATH"\nexport PATH\n` : "";
  // kimi's entry is a Node script with `#!/usr/bin/env node`: the PATH above selects the new Node.
  const shim =
    `#!/bin/sh\n# Written by tools/install_hosts.ts for ${pin.pkg.name}@${pin.pkg.version}\n${pathLine}` +
    `exec "${entry}" "$@"\n`;
  for (const relative of pin.executables ?? []) {
    await Deno.chmod(join(packagePrefix(pin.pkg, cacheDir), relative), 0o755).catch(() => {});
  }
  const path = shimPath(pin.binary, cacheDir);
  await Deno.mkdir(join(cacheDir, "bin"), { recursive: true });
  await Deno.writeTextFile(path, shim);
  await Deno.chmod(path, 0o755);
  return path;
}

/** Runs `<shim> --version` under a throwaway HOME and checks it names the pinned version. */
async function assertVersion(pin: PinnedHost, shim: string, cacheDir: string): Promise<string> {
  if (pin.versionFromPackage) return await packageVersion(pin, cacheDir);
  const home = await Deno.makeTempDir({ prefix: "conformance-version-" });
  try {
    const result = await run(shim, [...pin.versionArgs], {
      cwd: home,
      env: { HOME: home, TERM: "dumb", NO_COLOR: "1", CI: "1", XDG_CONFIG_HOME: join(home, ".config") },
    });
    const text = `${result.stdout}\n${result.stderr}`;
    if (!text.includes(printedVersion(pin))) {
      throw new Error(
        `"${pin.binary} ${pin.versionArgs.join(" ")}" printed ${
          JSON.stringify(text.trim().slice(0, 300))
        }, ` +
          `not version "${printedVersion(pin)}" (exit ${result.code}): reinstall with --force`,
      );
    }
    return text.trim().split("\n")[0] ?? "";
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

/** The version in the installed package's `package.json`, for a program with no version flag. */
async function packageVersion(pin: PinnedHost, cacheDir: string): Promise<string> {
  const manifest = join(packagePrefix(pin.pkg, cacheDir), "node_modules", pin.pkg.name, "package.json");
  const version = (JSON.parse(await Deno.readTextFile(manifest)) as { version?: unknown }).version;
  if (version !== pin.pkg.version) {
    throw new Error(
      `${manifest} says version ${JSON.stringify(version)}, not "${pin.pkg.version}": reinstall with --force`,
    );
  }
  return `${pin.binary} ${version} (package.json: no version flag)`;
}

/** Runs async jobs with at most `limit` in flight. */
async function pool<T, R>(items: readonly T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await job(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Options of {@linkcode installHosts}. */
export interface InstallOptions {
  /** Host ids to install; every CLI and apps host when empty. */
  only?: readonly string[];
  force?: boolean;
  /** Re-run every program's `--version` check even when it passed at install time. */
  verify?: boolean;
  cacheDir?: string;
  log?: (line: string) => void;
}

/**
 * Installs the pinned CLIs and apps hosts and returns the shim path of each installed host.
 *
 * @example
 * ```ts
 * const shims = await installHosts({ only: ["qwen"] });
 * console.log(shims.get("qwen"));
 * ```
 */
export async function installHosts(options: InstallOptions = {}): Promise<Map<string, string>> {
  const cacheDir = options.cacheDir ?? hostsCacheDir();
  const log = options.log ?? ((line: string) => console.error(line));
  const only = options.only ?? [];
  for (const id of only) {
    if (!INSTALLABLE.some((pin) => pin.host === id)) {
      throw new Error(`Unknown host "${id}": choose from ${INSTALLABLE.map((p) => p.host).join(", ")}`);
    }
  }
  const pins = INSTALLABLE.filter((pin) => only.length === 0 || only.includes(pin.host));
  const runtimeNames = [...new Set(pins.flatMap((pin) => pin.runtimes))];
  const packages = [...runtimeNames.map((r) => RUNTIMES[r]), ...pins.map((pin) => pin.pkg)];
  const downloads = new Set(pins.filter((pin) => pin.binaryDownloadFrom).map((pin) => pin.pkg.name));
  const started = performance.now();
  let anyInstalled = false;
  await pool(packages, 4, async (pkg) => {
    const t0 = performance.now();
    const state = await installPackage(pkg, cacheDir, options.force ?? false, downloads.has(pkg.name));
    if (state === "installed") anyInstalled = true;
    log(
      `${state === "cached" ? "cached   " : "installed"} ${pkg.name}@${pkg.version}` +
        (state === "installed" ? ` (${((performance.now() - t0) / 1000).toFixed(1)} s)` : ""),
    );
  });
  for (const name of runtimeNames) await linkRuntime(RUNTIMES[name], cacheDir);
  const shims = new Map<string, string>();
  await pool(pins, 4, async (pin) => {
    const missing = await fetchBinary(pin, cacheDir);
    if (missing !== null) {
      // Not a failure of the install: the CLI is absent here, and every tier then names it as not installed.
      log(`${pin.host}: not installed: ${missing}`);
      return;
    }
    const shim = await writeShim(pin, cacheDir);
    // The version is asserted once per install (and whenever --verify asks); a warm run reuses that proof.
    const proof = join(packagePrefix(pin.pkg, cacheDir), VERIFIED);
    const shimText = await Deno.readTextFile(shim);
    const cached = options.verify || anyInstalled ? null : await Deno.readTextFile(proof).catch(() => null);
    const proven = cached?.startsWith(`${shimText}\n---\n`) ? cached.slice(shimText.length + 5).trim() : null;
    const version = proven ?? await assertVersion(pin, shim, cacheDir);
    if (proven === null) await Deno.writeTextFile(proof, `${shimText}\n---\n${version}\n`);
    log(`ok        ${pin.host}: ${shim} → ${version}${proven === null ? "" : " (verified at install)"}`);
    shims.set(pin.host, shim);
  });
  log(`hosts ready in ${((performance.now() - started) / 1000).toFixed(1)} s; cache ${cacheDir}`);
  return shims;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      only: { type: "string" },
      force: { type: "boolean" },
      verify: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log("Usage: deno task hosts:install [--only HOST[,HOST…]] [--force] [--verify]");
    Deno.exit(0);
  }
  try {
    await installHosts({
      only: values.only ? values.only.split(",") : [],
      force: values.force ?? false,
      verify: values.verify ?? false,
    });
  } catch (error) {
    console.error(`hosts:install: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
