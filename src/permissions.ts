/**
 * The one permission set the harness runs under: `deno task conformance`, the fake host re-invoked from
 * source, and the `deno compile`d binary all use {@linkcode PERMISSION_FLAGS} (a test checks deno.json against
 * it). Never `-A`.
 *
 * What is narrow, and why the rest is not:
 * - **net**: loopback only. Deno itself only talks to its own servers (the conformance MCP server, the
 *   reference host's listeners, the mock model) and to the browser over a loopback websocket; the origins of
 *   web hosts are loaded by the browser, which is a child process and not bound by Deno's permissions.
 * - **import**: loopback only too; Deno's default would let the program fetch code from jsr.io, deno.land,
 *   esm.sh and others at run time, and it imports nothing remote.
 * - **prompt**: never (`--no-prompt`); a refusal is an error with a message, not a question on a terminal.
 * - **run**: the program itself (`/proc/self/exe` on Linux; `conformance`/`deno` on PATH elsewhere), the
 *   `kill` and `ps` the process-group code uses, `git` for the mock-model sandbox, `sh` for the reference
 *   agent's shell tool (`conformance reference-agent` runs under this very set), the browsers, and the
 *   registry's agent CLIs and locally run apps hosts (the MCP Inspector) by name (Deno resolves each name on
 *   PATH when the program starts). Deno's own `Deno.kill` needs unrestricted run access, so signals go
 *   through the `kill` binary instead.
 * - **write**: the working folder and temp (`/tmp`; `/var/folders` is macOS's temp). Reports and temp files go
 *   there, or the write is refused with {@linkcode explainRefusal}'s message; browser profiles are written by
 *   the browser, a child process.
 * - **sys**: the few system facts read ({@linkcode SYS_ALLOW}).
 * - **env**: a list ({@linkcode ENV_ALLOW}): the harness's own variables, the registry hosts' credential and
 *   config prefixes, and what the npm packages read by name (Playwright alone reads about a hundred as it
 *   loads). The environment can be read by name but not listed: the harness reads it through `readEnv`
 *   (`src/exec/env.ts`), hands children and the browser explicit environments, and guards `process.env` so
 *   that packages listing it (Playwright) see the set's variables. A run of a `--config` host naming a variable
 *   outside the set stops before any test (cli/permit.ts: `deno task conformance:permit` widens the set from
 *   source; `deno task compile --also-env NAME` builds a binary that allows it).
 * - **read**: the working folder, temp, the browsers and `/etc/os-release` ({@linkcode READ_ALLOW}). Files the
 *   user names (`--config`, `--expectations`, `parse FILE`, `board FILE`) and `--out` must be there. Browser
 *   profiles (default under the cache dir) are Chromium's, a child process: the harness only looks in one to
 *   pre-check a sign-in, and where it may not, the product page tells (hosts/web/profile.ts). A refusal is
 *   explained by {@linkcode explainRefusal}.
 *
 * The engine's own baseline is here; the registry's hosts add their binaries and env prefixes through
 * src/host_permissions.ts, generated from hosts/registry.ts by `deno task permissions`.
 *
 * @module
 */
import { APPS_HOST_BINARIES, HOST_BINARIES, HOST_ENV, HOST_ENV_NAMES } from "./host_permissions.ts";

/** Loopback, by every name the harness binds or dials. */
export const NET_ALLOW: readonly string[] = ["127.0.0.1", "localhost", "[::1]"];

/** The browsers `src/runner/chromium.ts` looks for (`CONFORMANCE_CHROMIUM` must name one of these). */
export const BROWSER_PATHS: readonly string[] = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

/**
 * What the registry's hosts add to the engine's baseline: the programs they run and the variables they are
 * handed. The engine never imports hosts/: `deno task permissions` (tools/permissions.ts) writes the registry's
 * set into src/host_permissions.ts, which a test keeps in step with the registry.
 */
