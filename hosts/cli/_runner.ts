/**
 * The one way a CLI {@linkcode HostRunner} is built: the built-in fakes (hosts/cli/fake.ts,
 * hosts/cli/fake_minimal.ts), the real agent CLIs (`defineRealHost` in hosts/cli/_real_host.ts) and the
 * `--config` hosts (hosts/from_config.ts) all give their argv per golden path to {@linkcode cliRunner}, which
 * freezes each invocation the same way.
 *
 * @module
 */
import type {
  GoldenPath,
  HostInvocation,
  HostRunner,
  InvocationRequest,
} from "../../src/exec/host_runner.ts";

/** The parts of an invocation a host file decides for one golden path. */
export interface ArgvPlan {
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cleanupPaths?: readonly string[];
}

/** The program an invocation starts, and the arguments before the golden path's own. */
export interface CommandPrefix {
  readonly binary: string;
  readonly args: readonly string[];
}

/** What a CLI host gives {@linkcode cliRunner}: its declarations, and its argv per golden path. */
export interface CliRunnerSpec extends Omit<HostRunner, "goldenPaths" | "build"> {
  /** Argv builders per supported golden path, in listing order; their keys are the runner's golden paths. */
  readonly paths: Readonly<Partial<Record<string, (request: InvocationRequest) => ArgvPlan>>>;
  /** The program and leading arguments of each invocation, resolved when it is built; default `binary`. */
  readonly command?: () => CommandPrefix;
  /** Variables every invocation sets (a path's own `env` wins). */
  readonly env?: Readonly<Record<string, string>>;
  /** Parent variables every invocation may see. */
  readonly envAllow: readonly string[];
  /** The error message for a golden path the host has no argv for. */
  readonly missingPath: (path: string) => string;
}

/**
 * A runner from its spec: `goldenPaths` are the keys of `paths`, and `build` freezes the invocation of one.
 *
 * @example
 * ```ts
 * import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
 * import { cliRunner } from "./_runner.ts";
 * const runner = cliRunner({
 *   name: "echo", binary: "echo", dialect: "claude", capabilities: NO_CAPABILITIES,
 *   streamShape: { init: "required", terminal: "event" }, envAllow: [],
 *   detect: () => Promise.resolve("echo"), missingPath: (path) => `no ${path}`,
 *   paths: { "version-check": () => ({ args: ["--version"] }) },
 * });
 * runner.build("version-check", { prompt: "" }).args; // ["--version"]
 * ```
 */
export function cliRunner(spec: CliRunnerSpec): HostRunner {
  const { paths, command, env, envAllow, missingPath, ...declared } = spec;
  return {
    ...declared,
    goldenPaths: Object.freeze(Object.keys(paths)),
    build(path: GoldenPath, request: InvocationRequest): HostInvocation {
      const builder = paths[path];
      if (!builder) throw new RangeError(missingPath(path));
      const plan = builder(request);
      const prefix = command ? command() : { binary: spec.binary, args: [] };
      return Object.freeze({
        binary: prefix.binary,
        args: Object.freeze([...prefix.args, ...plan.args]),
        env: Object.freeze({ ...env, ...plan.env }),
        capabilities: spec.capabilities,
        cleanupPaths: Object.freeze([...(plan.cleanupPaths ?? [])]),
        envAllow: Object.freeze([...envAllow]),
        ...(request.workingDir ? { cwd: request.workingDir } : {}),
      });
    },
  };
}
