/**
 * Running your own agent CLI from source. The harness runs under a fixed permission set (src/permissions.ts)
 * that names the registry's programs and variables; a `--config` host's `binary:` and `envAllow:` names are
 * not in it, nor is a `CONFORMANCE_<HOST>_BIN` path outside PATH. `deno task conformance:permit` is `deno task
 * conformance` with `CONFORMANCE_PERMIT=1`: when a run needs what the set does not permit, the harness starts
 * itself again with the set widened by exactly those names (no network, no build), says so on stderr, and exits
 * as that run exits. Without it, or from a compiled binary (whose set is built in), the run stops before any
 * test with one line naming what is not permitted and the command that permits it.
 *
 * The second process runs in its own process group and is handed every SIGINT and SIGTERM the first receives:
 * a Ctrl-C, which the terminal sends to the first's group, reaches it exactly once.
 *
 * @module
 */
import type { NotPermitted } from "../src/config.ts";
import { UsageError } from "../src/errors.ts";
import type { HostEntry } from "../src/host.ts";
import { binEnvName } from "../src/exec/find_executable.ts";
import { signalProcessAsync } from "../src/exec/process_group.ts";
import { permissionFlags } from "../src/permissions.ts";
import { type Launch, launchOf, PERMIT_ENV, PERMIT_TASK, programWords, taskWords } from "./launch.ts";
import { shellQuote } from "./rerun.ts";
import type { CliIo } from "./io.ts";

/** Set in the second process: it never starts a third. */
const PERMITTED_ENV = "CONFORMANCE_PERMITTED";

/** What the hosts of a run need beyond the permission set, and where each name comes from. */
export interface RunNeeds extends NotPermitted {
  /** Where the names come from, for messages: `"conformance.yaml"`, `CONFORMANCE_CRUSH_BIN`. */
  readonly from: readonly string[];
}

/** Thrown by `planRun` when a host of the run needs what the set does not permit. */
export class NotPermittedRun extends UsageError {
  /** What the run's hosts need. */
  readonly needs: RunNeeds;

  /** @param needs What the run's hosts need. */
  constructor(needs: RunNeeds) {
    super(`Host ${needs.hosts.join(", ")} needs what the harness's permission set does not permit`);
    this.needs = needs;
  }
}

/**
 * What the run's CLI hosts need that the set does not permit: the config file's names for its hosts in the run,
 * and the `CONFORMANCE_<HOST>_BIN` path of a CLI host of the run that the run permission does not cover (it
 * allows a registry binary only as found on PATH); `null` when nothing.
 */
export function runNeeds(
  notPermitted: NotPermitted | undefined,
  source: string | null,
  entries: readonly HostEntry[],
  env: { get(name: string): string | undefined } = Deno.env,
): RunNeeds | null {
  const ids = entries.map((entry) => entry.id);
  const fromConfig = notPermitted !== undefined && notPermitted.hosts.some((host) => ids.includes(host));
  const hosts = fromConfig ? notPermitted.hosts.filter((host) => ids.includes(host)) : [];
  const run = fromConfig ? [...notPermitted.run] : [];
  const from = fromConfig && source !== null ? [`"${source}"`] : [];
  for (const entry of entries) {
    if (entry.kind !== "cli") continue;
    const variable = binEnvName(entry.id);
    const path = env.get(variable);
    if (!path || Deno.permissions.querySync({ name: "run", command: path }).state === "granted") continue;
    // A path that is not there is a binary absent, which the pre-flight check names with its fix.
    if (path.includes("/") && missing(path)) continue;
    if (!hosts.includes(entry.id)) hosts.push(entry.id);
    if (!run.includes(path)) run.push(path);
    from.push(variable);
  }
  if (hosts.length === 0) return null;
  return { hosts, run, env: fromConfig ? [...notPermitted.env] : [], from };
}

/** Whether `path` is certainly not there (a path outside the read permission may be). */
function missing(path: string): boolean {
  try {
    Deno.statSync(path);
    return false;
  } catch (error) {
    return error instanceof Deno.errors.NotFound;
  }
}

/** The names, as a clause: `"my-agent" (a program) and MY_AGENT_API_KEY (a variable)`. */
function named(needs: NotPermitted): string {
  const programs = needs.run.map((name) => `"${name}"`);
  const variables = needs.env;
  return [
    programs.length ? `${programs.join(", ")} (${programs.length === 1 ? "a program" : "programs"})` : "",
    variables.length
      ? `${variables.join(", ")} (${variables.length === 1 ? "a variable" : "variables"})`
      : "",
  ].filter(Boolean).join(" and ");
}

/**
 * Whether this process may start itself again with the set widened: from source (not a compiled binary),
 * asked to by `conformance:permit`, and not already the widened process.
 */
export function mayPermit(env = Deno.env, launch: Launch = launchOf()): boolean {
  return launch.kind !== "compiled" && env.get(PERMIT_ENV) === "1" && env.get(PERMITTED_ENV) !== "1";
}

/**
 * The refusal of a run whose hosts need what the set does not permit: what, from where, and the exact command
 * that permits it (this very command line under `conformance:permit`; for a compiled binary, the build that
 * does, or PATH for a `CONFORMANCE_<HOST>_BIN`).
 */
