/**
 * `conformance doctor`: what is installed and configured. Every path it prints is one it found to exist; the
 * pinned programs (the agent CLIs and the MCP Inspector) show the installed version beside the pin, read from
 * the proof `deno task hosts:install` records per package (`.conformance-verified`) rather than by running each
 * program; only where that proof is out of reach (the install cache lies outside the harness's read
 * permission) is the program itself asked. Credentials are reported by presence only.
 *
 * It also names the harness (version and suite revision), Deno and the browser with their versions. From
 * source, `deno task conformance` may read the install cache (src/permissions.ts `TASK_READ_ALSO`), so no
 * program is started but the browser, once, for its version: doctor takes about a second.
 *
 * Exit code: 0, or 1 when a prerequisite of the default run (`fake`, `fake-minimal`, `reference`) is missing
 * (the browser the reference host needs), or a pinned program is not installed or not at its pin.
 *
 * @module
 */
import { join } from "node:path";
import { EXIT } from "../src/errors.ts";
import { booleanFlag, type CommandSpec, parseCommandLine } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";
import { localizeCommands } from "./launch.ts";
import { browserProblem } from "./preflight.ts";
import { binEnvName } from "../src/exec/find_executable.ts";
import { isPermissionRefusal } from "../src/permissions.ts";
import { killGroup } from "../src/exec/process_group.ts";
import { readEnv } from "../src/exec/env.ts";
import { redact } from "../src/report/redact.ts";
import { stripControls } from "../src/report/sanitize.ts";
import { chromiumPath } from "../src/runner/chromium.ts";
import { HOSTS, PINNED_HOSTS } from "../hosts/registry.ts";
import { HARNESS_VERSION, SUITE_REVISION } from "../src/version.ts";
import {
  packagePrefix,
  PINNED_APPS_HOSTS,
  type PinnedHost,
  printedVersion,
  shimPath,
} from "../hosts/installed.ts";

/** The grammar of `conformance doctor`. */
export const DOCTOR_SPEC: CommandSpec = {
  name: "doctor",
  flags: { json: { type: "boolean" } },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** Credential variables the real hosts read; only their presence is ever reported. */
const CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "MOONSHOT_API_KEY",
  "DASHSCOPE_API_KEY",
  "OPENROUTER_API_KEY",
];

/** The proof file `tools/install_hosts.ts` writes into a package's prefix once its `--version` matched. */
const VERIFIED = ".conformance-verified";

/** What doctor knows of one pinned program. */
export interface PinnedStatus {
  readonly host: string;
  readonly binary: string;
  readonly pinned: string;
  /** The version line `hosts:install` recorded, or `null` when there is no proof. */
  readonly installed: string | null;
  /** `ok`: the recorded version is the pin; `mismatch`: another one; `absent`: not installed; `unknown`. */
  readonly state: "ok" | "mismatch" | "absent" | "unknown";
  readonly note?: string;
}

/**
 * The installed version of a pinned program, from the proof `hosts:install` recorded: the proof holds the shim
 * text, `---`, then the first line `--version` printed. A proof for another shim text is stale.
 */
