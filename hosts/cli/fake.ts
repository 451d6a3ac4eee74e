/**
 * `fake`: the built-in fake host (`conformance fake-host`) driven the way an orchestrator drives claude: an
 * explicit `--output-format stream-json` and the prompt as the only positional argument, automation variables
 * in the environment, streaming and structured output claimed. Its twin `fake-minimal` disagrees on all three on purpose (composition tier).
 *
 * @module
 */
import { fakeHostCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import type { HostCapabilities, HostRunner } from "../../src/exec/host_runner.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { cliRunner, type CliRunnerSpec } from "./_runner.ts";

const CAPABILITIES: HostCapabilities = Object.freeze({
  ...NO_CAPABILITIES,
  streaming: true,
  structuredOutput: true,
});

/** What `fake` gives {@linkcode cliRunner}; its broken variants (hosts/cli/fake_variants.ts) start from it. */
export const FAKE_SPEC: CliRunnerSpec = {
  name: "fake",
  binary: "conformance",
  dialect: "claude",
  capabilities: CAPABILITIES,
  streamShape: { init: "required", terminal: "event" },
  scripted: true,
  capabilityMarkers: { streaming: ["stream-json"] },
  detect: () => Promise.resolve(fakeHostCommand().binary),
  command: () => fakeHostCommand(),
  env: { CONFORMANCE_NON_INTERACTIVE: "1", CONFORMANCE_AUTOMATION: "1" },
  envAllow: ["HOME", "DENO_DIR", "XDG_CACHE_HOME"],
  missingPath: (path) =>
    `The fake host has no golden path "${path}": use streaming, blocking-json, resume, detached or version-check`,
  paths: {
    "streaming": (request) => ({ args: ["--output-format", "stream-json", request.prompt] }),
    "blocking-json": (request) => ({
      args: [
        "--output-format",
        "json",
        ...(request.jsonSchema ? ["--json-schema", request.jsonSchema] : []),
        request.prompt,
      ],
    }),
    "resume": (request) => ({ args: ["--output-format", "stream-json", "--resume", "last", request.prompt] }),
    "detached": (request) => ({ args: ["--output-format", "text", request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
};

/** The runner of the `fake` host. */
export const fakeRunner: HostRunner = cliRunner(FAKE_SPEC);

/** Registry entry of `fake`. */
export const fakeHost: CliHostEntry = {
  id: "fake",
  kind: "cli",
  summary: "built-in scripted fake host (claude stream-json), prompt as the only argument",
  testOnly: true,
  capabilities: ["streaming", "structuredOutput"],
  runner: fakeRunner,
};
