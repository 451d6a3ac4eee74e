/**
 * Finding a host's executable: `CONFORMANCE_<HOST>_BIN` first (e.g. `CONFORMANCE_CLAUDE_CODE_BIN`), then
 * the folders of `PATH`.
 *
 * @module
 */

/** The override variable for a host id: `claude-code` → `CONFORMANCE_CLAUDE_CODE_BIN`. */
export function binEnvName(hostId: string): string {
  return `CONFORMANCE_${hostId.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_BIN`;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * Resolves `binary` for `hostId` to an absolute path, or `null` when absent. An absolute or relative path
 * (containing `/`) is checked as-is.
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
  if (override) return await isExecutable(override) ? override : null;
  if (binary.includes("/")) return await isExecutable(binary) ? binary : null;
  for (const dir of (env.get("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = `${dir}/${binary}`;
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}
