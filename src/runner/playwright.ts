/**
 * Loads `playwright-core` under the run's narrow Deno permissions. At load time Playwright probes
 * `/proc/sys/fs/binfmt_misc/WSLInterop` to detect WSL, and Deno refuses any access to `/proc/sys` short of
 * `--allow-all`; the probe is answered "absent" here (true on Linux outside WSL) so no broader permission is
 * needed. Import Playwright's runtime only through {@linkcode loadPlaywright}; type-only imports are fine.
 *
 * @module
 */
import fs from "node:fs";
import { guardProcessEnv } from "../exec/env.ts";

const PRIVILEGED = ["/proc/sys/", "/run/WSL"];
let loaded: Promise<typeof import("playwright-core")> | null = null;

/** Playwright's module, loaded once. */
export function loadPlaywright(): Promise<typeof import("playwright-core")> {
  if (loaded === null) {
    const existsSync = fs.existsSync;
    fs.existsSync = (path: fs.PathLike) =>
      PRIVILEGED.some((prefix) => String(path).startsWith(prefix)) ? false : existsSync(path);
    // Playwright lists process.env as it loads, which the narrow env permission refuses (src/exec/env.ts).
    guardProcessEnv();
    loaded = import("playwright-core");
  }
  return loaded;
}