export interface HostPermissions {
  /** The agent CLIs, by the binary name each is found under on PATH. */
  readonly hostBinaries: readonly string[];
  /**
   * The MCP Apps hosts that run as a local program (the MCP Inspector), by the shim name `hosts:install`
   * writes; the shim starts the host's own runtime, a child the harness does not spawn itself.
   */
  readonly appsHostBinaries: readonly string[];
  /** The agent CLIs' credential, base-URL and config variables (`PREFIX*` wildcards or exact names). */
  readonly hostEnv: readonly string[];
  /**
   * Every variable the agent CLIs are handed, by name (each host's `envNames`: its `envAllow`'s exact names and
   * the names its wildcards stand for). The environment cannot be listed under the set, so these are the names
   * `readEnv` (src/exec/env.ts) tries for a wildcard.
   */
  readonly hostEnvNames: readonly string[];
}

export { APPS_HOST_BINARIES, HOST_BINARIES, HOST_ENV, HOST_ENV_NAMES };

/** The registry's part of the set, as generated into src/host_permissions.ts. */
export const HOST_PERMISSIONS: HostPermissions = Object.freeze({
  hostBinaries: HOST_BINARIES,
  appsHostBinaries: APPS_HOST_BINARIES,
  hostEnv: HOST_ENV,
  hostEnvNames: HOST_ENV_NAMES,
});

/** The programs of the engine itself: itself, the process-group tools, git, sh, the browsers. */
export const BASELINE_RUN: readonly string[] = [
  "/proc/self/exe",
  "conformance",
  "deno",
  "kill",
  "ps",
  "git",
  "sh",
  ...BROWSER_PATHS,
];

function runAllowOf(hosts: HostPermissions): readonly string[] {
  return [...BASELINE_RUN, ...hosts.hostBinaries, ...hosts.appsHostBinaries];
}

/** Every program the harness may start. */
export const RUN_ALLOW: readonly string[] = runAllowOf(HOST_PERMISSIONS);

/**
 * The system facts the harness may read: `uid` (root needs Chromium's --no-sandbox), and what Playwright reads
 * as it loads (`osRelease`, `homedir`; `cpus` on macOS, to tell Apple silicon).
 */
export const SYS_ALLOW: readonly string[] = ["uid", "osRelease", "homedir", "cpus"];

/**
 * Environment variables the harness itself reads: its own `CONFORMANCE_*` switches, where home, caches and
 * temp are, the display (`conformance login`), colour and locale, and the step summary file of GitHub
 * Actions (`--reporter github`).
 */
export const HARNESS_ENV: readonly string[] = [
  "CONFORMANCE_*",
  "HOME",
  "USER",
  "XDG_*",
  "PATH",
  "TMPDIR",
  "TMP",
  "TEMP",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "NO_COLOR",
  "LANG",
  "LC_*",
  "TZ",
  "DENO_DIR",
  "GITHUB_STEP_SUMMARY",
];

/**
 * What the npm packages read by name as they load and run: Playwright (`PW*`, `PLAYWRIGHT_*`, `DEBUG*`, CI and
 * terminal detection, its bundled `debug`, `ws`, `dotenv`, `chokidar` and friends), `@copilotkit/aimock`
 * (`AIMOCK_*`), `@modelcontextprotocol/client` (`API_KEY`), `esbuild` (`ESBUILD_*`, when a page is bundled at
 * run time), `yaml` (`LOG_*`) and `which`. Found by grepping
 * their sources for `process.env`; a package asking for a name missing here sees it unset (the guard of
 * `src/exec/env.ts`), as on a machine without it.
 */
export const PACKAGE_ENV: readonly string[] = [
  "PW*",
  "PLAYWRIGHT_*",
  "DEBUG*",
  "CHROME_*",
  "SELENIUM_*",
  "CI",
  "CI_*",
  "GITHUB_ACTION*",
  "TEAMCITY_VERSION",
  "TERM*",
  "COLORTERM",
  "FORCE_COLOR",
  "CLICOLOR_FORCE",
  "NODE_*",
  "LD_LIBRARY_PATH",
  "DOTENV_*",
  "CHOKIDAR_*",
  "GRACEFUL_FS_*",
  "TEST_*",
  "LOG_*",
  "MAX_LOG_LENGTH",
  "SSH_*",
  "WS_*",
  "WK_*",
  "CLAUDECODE",
  "COPILOT_CLI",
  "INIT_CWD",
  "USERNAME",
  "OSTYPE",
  "HOMEDRIVE",
  "LOCALAPPDATA",
  "PROGRAMFILES",
  "PATHEXT",
  "SYSTEMROOT",
  "SystemRoot",
  "comspec",
  "npm_config_*",
  "npm_package_config_*",
  "__IS_WSL_TEST__",
  "__MINIMATCH_TESTING_PLATFORM__",
  "AIMOCK_*",
  "ESBUILD_*",
  "API_KEY",
];