export async function pinnedStatus(pin: PinnedHost, cacheDir?: string): Promise<PinnedStatus> {
  const base = { host: pin.host, binary: pin.binary, pinned: pin.pkg.version };
  const override = Deno.env.get(binEnvName(pin.host));
  if (override) {
    return {
      ...base,
      installed: null,
      state: "unknown",
      note: `${binEnvName(pin.host)} overrides it; its version is not recorded`,
    };
  }
  const shim = shimPath(pin.binary, cacheDir);
  const proof = join(packagePrefix(pin.pkg, cacheDir), VERIFIED);
  let shimText: string;
  let proofText: string;
  try {
    shimText = await Deno.readTextFile(shim);
  } catch (error) {
    if (isPermissionRefusal(error)) {
      return {
        ...base,
        installed: null,
        state: "unknown",
        note: "the install cache is outside the read permission",
      };
    }
    // A binary its postinstall downloads from outside npm installs only where that host is reachable.
    const note = pin.binaryDownloadFrom === undefined
      ? 'run "deno task hosts:install"'
      : `run "deno task hosts:install"; its binary is downloaded from ${pin.binaryDownloadFrom}, ` +
        `so it installs only where ${pin.binaryDownloadFrom} is reachable`;
    return { ...base, installed: null, state: "absent", note };
  }
  try {
    proofText = await Deno.readTextFile(proof);
  } catch {
    return {
      ...base,
      installed: null,
      state: "unknown",
      note: 'no recorded version: run "deno task hosts:install"',
    };
  }
  if (!proofText.startsWith(`${shimText}\n---\n`)) {
    return {
      ...base,
      installed: null,
      state: "unknown",
      note: 'stale proof: run "deno task hosts:install --verify"',
    };
  }
  const installed = proofText.slice(shimText.length + 5).trim().split("\n")[0] ?? "";
  return installed.includes(printedVersion(pin))
    ? { ...base, installed, state: "ok" }
    : { ...base, installed, state: "mismatch", note: 'reinstall with "deno task hosts:install --force"' };
}

/** Everything doctor reports, as `--json` prints it. */
export interface DoctorReport {
  /** `conformance <version> (suite <revision>)`. */
  readonly harness: string;
  /** The Deno running the harness. */
  readonly deno: string;
  readonly browser: string | null;
  /** The browser's own version line, or `null` when there is no browser or it would not say. */
  readonly browserVersion: string | null;
  readonly hosts: readonly { id: string; binary: string; path: string | null }[];
  readonly pinned: readonly PinnedStatus[];
  readonly credentials: readonly { name: string; present: boolean }[];
  /** Missing prerequisites of the default run, pinned programs absent or off their pin; exit 1 when any. */
  readonly problems: readonly string[];
}

/**
 * The first line `binary --version` prints, for a pinned program whose recorded proof cannot be read (under
 * the harness's permission set the install cache is not readable, but the shim is reachable on PATH). Run like
 * the installer runs it: a throwaway HOME, no colour, stdin closed, its own process group, a 15 s limit.
 */
