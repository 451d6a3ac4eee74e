/**
 * The one chokepoint for a child's environment: deny-by-default projection of the parent environment to an
 * allow-list, then the invocation's own variables, then the variables every run forces.
 *
 * @module
 */
import process from "node:process";
import type { HostInvocation } from "./host_runner.ts";
import { ENV_ALLOW, envNameAllowed, HOST_ENV_NAMES } from "../permissions.ts";

/**
 * Tags every process a run starts: when the harness has it, every child inherits it (Chromium too, through
 * Playwright), so a test can find survivors by scanning `/proc/<pid>/environ` for the value. Not a secret.
 */
export const RUN_ID_ENV = "CONFORMANCE_RUN_ID";

/** Parent variables every child may see: enough to find binaries and pick a locale, nothing more. */
export const BASELINE_ENV_ALLOW: readonly string[] = [
  "PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  RUN_ID_ENV,
];

/** Set on every child, over anything else: no colours, no terminal tricks, non-interactive. */
export const FORCED_ENV: Readonly<Record<string, string>> = Object.freeze({
  TERM: "dumb",
  NO_COLOR: "1",
  CI: "1",
});

/**
 * Builds a child's environment: parent variables named by {@linkcode BASELINE_ENV_ALLOW} or the invocation's
 * `envAllow` (an entry ending in `*` allows a prefix, e.g. `LC_*`), then `invocation.env`, then
 * {@linkcode FORCED_ENV}. Nothing else of the parent leaks through.
 *
 * @example
 * ```ts
 * import { projectEnv } from "./env.ts";
 * projectEnv({ env: { A: "1" }, envAllow: ["HOME"] }, { HOME: "/h", SECRET_TOKEN: "x" });
 * // { HOME: "/h", A: "1", TERM: "dumb", NO_COLOR: "1", CI: "1" }
 * ```
 */
export function projectEnv(
  invocation: Pick<HostInvocation, "env" | "envAllow">,
  parent: Readonly<Record<string, string>>,
): Record<string, string> {
  const allow = [...BASELINE_ENV_ALLOW, ...invocation.envAllow];
  const exact = new Set(allow.filter((name) => !name.endsWith("*")));
  const prefixes = allow.filter((name) => name.endsWith("*")).map((name) => name.slice(0, -1));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  return { ...env, ...invocation.env, ...FORCED_ENV };
}

/**
 * The harness's own variables under its wildcards (`LC_*`, `XDG_*` of src/permissions.ts), by name: what a
 * wildcard of theirs stands for when the environment cannot be listed.
 */
const HARNESS_ENV_NAMES: readonly string[] = [
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_RUNTIME_DIR",
];

/**
 * Concrete names tried for the wildcard entries of an allow-list (`AWS_*`, `CLINE_*`, …) when the harness may
 * not list its environment: under the permission set (src/permissions.ts) a variable can be read by name but
 * the environment cannot be enumerated, so a wildcard hands on only the names known here. The agent CLIs' names
 * come from their host files (each host's `envAllow` names and `envNames`, generated into
 * src/host_permissions.ts by `deno task permissions`), the harness's own from {@linkcode HARNESS_ENV_NAMES}.
 */
export const ENV_KNOWN_NAMES: readonly string[] = [...new Set([...HARNESS_ENV_NAMES, ...HOST_ENV_NAMES])];

/**
 * Every variable the program may read: the whole environment when it may list it (dev tasks, tests), else
 * the permission set's variables. What secrets are redacted from (`secretsFromEnv` in src/report/redact.ts).
 */
export function readableEnv(): Record<string, string> {
  return readEnv(wholeEnvReadable() ? ["*"] : ENV_ALLOW);
}

/** Whether the program may read (and so list) its whole environment, as the dev tasks and tests may. */
export function wholeEnvReadable(): boolean {
  return Deno.permissions.querySync({ name: "env" }).state === "granted";
}

function readOne(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw error;
  }
}