/** Every environment variable the harness may read (an entry ending in `*` allows a prefix). */
export const ENV_ALLOW: readonly string[] = envAllowOf(HOST_PERMISSIONS);

function envAllowOf(hosts: HostPermissions): readonly string[] {
  return [...HARNESS_ENV, ...hosts.hostEnv, ...PACKAGE_ENV];
}

/** Whether `name` falls under `allow` (exact names, and prefixes given as `PREFIX*`). */
export function envNameAllowed(name: string, allow: readonly string[] = ENV_ALLOW): boolean {
  return allow.some((entry) => entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name);
}

/** Where the harness may write: the working folder (resolved when the program starts) and temp. */
export const WRITE_ALLOW: readonly string[] = [".", "/tmp", "/var/folders"];

/**
 * Where the harness may read: what it may write (the working folder, where reports and the default browser
 * profiles go, and temp), the browsers it looks for, and `/etc/os-release` (Playwright reads the distribution
 * as it loads). A compiled binary reads its embedded assets from its own file system, which Deno allows
 * without a flag; from source, `deno task conformance` runs in the source folder, which `.` covers. Nothing
 * else: agent CLIs are found by spawning them (`src/exec/find_executable.ts`), not by reading PATH folders.
 */
export const READ_ALLOW: readonly string[] = [...WRITE_ALLOW, "/etc/os-release", ...BROWSER_PATHS];

/**
 * The Deno flags of the permission set, in the order the tasks spell them. `alsoRun` adds programs to the run
 * list, for a binary built to test an agent CLI the registry does not name (`deno task compile --also-run`);
 * `alsoEnv` adds variables such a CLI needs handed on (`deno task compile --also-env`). `hosts` is the registry's
 * part (default: src/host_permissions.ts; `deno task permissions` passes the registry's own).
 *
 * @example
 * ```ts
 * import { permissionFlags } from "./permissions.ts";
 * permissionFlags(["my-agent"]).find((flag) => flag.startsWith("--allow-run=")); // "…,mcp-inspector,my-agent"
 * ```
 */
export function permissionFlags(
  alsoRun: readonly string[] = [],
  alsoEnv: readonly string[] = [],
  hosts: HostPermissions = HOST_PERMISSIONS,
): string[] {
  for (const name of alsoRun) {
    if (name === "" || /[,\s]/.test(name)) {
      throw new TypeError(`Invalid program name "${name}": give one name or path, without commas or spaces`);
    }
  }
  for (const name of alsoEnv) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(name)) {
      throw new TypeError(
        `Invalid variable name "${name}": give one name (or a PREFIX*), letters, digits and _`,
      );
    }
  }
  return [
    // A refusal is an error with a message, never an interactive question (a run may have no one to answer).
    "--no-prompt",
    `--allow-read=${READ_ALLOW.join(",")}`,
    `--allow-write=${WRITE_ALLOW.join(",")}`,
    `--allow-env=${[...envAllowOf(hosts), ...alsoEnv].join(",")}`,
    `--allow-sys=${SYS_ALLOW.join(",")}`,
    `--allow-run=${[...runAllowOf(hosts), ...alsoRun].join(",")}`,
    `--allow-net=${NET_ALLOW.join(",")}`,
    // Deno would otherwise let the program import code from jsr.io, deno.land, esm.sh and a few more.
    `--allow-import=${NET_ALLOW.join(",")}`,
  ];
}

/** The permission set itself: what `deno task compile` uses, and `deno task conformance` (see below). */
export const PERMISSION_FLAGS: readonly string[] = Object.freeze(permissionFlags());