export async function probeVersion(binary: string, args: readonly string[]): Promise<string | null> {
  const home = await Deno.makeTempDir({ prefix: "conformance-doctor-" });
  try {
    const child = new Deno.Command(binary, {
      args: [...args],
      cwd: home,
      clearEnv: true,
      env: { ...readEnv(["PATH"]), HOME: home, TERM: "dumb", NO_COLOR: "1", CI: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    const timer = setTimeout(() => void killGroup(child.pid, { graceMs: 0, verifyMs: 5_000 }), 15_000);
    const output = await child.output().finally(() => clearTimeout(timer));
    // Some print it on stderr (the installer reads both, too).
    const text = [output.stdout, output.stderr].map((bytes) => new TextDecoder().decode(bytes)).join("\n");
    const line = text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
    return output.success && line !== "" ? line : null;
  } catch {
    return null;
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

/** Gathers the report. */
export async function diagnose(): Promise<DoctorReport> {
  const hosts = await Promise.all(
    // A broken variant is its host run another way: the same program, nothing more to find.
    HOSTS.flatMap((entry) => entry.kind === "cli" && !entry.variantOf ? [entry] : []).map(async (entry) => ({
      id: entry.id,
      binary: entry.runner.binary,
      path: await entry.runner.detect(),
    })),
  );
  const problem = await browserProblem("reference", {
    named: new Set(),
    configHosts: new Set(),
    configSource: null,
  });
  const found = new Map(hosts.map((host) => [host.id, host.path]));
  const pinned = await Promise.all([...PINNED_HOSTS, ...PINNED_APPS_HOSTS].map(async (pin) => {
    const status = await pinnedStatus(pin);
    if (!status.note?.includes("outside the read permission")) return status;
    // Found on PATH but its proof is out of reach: ask the program itself.
    const binary = found.has(pin.host) ? found.get(pin.host) ?? null : pin.binary;
    const installed = binary === null ? null : await probeVersion(binary, pin.versionArgs);
    if (installed === null) return status;
    const { note: _, ...rest } = status;
    return installed.includes(printedVersion(pin)) ? { ...rest, installed, state: "ok" as const } : {
      ...rest,
      installed,
      state: "mismatch" as const,
      note: 'reinstall with "deno task hosts:install --force"',
    };
  }));
  const credentials = CREDENTIALS.map((name) => ({ name, present: Boolean(Deno.env.get(name)) }));
  const browser = problem === null ? chromiumPath() : null;
  return {
    harness: `conformance ${HARNESS_VERSION} (suite ${SUITE_REVISION})`,
    deno: Deno.version.deno,
    browser,
    browserVersion: browser === null ? null : await probeVersion(browser, ["--version"]),
    hosts,
    pinned,
    credentials,
    problems: [...(problem === null ? [] : [problem]), ...pinned.flatMap(pinProblem)],
  };
}

/** The problem of a pinned program that is not installed, or not at its pin; none otherwise. */
function pinProblem(pin: PinnedStatus): string[] {
  if (pin.state === "absent") {
    return [`${pin.host}: "${pin.binary}" is not installed (pinned ${pin.pinned}): ${pin.note ?? ""}`];
  }
  if (pin.state === "mismatch") {
    return [
      `${pin.host}: ${pin.installed ?? "?"} is installed, not its pin ${pin.pinned}: ${pin.note ?? ""}`,
    ];
  }
  return [];
}

/** A line a host printed (its version, a probe's error), as the terminal may show it: redacted, controls marked. */
function hostText(text: string): string {
  return stripControls(redact(text), { singleLine: true });
}

/** The `doctor` subcommand. */
export async function doctorCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(DOCTOR_SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.doctor}\n`);
    return EXIT.ok;
  }
  const report = await diagnose();
  const code = report.problems.length > 0 ? EXIT.unexpected : EXIT.ok;
  if (booleanFlag(parsed, "json")) {
    io.out(`${JSON.stringify(report, null, 2)}\n`);
    return code;
  }
  io.out(`harness: ${report.harness}, deno ${report.deno}\n`);
  io.out(
    `browser: ${
      report.browser === null
        ? `missing: ${report.problems[0] ?? ""}`
        : `${report.browser}${report.browserVersion ? ` (${hostText(report.browserVersion)})` : ""}`
    }\n`,
  );
  const shown = (host: DoctorReport["hosts"][number]) => host.path ?? `not found (${host.binary})`;
  const width = Math.max(...report.hosts.map((host) => shown(host).length));
  const version = (host: string) => {
    const pin = report.pinned.find((candidate) => candidate.host === host);
    if (pin === undefined) return "";
    const note = pin.note ? `  (${hostText(pin.note)})` : "";
    return `  ${pin.state === "ok" ? "" : `${pin.state.toUpperCase()} `}${
      pin.installed === null ? "-" : hostText(pin.installed)
    } / pinned ${pin.pinned}${note}`;
  };
  io.out("agent CLIs (path, installed / pinned version):\n");
  for (const host of report.hosts) {
    io.out(`  ${host.id.padEnd(15)} ${shown(host).padEnd(width)}${version(host.id)}`.trimEnd() + "\n");
  }
  io.out("MCP Apps hosts run from a package (installed / pinned version):\n");
  for (const pin of PINNED_APPS_HOSTS) io.out(`  ${pin.host.padEnd(15)} ${version(pin.host).trimStart()}\n`);
  io.out("credentials (presence only):\n");
  for (const c of report.credentials) io.out(`  ${c.name.padEnd(20)} ${c.present ? "set" : "-"}\n`);
  for (const line of report.problems) io.err(`conformance doctor: ${localizeCommands(hostText(line))}\n`);
  return code;
}
