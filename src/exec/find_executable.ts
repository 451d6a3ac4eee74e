/**
 * Finding a host's executable: `CONFORMANCE_<HOST>_BIN` first (e.g. `CONFORMANCE_CLAUDE_CODE_BIN`), then
 * the folders of `PATH`.
 *
 * A file is looked at (`stat`) where the harness may read it. Where it may not (a PATH folder or an override
 * outside its read permission), the program is probed by spawning it instead: the run permission already names
 * every program the harness may start, a spawn that fails with NotFound means absent, and the probe's process
 * group is killed at once, before the program does anything. A program outside the run permission counts as
 * found: the run then stops on the refusal, whose message says what to do (src/permissions.ts).
 *
 * @module
 */
import { killGroup } from "./process_group.ts";
import { isPermissionRefusal } from "../permissions.ts";

/** The override variable for a host id: `claude-code` → `CONFORMANCE_CLAUDE_CODE_BIN`. */
export function binEnvName(hostId: string): string {
  return `CONFORMANCE_${hostId.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_BIN`;
}

/** What a look at a file found: an executable, nothing usable, or no permission to look. */
type Look = "executable" | "absent" | "unreadable";

async function look(path: string): Promise<Look> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0) ? "executable" : "absent";
  } catch (error) {
    return isPermissionRefusal(error) ? "unreadable" : "absent";
  }
}

/**
 * Whether `program` (a name looked up on PATH, or a path) can be started, found by starting it: stdin closed,
 * output discarded, in its own process group, which is killed at once (SIGKILL) and verified gone. A program
 * the run permission refuses counts as present (see the module comment).
 *
 * @example
 * ```ts ignore
 * await probeBySpawn("sh"); // true
 * await probeBySpawn("no-such-program"); // false
 * ```
 */
export async function probeBySpawn(program: string): Promise<boolean> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
  } catch (error) {
    if (isPermissionRefusal(error)) return true;
    return false;
  }
  await killGroup(child.pid, { graceMs: 0, verifyMs: 5_000 });
  await child.status;
  return true;
}

/**
 * Resolves `binary` for `hostId` to an absolute path, or `null` when absent. An absolute or relative path
 * (containing `/`) is checked as-is. Where PATH folders cannot be read, a program found by
 * {@linkcode probeBySpawn} is returned by its bare name (Deno resolves it on PATH when it spawns).
 *
 * @example
 * ```ts
 * import { findExecutable } from "./find_executable.ts";
 * await findExecutable("sh", "shell"); // "/usr/bin/sh"
 * ```
 */
export async function findExecutable(
  binary: string,
  hostId: string,
  env: { get(name: string): string | undefined } = Deno.env,
): Promise<string | null> {
  const override = env.get(binEnvName(hostId));
  const path = override || (binary.includes("/") ? binary : null);
  if (path) {
    const found = await look(path);
    if (found === "unreadable") return await probeBySpawn(path) ? path : null;
    return found === "executable" ? path : null;
  }
  let unreadable = false;
  for (const dir of (env.get("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = `${dir}/${binary}`;
    const found = await look(candidate);
    if (found === "executable") return candidate;
    if (found === "unreadable") unreadable = true;
  }
  return unreadable && await probeBySpawn(binary) ? binary : null;
}
