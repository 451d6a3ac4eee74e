/**
 * How the harness runs itself as a child, for the built-in fake host: a `deno compile`d binary is its own
 * executable (`<binary> fake-host …`); from source it is `deno run <task permissions> <main.ts> fake-host …`.
 *
 * @module
 */

import { PERMISSION_FLAGS } from "../permissions.ts";

/** The permissions of `deno task conformance`, given to the fake host when running from source. */
export const SOURCE_PERMISSIONS: readonly string[] = PERMISSION_FLAGS;

/** The program's whereabouts, as Deno reports them. */
export interface SelfContext {
  /** `Deno.execPath()`. */
  readonly execPath: string;
  /** `Deno.mainModule`. */
  readonly mainModule: string;
  /**
   * A path that starts this very executable whatever it is called (Linux's `/proc/self/exe`), so the
   * permission set can allow "itself" without knowing where the binary was installed.
   */
  readonly selfExe?: string;
}

/** A command prefix: run `binary` with `args` followed by the fake host's own arguments. */
export interface SelfCommand {
  readonly binary: string;
  readonly args: readonly string[];
}

// `deno bundle` inlines this module, and import.meta.url is then the bundle file, which is itself the program.
const MAIN_TS = import.meta.url.endsWith("/src/exec/self.ts")
  ? new URL("../../main.ts", import.meta.url)
  : new URL(import.meta.url);

/**
 * Whether the program is a `deno compile`d binary: its main module then lives in the binary's embedded
 * file system (`…/deno-compile-<name>/…`), and its executable is not the `deno` CLI.
 */
export function isCompiled(context: SelfContext): boolean {
  const base = context.execPath.split(/[\\/]/).at(-1) ?? "";
  return context.mainModule.includes("/deno-compile-") || !/^deno(\.exe)?$/i.test(base);
}

/**
 * The command that starts `conformance fake-host` from this very program.
 *
 * @example
 * ```ts
 * import { fakeHostCommand } from "./self.ts";
 * const { binary, args } = fakeHostCommand();
 * // from source: [Deno.execPath(), "run", "--quiet", "--no-config", "--allow-read", …, "/abs/main.ts", "fake-host"]
 * ```
 */
export function fakeHostCommand(
  context: SelfContext = defaultContext(),
): SelfCommand {
  return selfCommand("fake-host", context);
}

/**
 * The command that starts `conformance SUBCOMMAND` from this very program, under the task's permissions when
 * running from source: `fake-host`, and `__reaper` (src/exec/reaper.ts). Both load only relative modules.
 */
export function selfCommand(subcommand: string, context: SelfContext = defaultContext()): SelfCommand {
  const binary = context.selfExe ?? context.execPath;
  if (isCompiled(context)) return { binary, args: [subcommand] };
  const main = MAIN_TS.protocol === "file:" ? decodeURIComponent(MAIN_TS.pathname) : MAIN_TS.href;
  // The fake-host path of main.ts imports only fake_host/ (relative modules): skipping deno.json, the lockfile
  // and the npm resolution they imply cuts about a third off each start; a test runs this very command.
  return { binary, args: ["run", "--quiet", "--no-config", ...SOURCE_PERMISSIONS, main, subcommand] };
}

function defaultContext(): SelfContext {
  const context = { execPath: Deno.execPath(), mainModule: Deno.mainModule };
  return Deno.build.os === "linux" ? { ...context, selfExe: "/proc/self/exe" } : context;
}
