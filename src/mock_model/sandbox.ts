/**
 * A hermetic place to run a real agent CLI: a temporary HOME (so the host never reads the user's config or
 * credentials) and, inside it, a fresh git repository as the working directory. {@linkcode mockInvocation}
 * turns a runner's invocation into one pointed at a mock model in that sandbox.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { GoldenPath, HostInvocation, HostRunner, InvocationRequest } from "../exec/host_runner.ts";

/** A temporary HOME with a git repository `work/` in it. Dispose to delete both. */
export interface Sandbox extends AsyncDisposable {
  readonly home: string;
  readonly work: string;
  /** Paths under `home` that tests may want to scrub from recorded output. */
  dispose(): Promise<void>;
}

/**
 * Creates a sandbox. The git repository has one empty commit, so hosts that insist on a repository (codex)
 * or on a HEAD (opencode snapshots) are satisfied.
 *
 * @example
 * ```ts
 * await using box = await createSandbox();
 * console.log(box.work); // /tmp/conformance-home-…/work
 * ```
 */
export async function createSandbox(): Promise<Sandbox> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "conformance-home-" }));
  const work = join(home, "work");
  await Deno.mkdir(work);
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args,
      cwd: work,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
      env: {
        HOME: home,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_AUTHOR_NAME: "conformance",
        GIT_AUTHOR_EMAIL: "conformance@localhost",
        GIT_COMMITTER_NAME: "conformance",
        GIT_COMMITTER_EMAIL: "conformance@localhost",
      },
    }).output();
  try {
    await git("init", "-q", ".");
    await git("commit", "-q", "--allow-empty", "-m", "sandbox");
  } catch {
    // Without git the folder is still a usable cwd; codex gets --skip-git-repo-check from its runner anyway.
  }
  const dispose = () => Deno.remove(home, { recursive: true }).catch(() => {});
  return { home, work, dispose, [Symbol.asyncDispose]: dispose };
}

/** Variables that keep a host inside the sandbox's HOME. */
export function sandboxEnv(sandbox: Pick<Sandbox, "home">): Record<string, string> {
  return {
    HOME: sandbox.home,
    USER: "conformance",
    XDG_CONFIG_HOME: join(sandbox.home, ".config"),
    XDG_DATA_HOME: join(sandbox.home, ".local", "share"),
    XDG_CACHE_HOME: join(sandbox.home, ".cache"),
    XDG_STATE_HOME: join(sandbox.home, ".local", "state"),
  };
}

/** Options of {@linkcode mockInvocation}. */
export interface MockInvocationOptions {
  readonly runner: HostRunner;
  readonly path: GoldenPath;
  readonly request: InvocationRequest;
  readonly sandbox: Sandbox;
  /** The mock model's origin; `null` builds the invocation with no model endpoint at all (no credentials). */
  readonly url: string | null;
  /**
   * `url` is a closed port standing for an unreachable service: a host without a mock model is then pointed
   * there through its `vendorEndpoint` (its own service, with a bogus credential).
   */
  readonly unreachable?: boolean;
}

/**
 * Builds the invocation for a sandboxed run: the runner's own argv for the golden path, the sandbox as HOME
 * and cwd, the parent's credentials cut off (only PATH and locale pass), and, with a `url`, the runner's
 * mock-model environment and files. Throws `TypeError` when the runner cannot be pointed at a mock model.
 */
export async function mockInvocation(options: MockInvocationOptions): Promise<HostInvocation> {
  const { runner, sandbox, url } = options;
  let env: Record<string, string> = {};
  let model: string | undefined;
  if (url !== null) {
    const point = runner.mockModel ?? (options.unreachable ? runner.vendorEndpoint : undefined);
    if (!point) {
      throw new TypeError(
        `Host "${runner.name}" cannot be pointed at a mock model: ${
          runner.mockModelUnsupported ?? "no mockModel()"
        }`,
      );
    }
    const setup = point.call(runner, { url, home: sandbox.home });
    for (const [relative, content] of Object.entries(setup.files)) {
      const path = join(sandbox.home, relative);
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeTextFile(path, content);
    }
    env = { ...setup.env };
    model = setup.model;
  }
  const request: InvocationRequest = {
    ...options.request,
    workingDir: sandbox.work,
    ...(model !== undefined && options.request.model === undefined ? { model } : {}),
  };
  const built = runner.build(options.path, request);
  return Object.freeze({
    ...built,
    env: Object.freeze({ ...built.env, ...sandboxEnv(sandbox), ...env }),
    // The sandbox replaces HOME and credentials: nothing of the parent but the executor's baseline passes.
    envAllow: Object.freeze([]),
    cwd: sandbox.work,
  });
}
