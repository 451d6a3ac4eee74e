/**
 * `fake`: the built-in fake host (`conformance fake-host`) driven the way an orchestrator drives claude: an
 * explicit `--output-format stream-json` and the prompt as the only positional argument, automation variables
 * in the environment, streaming and structured output claimed. Its twin `fake-minimal` disagrees on all three on purpose (composition tier).
 *
 * @module
 */
import { fakeHostCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import type {
  GoldenPath,
  HostCapabilities,
  HostInvocation,
  HostRunner,
  InvocationRequest,
} from "../../src/exec/host_runner.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";

const CAPABILITIES: HostCapabilities = Object.freeze({
  ...NO_CAPABILITIES,
  streaming: true,
  structuredOutput: true,
});

/** The runner of the `fake` host. */
export const fakeRunner: HostRunner = {
  name: "fake",
  binary: "conformance",
  dialect: "claude",
  capabilities: CAPABILITIES,
  streamShape: { init: "required", terminal: "event" },
  goldenPaths: ["streaming", "blocking-json", "resume", "detached", "version-check"],
  scripted: true,
  capabilityMarkers: { streaming: ["stream-json"] },
  detect: () => Promise.resolve(fakeHostCommand().binary),
  build(path: GoldenPath, request: InvocationRequest): HostInvocation {
    const self = fakeHostCommand();
    const hostArgs = path === "version-check" ? ["--version"] : path === "blocking-json"
      ? [
        "--output-format",
        "json",
        ...(request.jsonSchema ? ["--json-schema", request.jsonSchema] : []),
        request.prompt,
      ]
      : path === "resume"
      ? ["--output-format", "stream-json", "--resume", "last", request.prompt]
      : path === "detached"
      ? ["--output-format", "text", request.prompt]
      : path === "streaming"
      ? ["--output-format", "stream-json", request.prompt]
      : unsupported(path);
    return Object.freeze({
      binary: self.binary,
      args: Object.freeze([...self.args, ...hostArgs]),
      env: Object.freeze({ CONFORMANCE_NON_INTERACTIVE: "1", CONFORMANCE_AUTOMATION: "1" }),
      capabilities: CAPABILITIES,
      cleanupPaths: Object.freeze([]),
      envAllow: Object.freeze(["HOME", "DENO_DIR", "XDG_CACHE_HOME"]),
      ...(request.workingDir ? { cwd: request.workingDir } : {}),
    });
  },
};

function unsupported(path: string): never {
  throw new RangeError(
    `The fake host has no golden path "${path}": use streaming, blocking-json, resume, detached or version-check`,
  );
}

/** Registry entry of `fake`. */
export const fakeHost: CliHostEntry = {
  id: "fake",
  kind: "cli",
  summary: "built-in scripted fake host (claude stream-json), prompt as the only argument",
  testOnly: true,
  capabilities: ["streaming", "structuredOutput"],
  runner: fakeRunner,
};
