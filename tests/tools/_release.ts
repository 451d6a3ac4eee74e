/**
 * A stand-in GitHub release on loopback for the composite action's script (tools/action/fetch.sh): a folder
 * holding one binary named like a release artifact and its SHA256SUMS, served by a real HTTP server on
 * 127.0.0.1 under `…/download/v9.9.9/`, and a way to run the script in its own process group.
 *
 * @module
 */
import { join } from "node:path";

/** The repository root. */
export const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname);
/** The action's script. */
export const SCRIPT = join(ROOT, "tools/action/fetch.sh");
/** The artifact a Linux x64 runner downloads. */
export const ARTIFACT = "conformance-x86_64-unknown-linux-gnu";

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export interface Release extends AsyncDisposable {
  readonly baseUrl: string;
  readonly dir: string;
  /** Paths requested so far. */
  readonly requests: string[];
  /** Rewrites SHA256SUMS. */
  sums(text: string): Promise<void>;
}

/** A release folder on a real loopback HTTP server, as GitHub serves …/releases/download/TAG/FILE. */
export async function serveRelease(binaryText: string): Promise<Release> {
  const dir = await Deno.makeTempDir({ prefix: "conformance-release-" });
  const binary = new TextEncoder().encode(binaryText);
  await Deno.writeFile(join(dir, ARTIFACT), binary);
  await Deno.writeTextFile(join(dir, "SHA256SUMS"), `${await sha256(binary)}  ${ARTIFACT}\n`);
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    const name = path.replace(/^\/download\/v9\.9\.9\//, "");
    try {
      return new Response(await Deno.readFile(join(dir, name.replaceAll("/", "_"))));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/download/v9.9.9`,
    dir,
    requests,
    sums: (text) => Deno.writeTextFile(join(dir, "SHA256SUMS"), text),
    [Symbol.asyncDispose]: async () => {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

export interface Fetched {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the script in its own process group, stdin closed, in a clean environment (no proxy variables). */
export async function fetchScript(
  work: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd = work,
): Promise<Fetched> {
  const out = await new Deno.Command("sh", {
    args: [SCRIPT, ...args],
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: work, CONFORMANCE_TEST_DIR: work, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

export async function workDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "conformance-action-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
