/**
 * `deno task compile`: prebuilds the assets, then `deno compile`s `main.ts` into `dist/conformance` for this
 * platform, or with `--all-targets` into `dist/conformance-<target>[.exe]` for the five release targets. The
 * binary runs under the harness's permission set (src/permissions.ts), never `-A`, and embeds every asset
 * (`--include`). `--also-run NAME` (repeatable) adds a program to the run permission, for agent CLIs that a
 * `--config` file names, and `--also-env NAME` (repeatable) a variable such a CLI is handed; `--target T` builds
 * one release target; `--output FILE` names the output of a single build; `--skip-assets` uses `dist/` as it
 * is. A binary for this machine is then run with `--version`, and the build fails (and the binary is removed)
 * unless that names the harness: one built on a stand-in runtime is Deno itself, not the harness.
 *
 * `deno compile` downloads its runtime (`denort`) from Deno's download server; without that server, point
 * `DENORT_BIN` at a `denort` of the same Deno version (see docs/binary.md). A failed download ends with that
 * hint instead of a bare network error.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { permissionFlags } from "../src/permissions.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../src/version.ts";
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

/** What the harness's `--version` starts with: the program's name and version, then the suite revision. */
export const VERSION_LINE = `conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION}`;

/** What {@linkcode checkArtifact} found. */
export type ArtifactCheck =
  | { readonly ok: true; readonly version: string }
  | { readonly ok: false; readonly why: string };

/**
 * Runs `binary --version` (its own process group, stdin closed, at most `timeoutMs`) and checks that it names
 * the harness: its first line starts with {@linkcode VERSION_LINE}. A binary built on a stand-in runtime
 * (`DENORT_BIN` naming `deno` itself, say) prints Deno's version instead, or crashes.
 *
 * @example
 * ```ts ignore
 * const check = await checkArtifact("dist/conformance");
 * if (!check.ok) console.error(check.why);
 * ```
 */
export async function checkArtifact(binary: string, timeoutMs = 60_000): Promise<ArtifactCheck> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(binary, {
      args: ["--version"],
      detached: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(timeoutMs),
    }).output();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, why: `"${binary} --version" could not run (${reason})` };
  }
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  const first = (decode(output.stdout).split("\n")[0] ?? "").trim();
  if (output.success && first.startsWith(VERSION_LINE)) return { ok: true, version: first };
  const printed = first || (decode(output.stderr).split("\n")[0] ?? "").trim() || "nothing";
  return {
    ok: false,
    why:
      `"${binary} --version" printed ${JSON.stringify(printed.slice(0, 200))} (exit ${output.code}), not ` +
      `"${VERSION_LINE}…": it is not the harness`,
  };
}

/** The hint after an artifact that is not the harness, for the runtime it was built on. */
export function notHarnessHint(denortBin: string | undefined): string {
  const runtime = denortBin
    ? `DENORT_BIN=${denortBin} is not a denort runtime of Deno ${Deno.version.deno} (a deno binary makes a ` +
      "program that is Deno itself)"
    : "the runtime deno compile used is not a denort of this Deno version";
  return `  ${runtime}: point DENORT_BIN at a denort of Deno ${Deno.version.deno}, or unset it where Deno's ` +
    "download server is reachable; see docs/binary.md";
}

/** Whether a binary for `target` runs on this machine (and so can be checked here). */
export function runsHere(target: string | undefined): boolean {
  return target === undefined || target === Deno.build.target;
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
      output: { type: "string" },
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
  if (values.output !== undefined && targets.length !== 1) {
    console.error("conformance: --output names one file: give it with one --target, or none");
    Deno.exit(2);
  }
  for (const target of targets) {
    const output = values.output ?? outputFor(target);
    const alsoRun = values["also-run"] ?? [];
    const alsoEnv = values["also-env"] ?? [];
    const code = await compileOne({ ...(target === undefined ? {} : { target }), output, alsoRun, alsoEnv });
    if (code !== 0) Deno.exit(code);
    if (!runsHere(target)) {
      console.error(`Compiled ${output} (not run here: a ${target} binary; the release workflow runs it)`);
      continue;
    }
    const check = await checkArtifact(output);
    if (!check.ok) {
      // Nothing downstream (the bench, a release upload) may take it for the harness.
      await Deno.remove(output).catch(() => {});
      console.error(
        `conformance: ${check.why}; removed ${output}.\n${notHarnessHint(Deno.env.get("DENORT_BIN"))}`,
      );
      Deno.exit(1);
    }
    console.error(`Compiled ${output}: ${check.version}`);
  }
}
