/**
 * How this process was started, so that every command printed for the user (a rerun line, a hint in an error)
 * runs as printed: a compiled binary by its name when its folder is on PATH (else by its path); from a clone
 * through `deno task` (the `conformance` task, or `conformance:permit`, which permits your own host's
 * programs and variables) as `deno task -q conformance -- …`, with `npx -y deno@<version>` in front when
 * Deno came from npx (the README's way, with no `deno` on PATH); or `deno run … main.ts` when it was started
 * so, with its permission flags.
 *
 * The tasks of deno.json say which one they are by `CONFORMANCE_TASK` (`conformance`) and `CONFORMANCE_PERMIT`
 * (`conformance:permit`).
 *
 * @module
 */
import { relative } from "node:path";
import { isCompiled, type SelfContext } from "../src/exec/self.ts";
import { PERMISSION_FLAGS, permissionFlags } from "../src/permissions.ts";

/** The task that permits your own host's programs and variables (deno.json; cli/permit.ts). */
export const PERMIT_TASK = "conformance:permit";

/** The environment variable `conformance:permit` sets: widen the set for what the run's hosts need. */
export const PERMIT_ENV = "CONFORMANCE_PERMIT";

/** The environment variable the `conformance` task sets to its own name. */
export const TASK_ENV = "CONFORMANCE_TASK";

/** How the process was started. */
export type Launch =
  | { readonly kind: "compiled"; readonly program: string }
  | { readonly kind: "task"; readonly deno: readonly string[]; readonly task: string }
  | {
    readonly kind: "source";
    readonly deno: readonly string[];
    readonly flags: readonly string[];
    readonly main: string;
  };

/** What {@linkcode launchOf} reads: the executable, the main module, the environment, the working folder. */
export interface LaunchContext extends SelfContext {
  readonly env: { get(name: string): string | undefined };
  readonly cwd: string;
  /** Whether every permission is granted (`-A`): a `deno run` start is then printed with `-A`. */
  readonly allGranted: boolean;
}

/** How this very process was started. */
export function launchOf(context: LaunchContext = currentContext()): Launch {
  const path = context.env.get("PATH") ?? "";
  if (isCompiled(context)) return { kind: "compiled", program: onPath(context.execPath, path) };
  const deno = denoWords(context.execPath, path);
  if (context.env.get(PERMIT_ENV) === "1") return { kind: "task", deno, task: PERMIT_TASK };
  const task = context.env.get(TASK_ENV);
  if (task !== undefined && task !== "") return { kind: "task", deno, task };
  const mainPath = context.mainModule.startsWith("file:")
    ? decodeURIComponent(new URL(context.mainModule).pathname)
    : context.mainModule;
  const near = relative(context.cwd, mainPath);
  return {
    kind: "source",
    deno,
    flags: context.allGranted ? ["-A"] : [...PERMISSION_FLAGS],
    main: near.startsWith("..") || near === "" ? mainPath : near,
  };
}

/** Programs and variables a `deno run` start needs beyond the permission set, to run as printed. */
export interface AlsoPermit {
  readonly run: readonly string[];
  readonly env: readonly string[];
}

/**
 * The words that start the program again, before its subcommand. A `deno run` start with a narrow set names
 * the set's flags, widened by `also` (the run's own hosts' programs and variables), so the words run as printed.
 *
 * @example
 * ```ts
 * import { programWords } from "./launch.ts";
 * programWords({ kind: "task", deno: ["npx", "-y", "deno@2.9.6"], task: "conformance" });
 * // ["npx", "-y", "deno@2.9.6", "task", "-q", "conformance", "--"]
 * programWords({ kind: "compiled", program: "conformance" }); // ["conformance"]
 * ```
 */
export function programWords(launch: Launch = launchOf(), also: AlsoPermit = { run: [], env: [] }): string[] {
  switch (launch.kind) {
    case "compiled":
      return [launch.program];
    case "task":
      // -q: without it deno task first echoes the whole task line, permission set and all.
      return [...launch.deno, "task", "-q", launch.task, "--"];
    case "source": {
      const flags = launch.flags[0] === "-A" ? ["-A"] : permissionFlags(also.run, also.env);
      return [...launch.deno, "run", ...flags, launch.main];
    }
  }
}

/**
 * The words that start a task of this clone (`hosts:install`, `compile`, `conformance:permit`) the way Deno was
 * started here: `npx -y deno@<version> task -q NAME` or `deno task -q NAME`; `null` for a compiled binary, which
 * has no clone beside it.
 */
export function taskWords(task: string, launch: Launch = launchOf()): string[] | null {
  return launch.kind === "compiled" ? null : [...launch.deno, "task", "-q", task];
}

/**
 * `text` with the commands it quotes for the user (`"conformance …"`, `"deno task …"`) written the way this
 * process was started, so that a hint can be pasted as it stands.
 *
 * @example
 * ```ts
 * import { localizeCommands } from "./launch.ts";
 * localizeCommands('Run "conformance list tests"', { kind: "compiled", program: "./dist/conformance" });
 * // 'Run "./dist/conformance list tests"'
 * ```
 */
export function localizeCommands(text: string, launch: Launch = launchOf()): string {
  const program = programWords(launch).join(" ");
  const deno = launch.kind === "compiled" ? null : launch.deno.join(" ");
  return text
    .replace(/(["(])conformance (?=[a-z-])/g, (_, open: string) => `${open}${program} `)
    .replace(
      /(["(])deno task (?!-q )/g,
      (match, open: string) => deno === null ? match : `${open}${deno} task `,
    );
}

/** `npx -y deno@<version>` when Deno came from npx's cache, else `deno` (or its path when not on PATH). */
function denoWords(execPath: string, path: string): string[] {
  if (/[\\/]_npx[\\/]/.test(execPath)) return ["npx", "-y", `deno@${Deno.version.deno}`];
  return [onPath(execPath, path)];
}

/** A program by its name when its folder is on PATH, else by its path. */
function onPath(execPath: string, path: string): string {
  const slash = execPath.lastIndexOf("/");
  if (slash < 0) return execPath;
  return path.split(":").includes(execPath.slice(0, slash)) ? execPath.slice(slash + 1) : execPath;
}

function currentContext(): LaunchContext {
  let execPath = "conformance";
  let mainModule = "file:///deno-compile-conformance/main.ts";
  try {
    execPath = Deno.execPath();
    mainModule = Deno.mainModule;
  } catch {
    // A permission set that hides the executable's path must not cost the run: name the binary plainly.
  }
  const granted = (name: "read" | "write" | "run" | "env" | "net" | "sys" | "ffi") =>
    Deno.permissions.querySync({ name }).state === "granted";
  return {
    execPath,
    mainModule,
    env: Deno.env,
    cwd: Deno.cwd(),
    allGranted: (["read", "write", "run", "env", "net", "sys", "ffi"] as const).every(granted),
  };
}