/** The names `allow` stands for when the environment cannot be listed: its exact names, wildcards expanded. */
export function namesOf(allow: readonly string[]): string[] {
  const exact = allow.filter((name) => !name.endsWith("*"));
  const wild = allow.filter((name) => name.endsWith("*"));
  return [...new Set([...exact, ...ENV_KNOWN_NAMES.filter((name) => envNameAllowed(name, wild))])];
}

/**
 * The parent variables named by `allow` (exact names, and `PREFIX*` wildcards), read without ever listing the
 * environment unless the program may: under the permission set a wildcard stands for the names of
 * {@linkcode ENV_KNOWN_NAMES} it matches, and a name outside the env permission reads as unset.
 *
 * @example
 * ```ts
 * import { readEnv } from "./env.ts";
 * readEnv(["HOME", "LC_*"]); // { HOME: "/home/me", LC_ALL: "C.UTF-8" }
 * ```
 */
export function readEnv(allow: readonly string[] = ENV_ALLOW): Record<string, string> {
  const env: Record<string, string> = {};
  if (wholeEnvReadable()) {
    for (const [name, value] of Object.entries(Deno.env.toObject())) {
      if (envNameAllowed(name, allow)) env[name] = value;
    }
    return env;
  }
  for (const name of namesOf(allow)) {
    const value = readOne(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

let guarded = false;

/**
 * Makes `process.env` listable under the narrow env permission. Node packages enumerate it (Playwright's
 * bundled `debug` runs `Object.keys(process.env)` as it loads, and spreads it into children's environments),
 * and Deno refuses any listing short of whole env access. Once guarded, `process.env` lists the set
 * variables of {@linkcode namesOf}`(ENV_ALLOW)`, reads by name go to the real environment, and a name outside
 * the permission reads as unset, as if the variable were absent: which names a package asks for depends on
 * the environment it finds (Playwright's bundled `supports-color` asks for `TRAVIS`, `CIRCLECI` … only where
 * `CI` is set), so a refusal there would break runs on CI machines alone. Writes go to the real environment.
 * Does nothing when the whole environment is readable. Call it before importing a package that reads it.
 */
export function guardProcessEnv(): void {
  if (guarded || wholeEnvReadable()) return;
  guarded = true;
  const real = process.env;
  const listed = namesOf(ENV_ALLOW);
  const descriptor = (name: string | symbol): PropertyDescriptor | undefined => {
    const value = typeof name === "string" ? readOne(name) : undefined;
    return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
  };
  const view = new Proxy({} as Record<string, string>, {
    get: (_target, name) => typeof name === "string" ? readOne(name) : undefined,
    set: (_target, name, value) => {
      real[String(name)] = String(value);
      return true;
    },
    has: (_target, name) => typeof name === "string" && readOne(name) !== undefined,
    deleteProperty: (_target, name) => delete real[String(name)],
    ownKeys: () => listed.filter((name) => readOne(name) !== undefined),
    getOwnPropertyDescriptor: (_target, name) => descriptor(name),
  });
  Object.defineProperty(process, "env", {
    value: view,
    writable: true,
    configurable: true,
    enumerable: true,
  });
}

/**
 * `null` when the harness may hand on parent variable `entry` (a name, or a `PREFIX*` wildcard) under its
 * current permissions, else one line saying why not and what to do. A wildcard needs the environment listed,
 * which only whole env access allows.
 */
export function envAllowProblem(entry: string): string | null {
  if (wholeEnvReadable()) return null;
  const way =
    `("deno task compile --also-env ${entry.replace(/\*$/, "")}") or run from source with a wider ` +
    "--allow-env; see docs/binary.md";
  if (entry.endsWith("*")) {
    return `variable pattern "${entry}", which cannot be listed under the harness's env permission: name each variable ` +
      `instead, and build a binary that allows them ${way}`;
  }
  if (Deno.permissions.querySync({ name: "env", variable: entry }).state === "granted") return null;
  return `variable "${entry}", which is outside the harness's env permission: build a binary that allows it ${way}`;
}
