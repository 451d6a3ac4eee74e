/**
 * `fake-minimal`: the same fake host as `fake`, driven differently on purpose: a `run` subcommand before the
 * prompt, an empty environment beyond the baseline, and no capability claimed (no structured output, so no
 * `--json-schema`). The composition tier proves the executor gives both identical observations.
 *
 * @module
 */
import { fakeHostCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import type {
  GoldenPath,
  HostInvocation,
  HostRunner,
  InvocationRequest,
} from "../../src/exec/host_runner.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";

/** The runner of the `fake-minimal` host. */
export const fakeMinimalRunner: HostRunner = {
  name: "fake-minimal",
  binary: "conformance",
  dialect: "claude",
  capabilities: NO_CAPABILITIES,
  streamShape: { init: "required", terminal: "event" },
  goldenPaths: ["streaming", "blocking-json", "resume", "detached", "version-check"],
  scripted: true,
  detect: () => Promise.resolve(fakeHostCommand().binary),
  build(path: GoldenPath, request: InvocationRequest): HostInvocation {
    const self = fakeHostCommand();
    const hostArgs = path === "version-check"
      ? ["--version"]
      : path === "blocking-json"
      ? ["run", "--output-format", "json", request.prompt]
      : path === "resume"
      ? ["run", "--resume", "last", request.prompt]
      : path === "detached"
      ? ["run", "--output-format", "text", request.prompt]
      : path === "streaming"
      ? ["run", request.prompt]
      : unsupported(path);
    return Object.freeze({
      binary: self.binary,
      args: Object.freeze([...self.args, ...hostArgs]),
      env: Object.freeze({}),
      capabilities: NO_CAPABILITIES,
      cleanupPaths: Object.freeze([]),
      envAllow: Object.freeze([]),
      ...(request.workingDir ? { cwd: request.workingDir } : {}),
    });
  },
};

function unsupported(path: string): never {
  throw new RangeError(
    `The fake-minimal host has no golden path "${path}": use streaming, blocking-json, resume, detached or version-check`,
  );
}

/** Registry entry of `fake-minimal`. */
export const fakeMinimalHost: CliHostEntry = {
  id: "fake-minimal",
  kind: "cli",
  summary: "built-in scripted fake host behind a `run` subcommand, empty environment, no capabilities",
  testOnly: true,
  capabilities: [],
  runner: fakeMinimalRunner,
};
