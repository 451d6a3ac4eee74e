/**
 * Browser profiles of real web products: one folder per host under the user's cache dir (or `--profile-dir`),
 * kept apart from the user's own browser, and the marker `conformance login` leaves once the user signed in.
 * The marker holds the host id and a time, never a cookie or a token.
 *
 * @module
 */

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
  return `${cache}/conformance/profiles/${hostId.replaceAll(/[^\w.-]+/g, "_")}`;
}

/** The profile folder to use: the one given, else the host's default. */
export function profileDirFor(hostId: string, given?: string): string {
  return given !== undefined && given.trim() !== "" ? given : defaultProfileDir(hostId);
}

/** Records a finished sign-in in `profileDir`. */
export async function writeLoginMarker(profileDir: string, hostId: string): Promise<void> {
  const record: LoginRecord = { host: hostId, signedInAt: new Date().toISOString() };
  await Deno.mkdir(profileDir, { recursive: true });
  await Deno.writeTextFile(`${profileDir}/${LOGIN_MARKER}`, `${JSON.stringify(record)}\n`);
}

/**
 * `null` when `profileDir` holds a sign-in for `hostId`, else one line saying what to do. A live run checks
 * this before it starts, so a missing sign-in stops it with exit 2 instead of a page of failed tests.
 */
export async function signedInProblem(hostId: string, profileDir: string): Promise<string | null> {
  let record: Partial<LoginRecord> | null = null;
  try {
    record = JSON.parse(await Deno.readTextFile(`${profileDir}/${LOGIN_MARKER}`));
  } catch {
    record = null;
  }
  if (record?.host === hostId) return null;
  return `Host "${hostId}" has no signed-in browser profile in "${profileDir}": run ` +
    `"conformance login --host ${hostId}"${
      profileDir === defaultProfileDir(hostId) ? "" : ` --profile-dir "${profileDir}"`
    } and sign in, then run again`;
}
