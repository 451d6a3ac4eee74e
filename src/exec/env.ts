/**
 * The one chokepoint for a child's environment: deny-by-default projection of the parent environment to an
 * allow-list, then the invocation's own variables, then the variables every run forces.
 *
 * @module
 */
import type { HostInvocation } from "./host_runner.ts";

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