/**
 * What `deno task conformance` may read besides {@linkcode READ_ALLOW}: the install cache of `deno task
 * hosts:install`, whose shim folder the task puts first on PATH (the task's shell expands `$HOME`). `doctor`
 * reads there the version each install recorded, instead of starting every agent CLI to ask (seconds, not
 * tens of seconds); a compiled binary, which has no clone and no such cache of its own, asks the programs.
 */
export const TASK_READ_ALSO: readonly string[] = ["$HOME/.cache/conformance/hosts"];

/** `flags` with the read list widened by {@linkcode TASK_READ_ALSO}: the set as the task spells it. */
export function taskFlags(flags: readonly string[]): string[] {
  return flags.map((flag) => flag.startsWith("--allow-read=") ? `${flag},${TASK_READ_ALSO.join(",")}` : flag);
}

/** The permission set as `deno task conformance` spells it: {@linkcode PERMISSION_FLAGS}, the cache readable. */
export const TASK_PERMISSION_FLAGS: readonly string[] = Object.freeze(taskFlags(PERMISSION_FLAGS));

/**
 * Why the program cannot read its own assets when run from source outside its folder: the read permission
 * covers the working folder, not the source tree (a compiled binary reads them from its own file system).
 */
export function sourceOutsideReadPermission(): string {
  const root = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
  return `The source folder "${root}" is outside the harness's read permission: run from it ` +
    `("deno task conformance" does) or use the compiled binary`;
}

/** Whether `error` is Deno refusing an operation for want of a permission. */
export function isPermissionRefusal(error: unknown): error is Error {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied &&
      /--allow-/.test(error.message);
}

/**
 * A one-line explanation of a permission refusal that says what to do, or `null` when `error` is not one.
 * Deno's own message names a flag; the user of the compiled binary cannot pass flags, so this one names the
 * way out instead.
 *
 * @example
 * ```ts
 * import { explainRefusal } from "./permissions.ts";
 * try {
 *   new Deno.Command("/opt/agent/bin/agent").spawn();
 * } catch (error) {
 *   console.error(explainRefusal(error) ?? error);
 * }
 * ```
 */
export function explainRefusal(error: unknown): string | null {
  if (!isPermissionRefusal(error)) return null;
  const message = error.message;
  const target = /access to "([^"]*)"/.exec(message)?.[1];
  if (/run access/.test(message)) {
    if (target === undefined) {
      return "The harness may not signal processes directly (Deno.kill needs unrestricted run access): " +
        'it uses the "kill" binary instead; report this as a bug';
    }
    const name = target.split(/[\\/]/).at(-1) ?? target;
    if (target.includes("/") && RUN_ALLOW.includes(name)) {
      return `Program "${target}" is outside the harness's run permission, which allows "${name}" only as ` +
        `found on PATH: put its folder first on PATH (export PATH="${dirnameOf(target)}:$PATH")`;
    }
    return `Program "${target}" is not permitted by the harness's run permission: from a clone, run the same ` +
      `command under "deno task conformance:permit", or build a binary that allows it ("deno task compile ` +
      `--also-run ${name}"); see docs/binary.md`;
  }
  if (/write access/.test(message)) {
    return `Cannot write "${target ?? "?"}": the harness writes only inside the working folder and temp (${
      WRITE_ALLOW.join(", ")
    }); pick a folder there (e.g. --out reports) or run from the folder you want to write to`;
  }
  if (/read access/.test(message)) {
    return `Cannot read "${
      target ?? "?"
    }": it is outside the harness's read permission; copy the file into the ` +
      "working folder (or temp) and pass that path, or run from source with a wider --allow-read; see docs/binary.md";
  }
  if (/env access/.test(message)) {
    return `Environment variable "${
      target ?? "?"
    }" is not permitted by the harness's env permission: from a ` +
      `clone, run the same command under "deno task conformance:permit", or build a binary that allows it ` +
      `("deno task compile --also-env ${target ?? "NAME"}"); see docs/binary.md`;
  }
  if (/net access/.test(message)) {
    return `Network access to "${target ?? "?"}" refused: the harness talks only to loopback (${
      NET_ALLOW.join(", ")
    }); ` +
      "web hosts are reached by the browser, not by the harness";
  }
  return `${message.split("\n")[0]}: the harness runs with a fixed permission set (see docs/binary.md)`;
}

function dirnameOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}
