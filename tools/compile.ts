/**
 * `deno task compile`: prebuilds the assets, then `deno compile`s `main.ts` into `dist/conformance` for this
 * platform, or with `--all-targets` into `dist/conformance-<target>[.exe]` for the five release targets. The
 * binary runs under the harness's permission set (src/permissions.ts), never `-A`, and embeds every asset
 * (`--include`). `--also-run NAME` (repeatable) adds a program to the run permission, for agent CLIs that a
 * `--config` file names, and `--also-env NAME` (repeatable) a variable such a CLI is handed; `--target T` builds
 * one release target; `--skip-assets` uses `dist/` as it is.
 *
 * `deno compile` downloads its runtime (`denort`) from Deno's download server; without that server, point
 * `DENORT_BIN` at a `denort` of the same Deno version (see docs/binary.md). A failed download ends with that
 * hint instead of a bare network error.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { permissionFlags } from "../src/permissions.ts";
import { ASSETS, buildAssets } from "./build_assets.ts";

/** The release targets, as `deno compile --target` names them. */
export const RELEASE_TARGETS: readonly string[] = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/** What one `deno compile` run makes. */
export interface CompileTarget {
  /** A `--target` name; absent for this platform. */
  readonly target?: string;
  /** Output path, relative to the repository root or absolute. */
  readonly output: string;
  /** Programs to allow beyond the permission set's run list (agent CLIs the registry does not name). */
  readonly alsoRun?: readonly string[];
  /** Variables to allow beyond the permission set's env list (those a `--config` host hands on). */
  readonly alsoEnv?: readonly string[];
}

const ROOT = new URL("../", import.meta.url);

/** Folders of data files the program reads beside its modules, embedded when present. */
const DATA_DIRS: readonly string[] = ["hosts/expectations"];

/** The `--include` arguments: every prebuilt asset and every data folder this checkout has. */
export function includeArgs(): string[] {
  const paths = [...ASSETS.map((asset) => asset.path), ...DATA_DIRS.filter(exists)];
  return paths.flatMap((path) => ["--include", path]);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(new URL(path, ROOT));
    return true;
  } catch {
    return false;
  }
}

/**
 * The full `deno compile` argument list for one target, run from the repository root.
 *
 * @example
 * ```ts
 * import { compileArgs } from "./compile.ts";
 * compileArgs({ output: "dist/conformance" });
 * // ["compile", "--quiet", "--allow-read", …, "--include", "dist/suite_apps.html", …, "main.ts"]
 * ```
 */
export function compileArgs(target: CompileTarget): string[] {
  return [
    "compile",
    // Also the binary's log level: Deno's notes about allow-run names missing from PATH stay quiet.
    "--quiet",
    ...permissionFlags(target.alsoRun, target.alsoEnv),
    ...includeArgs(),
    ...(target.target === undefined ? [] : ["--target", target.target]),
    "--output",
    target.output,
    "main.ts",
  ];
}

/** Where the binary for `target` goes under `dist/`. */
export function outputFor(target: string | undefined): string {
  if (target === undefined) return Deno.build.os === "windows" ? "dist/conformance.exe" : "dist/conformance";
  return `dist/conformance-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** Whether `deno compile`'s error output says it could not fetch its runtime. */
export function isDenortDownloadFailure(stderr: string): boolean {
  return /denort/i.test(stderr) &&
      /(error sending request|dns error|connect|download|timed out)/i.test(stderr) ||
    /Setting up base binary/i.test(stderr);
}

/** The hint printed after a failed `denort` download. */
export const DENORT_HINT = [
  "conformance: deno compile could not download its runtime (denort) from Deno's download server.",
  "  Offline: set DENORT_BIN to a denort binary of the same Deno version and target, e.g.",
  "    DENORT_BIN=/opt/denort/denort deno task compile",
  "  or pre-place the denort zip in the Deno cache. See docs/binary.md (Air-gapped builds).",
].join("\n");

/** Runs one `deno compile`; resolves to its exit code, printing {@linkcode DENORT_HINT} on a failed download. */
export async function compileOne(target: CompileTarget): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    detached: true,
    args: compileArgs(target),
    cwd: decodeURIComponent(ROOT.pathname),
    stdin: "null",
    stdout: "inherit",
    stderr: "piped",
  }).output();
  await Deno.stderr.write(output.stderr);
  const code = output.code;
  if (code !== 0 && isDenortDownloadFailure(new TextDecoder().decode(output.stderr))) {
    console.error(DENORT_HINT);
  }
  return code;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "all-targets": { type: "boolean", default: false },
      target: { type: "string", multiple: true },
      "also-run": { type: "string", multiple: true },
      "also-env": { type: "string", multiple: true },
      "skip-assets": { type: "boolean", default: false },
    },
  });
  const targets: (string | undefined)[] = values["all-targets"]
    ? [...RELEASE_TARGETS]
    : values.target ?? [undefined];
  for (const target of targets) {
    if (target !== undefined && !RELEASE_TARGETS.includes(target)) {
      console.error(`conformance: unknown target "${target}": use one of ${RELEASE_TARGETS.join(", ")}`);
      Deno.exit(2);
    }
  }
  if (!values["skip-assets"]) {
    for (const path of await buildAssets()) console.error(`Built ${path}`);
  }
  for (const target of targets) {
    const output = outputFor(target);
    const alsoRun = values["also-run"] ?? [];
    const alsoEnv = values["also-env"] ?? [];
    const code = await compileOne({ ...(target === undefined ? {} : { target }), output, alsoRun, alsoEnv });
    if (code !== 0) Deno.exit(code);
    console.error(`Compiled ${output}`);
  }
}
