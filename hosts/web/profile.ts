/**
 * Browser profiles of real web products: one folder per host under the user's cache dir (or `--profile-dir`),
 * kept apart from the user's own browser, and the marker `conformance login` leaves once the user signed in.
 * The marker holds the host id and a time, never a cookie or a token; nothing here reads a cookie's content.
 *
 * @module
 */
import { fileNamePart } from "../../src/file_name.ts";

/** The file `conformance login` writes into a profile after the sign-in browser closed. */
export const LOGIN_MARKER = ".conformance-login.json";

/** What the login marker records. */
export interface LoginRecord {
  readonly host: string;
  readonly signedInAt: string;
}

/**
 * The default profile folder of a host: `${XDG_CACHE_HOME:-~/.cache}/conformance/profiles/<host>`.
 *
 * @example
 * ```ts ignore
 * defaultProfileDir("chatgpt"); // "/home/me/.cache/conformance/profiles/chatgpt"
 * ```
 */
export function defaultProfileDir(hostId: string): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME") ?? "."}/.cache`;
  return `${cache}/conformance/profiles/${fileNamePart(hostId)}`;
}

/** The profile folder to use: the one given, else the host's default. */
export function profileDirFor(hostId: string, given?: string): string {
  return given !== undefined && given.trim() !== "" ? given : defaultProfileDir(hostId);
}

/**
 * Records a finished sign-in in `profileDir`. Best effort: the harness may write only under the working folder
 * and temp, so a profile elsewhere (the default, under the cache dir) is recognised by Chromium's own cookie
 * store instead (see {@linkcode signedInProblem}).
 */
export async function writeLoginMarker(profileDir: string, hostId: string): Promise<boolean> {
  const record: LoginRecord = { host: hostId, signedInAt: new Date().toISOString() };
  try {
    await Deno.writeTextFile(`${profileDir}/${LOGIN_MARKER}`, `${JSON.stringify(record)}\n`);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return false;
    }
    throw error;
  }
}

/**
 * Whether the profile was used for a sign-in: our marker names the host, or Chromium kept a cookie store.
 * `"unreadable"` when the harness may not read the folder: under its permission set (src/permissions.ts) only
 * the working folder and temp are readable, and the default profile lives under the cache dir.
 */
async function usedForSignIn(hostId: string, profileDir: string): Promise<boolean | "unreadable"> {
  try {
    const record = JSON.parse(await Deno.readTextFile(`${profileDir}/${LOGIN_MARKER}`)) as Partial<
      LoginRecord
    >;
    if (record.host === hostId) return true;
  } catch (error) {
    if (isRefusal(error)) return "unreadable";
    // No marker (or an unreadable one): look for Chromium's cookie store.
  }
  try {
    return (await Deno.stat(`${profileDir}/Default/Cookies`)).size > 0;
  } catch (error) {
    return isRefusal(error) ? "unreadable" : false;
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}

/**
 * `null` when `profileDir` was used to sign in to `hostId`, else one line saying what to do. A live run checks
 * this before it starts, so a missing sign-in stops it with exit 2 instead of a page of failed tests; a
 * session that expired since, or a profile the harness may not read, is caught when the product page opens.
 */
export async function signedInProblem(hostId: string, profileDir: string): Promise<string | null> {
  if (await usedForSignIn(hostId, profileDir) !== false) return null;
  return `Host "${hostId}" has no signed-in browser profile in "${profileDir}": run ` +
    `"conformance login --host ${hostId}"${
      profileDir === defaultProfileDir(hostId) ? "" : ` --profile-dir "${profileDir}"`
    } and sign in, then run again`;
}