export function notPermittedError(
  needs: RunNeeds,
  argv: readonly string[],
  env = Deno.env,
  launch: Launch = launchOf(),
): UsageError {
  const hosts = needs.hosts.map((host) => `"${host}"`).join(", ");
  const what = `Host ${hosts} needs ${named(needs)} (from ${needs.from.join(", ")}), which the harness's ` +
    "permission set does not permit";
  if (env.get(PERMITTED_ENV) === "1") {
    // Already widened by these very names: a program name still refused was not on PATH when it started.
    return new UsageError(
      `${what}, even widened by them: a program named without a path must be on PATH when the harness ` +
        "starts: fix the name, or give its path",
    );
  }
  const words = (list: readonly string[]) => list.map(shellQuote).join(" ");
  const task = taskWords(PERMIT_TASK, launch);
  if (task !== null) return new UsageError(`${what}: run it as ${words([...task, "--", ...argv])}`);
  const overrides = needs.run.filter((name) => name.includes("/"));
  if (needs.env.length === 0 && overrides.length === needs.run.length) {
    const folders = [...new Set(overrides.map((path) => path.slice(0, path.lastIndexOf("/")) || "/"))];
    return new UsageError(
      `${what}: the binary allows a host's program only as found on PATH: unset ${
        needs.from.join(", ")
      } and ` +
        `put its folder first on PATH (export PATH="${folders.join(":")}:$PATH")`,
    );
  }
  const also = [
    ...needs.run.flatMap((name) => ["--also-run", name]),
    ...needs.env.flatMap((v) => ["--also-env", v]),
  ];
  return new UsageError(
    `${what}: build a binary that permits them, in a clone: deno task compile ${words(also)} (it downloads ` +
      `Deno's runtime unless DENORT_BIN names one; docs/binary.md), or run from the clone: ` +
      `npx -y deno@${Deno.version.deno} task -q ${PERMIT_TASK} -- ${words(argv)}`,
  );
}

/**
 * Starts this program again with the permission set widened by `needs`, with the same arguments, and returns
 * its exit code (128 + the signal's number when a signal ended it).
 */
export async function runPermitted(needs: RunNeeds, argv: readonly string[], io: CliIo): Promise<number> {
  const launch = launchOf();
  if (launch.kind === "compiled") throw new Error("a compiled binary cannot widen its own permission set");
  const main = decodeURIComponent(new URL("../main.ts", import.meta.url).pathname);
  const config = decodeURIComponent(new URL("../deno.json", import.meta.url).pathname);
  io.err(
    `conformance: permitting ${named(needs)} (from ${needs.from.join(", ")}) for this run ` +
      `(${programWords(launch).slice(0, -1).join(" ")})\n`,
  );
  const child = new Deno.Command(Deno.build.os === "linux" ? "/proc/self/exe" : Deno.execPath(), {
    args: ["run", "--quiet", "--config", config, ...permissionFlags(needs.run, needs.env), main, ...argv],
    env: { [PERMITTED_ENV]: "1" },
    // A pipe this process holds open until the child exits: when this process dies (a supervisor's SIGKILL),
    // the child reads end of input and ends its run ({@linkcode watchPermittingParent}).
    stdin: "piped",
    // Its own group: a Ctrl-C reaches it once, through the forwarding below, never twice.
    detached: true,
  }).spawn();
  const lifeline = child.stdin.getWriter();
  // By the `kill` binary where Deno.kill is refused (src/exec/process_group.ts); the child alone, not its group:
  // it ends its hosts' groups itself, as any run does.
  const forward = (signal: "SIGINT" | "SIGTERM") => () =>
    void signalProcessAsync(child.pid, signal).catch(() => {});
  const listeners = [["SIGINT", forward("SIGINT")], ["SIGTERM", forward("SIGTERM")]] as const;
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  try {
    const status = await child.status;
    return status.signal === null ? status.code : 128 + (SIGNAL_NUMBER[status.signal] ?? 1);
  } finally {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
    await lifeline.close().catch(() => {});
  }
}

/**
 * In the widened process ({@linkcode runPermitted}'s child): ends the run as a SIGTERM would once the process
 * that started it is gone. Its stdin is a pipe that process holds open until this one exits, and nothing is
 * ever written to it, so end of input means the first harness died (a supervisor's SIGKILL, which no signal
 * forwarding survives), and the run must not outlive it. Does nothing in any other process.
 */
export function watchPermittingParent(env = Deno.env): void {
  if (env.get(PERMITTED_ENV) !== "1") return;
  void (async () => {
    const buffer = new Uint8Array(64);
    try {
      while (await Deno.stdin.read(buffer) !== null) {
        // Nothing is sent on it: it only tells when the first harness is gone.
      }
    } catch {
      // A closed or broken stdin means the same.
    }
    // As a SIGTERM from outside: the run's own listener stops it (hosts ended, reports written). By the `kill`
    // binary, since Deno.kill needs more run permission than the harness has (src/exec/process_group.ts).
    await new Deno.Command("kill", { args: ["-s", "TERM", String(Deno.pid)], stdin: "null", stdout: "null" })
      .output().catch(() => {});
  })();
}

const SIGNAL_NUMBER: Partial<Record<Deno.Signal, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
