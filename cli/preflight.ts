/**
 * The checks `run` makes before any test starts, so that a host that cannot run is never reported as a quiet
 * column of SKIPs that ends "all as expected": a CLI host named with `--host` whose binary is absent (or an
 * apps host whose own program is, like the MCP Inspector), and a browser host with no browser, stop the run
 * with one line naming the fix (a {@linkcode UsageError}, exit 2).
 *
 * Hosts the run picked itself (the defaults) are not held to the binary check: the fakes always have theirs.
 * The browser check applies to every web host in the plan, named or not, since without a browser every one of
 * its tests would fail the same way.
 *
 * @module
 */
import { UsageError } from "../src/errors.ts";
import type { HostEntry } from "../src/host.ts";
import { binEnvName } from "../src/exec/find_executable.ts";
import { BROWSER_PATHS, isPermissionRefusal } from "../src/permissions.ts";
import { chromiumPath } from "../src/runner/chromium.ts";
import { appsHostPin } from "../hosts/installed.ts";
import { pinFor } from "../hosts/registry.ts";
import { detectBinary } from "../hosts/installed.ts";

/** What the checks need to know besides the hosts. */
export interface PreflightOptions {
  /** Host ids the user named with `--host`; only these are held to the binary check. */
  readonly named: ReadonlySet<string>;
  /** Ids of hosts from the `--config` file, with the file's name, for the "fix binary:" message. */
  readonly configHosts: ReadonlySet<string>;
  readonly configSource: string | null;
  /** The environment the override variables are read from; the process's by default. */
  readonly env?: { get(name: string): string | undefined };
  /** The browser the web hosts would launch; {@linkcode chromiumPath} by default. */
  readonly browser?: () => string | null;
}

/**
 * Checks that every host of the run can start, and throws one {@linkcode UsageError} listing what is missing
 * (one clause per problem, on one line).
 *
 * @example
 * ```ts ignore
 * await checkPrerequisites(plan.map((item) => item.entry), {
 *   named: new Set(["claude-code"]),
 *   configHosts: new Set(),
 *   configSource: null,
 * }); // throws: Host "claude-code": binary "claude" not found: run "deno task hosts:install" …
 * ```
 */
export async function checkPrerequisites(
  entries: readonly HostEntry[],
  options: PreflightOptions,
): Promise<void> {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    if (!options.named.has(entry.id)) continue;
    if (entry.kind !== "cli") {
      // An apps host starting a program of its own (the MCP Inspector) needs it as a CLI host its binary.
      if (entry.program === undefined || await detectBinary(entry.id, entry.program) !== null) continue;
      problems.push(missingBinary(entry.id, entry.program, options));
      continue;
    }
    if (await entry.runner.detect() !== null) continue;
    problems.push(missingBinary(entry.id, entry.runner.binary, options));
  }
  const web = entries.find((entry) => entry.kind === "web");
  if (web !== undefined) {
    const problem = await browserProblem(web.id, options);
    if (problem !== null) problems.push(problem);
  }
  if (problems.length > 0) throw new UsageError(problems.join("; "));
}

/** The line for a CLI host whose binary is absent, naming the way out that fits where it comes from. */
export function missingBinary(host: string, binary: string, options: PreflightOptions): string {
  const variable = binEnvName(host);
  const override = (options.env ?? Deno.env).get(variable);
  if (options.configHosts.has(host)) {
    const file = options.configSource === null ? "" : ` in "${options.configSource}"`;
    return `Host "${host}": binary "${binary}" not found on PATH: fix its "binary:"${file} or install it`;
  }
  if (override) {
    return `Host "${host}": ${variable}="${override}" is not an executable file: fix the path, or unset it ` +
      `to use the installed "${binary}"`;
  }
  const pin = pinFor(host) ?? appsHostPin(host);
  const install = pin === undefined
    ? `put "${binary}" on PATH`
    : `run "deno task hosts:install" (installs ${pin.pkg.name}@${pin.pkg.version}${downloadNote(pin)})`;
  return `Host "${host}": binary "${binary}" not found: ${install}, or set ${variable}=/path/to/${binary}`;
}

/** For a pin whose binary its postinstall downloads from outside npm: where from, and so where it installs. */
function downloadNote(pin: { readonly binaryDownloadFrom?: string }): string {
  const from = pin.binaryDownloadFrom;
  return from === undefined
    ? ""
    : `; its postinstall downloads the binary from ${from}, so it installs only where ${from} is reachable: ` +
      `hosts:install says "not installed" when it is not`;
}

/**
 * Why the browser a web host needs is missing, or `null` when it is there. A `CONFORMANCE_CHROMIUM` the harness
 * may not even look at lies outside its permission set, so the browser could not be started either.
 */
export async function browserProblem(host: string, options: PreflightOptions): Promise<string | null> {
  const named = (options.env ?? Deno.env).get("CONFORMANCE_CHROMIUM");
  const path = (options.browser ?? chromiumPath)();
  const fix = "install Chromium (apt-get install chromium) or set CONFORMANCE_CHROMIUM to a Chromium binary";
  if (path === null) return `Host "${host}" needs a browser and none was found: ${fix}`;
  try {
    if ((await Deno.stat(path)).isFile) return null;
  } catch (error) {
    if (isPermissionRefusal(error)) {
      return `Host "${host}" needs a browser: CONFORMANCE_CHROMIUM="${path}" is outside the harness's ` +
        `permission set: name one of ${BROWSER_PATHS.join(", ")}`;
    }
  }
  return named
    ? `Host "${host}" needs a browser: CONFORMANCE_CHROMIUM="${named}" is not a file: ${fix}`
    : `Host "${host}" needs a browser: "${path}" is not a file: ${fix}`;
}
