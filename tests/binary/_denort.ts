/**
 * Whether `deno compile` can get a real runtime (`denort`) here, without probing the network: the tests only
 * use loopback, so a reachable download server is declared by the environment that has one (CI sets
 * `CONFORMANCE_DENORT_DOWNLOAD=1`).
 */

/** Where a real denort comes from. */
export interface DenortSource {
  readonly how: string;
  /** Set when it comes from `DENORT_BIN`. */
  readonly denortBin?: string;
}

/** A stand-in (a tiny executable) is not a runtime; a real denort is tens of megabytes. */
const MIN_DENORT_BYTES = 10_000_000;

/** The Deno cache folder: `DENO_DIR`, else the platform's cache location. */
export function denoDir(): string | null {
  const env = (name: string) => Deno.env.get(name) || undefined;
  const explicit = env("DENO_DIR");
  if (explicit) return explicit;
  const home = env("HOME") ?? env("USERPROFILE");
  if (Deno.build.os === "darwin") return home ? `${home}/Library/Caches/deno` : null;
  if (Deno.build.os === "windows") {
    const local = env("LOCALAPPDATA");
    return local ? `${local}\\deno` : null;
  }
  const cache = env("XDG_CACHE_HOME") ?? (home ? `${home}/.cache` : undefined);
  return cache ? `${cache}/deno` : null;
}

/** Where `deno compile` keeps the denort it downloaded for this Deno version and platform. */
export function cachedDenortPath(dir: string | null = denoDir()): string | null {
  if (dir === null) return null;
  return `${dir}/dl/release/v${Deno.version.deno}/denort-${Deno.build.target}.zip`;
}

function sizeOf(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return -1;
  }
}

/** The real denort available to `deno compile` here, or `null`. */
export function denortSource(): DenortSource | null {
  const bin = Deno.env.get("DENORT_BIN");
  if (bin && sizeOf(bin) >= MIN_DENORT_BYTES) return { how: `DENORT_BIN=${bin}`, denortBin: bin };
  const cached = cachedDenortPath();
  if (cached !== null && sizeOf(cached) > 0) return { how: `the Deno cache (${cached})` };
  if (Deno.env.get("CONFORMANCE_DENORT_DOWNLOAD") === "1") return { how: "Deno's download server" };
  return null;
}
