/**
 * `fake-minimal`: the same fake host as `fake`, driven differently on purpose: a `run` subcommand before the
 * prompt, an empty environment beyond the baseline, and no capability claimed (no structured output, so no
 * `--json-schema`). The composition tier proves the executor gives both identical observations.
 *
 * @module
 */
import { fakeHostCommand } from "../../src/exec/self.ts";
import type { CliHostEntry } from "../../src/host.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import { NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { cliRunner } from "./_runner.ts";

/** The runner of the `fake-minimal` host. */
export const fakeMinimalRunner: HostRunner = cliRunner({
  name: "fake-minimal",
  binary: "conformance",
  dialect: "claude",
  capabilities: NO_CAPABILITIES,
  streamShape: { init: "required", terminal: "event" },
  scripted: true,
  detect: () => Promise.resolve(fakeHostCommand().binary),
  command: () => fakeHostCommand(),
  envAllow: [],
  missingPath: (path) =>
    `The fake-minimal host has no golden path "${path}": use streaming, blocking-json, resume, detached or version-check`,
  paths: {
    "streaming": (request) => ({ args: ["run", request.prompt] }),
    "blocking-json": (request) => ({ args: ["run", "--output-format", "json", request.prompt] }),
    "resume": (request) => ({ args: ["run", "--resume", "last", request.prompt] }),
    "detached": (request) => ({ args: ["run", "--output-format", "text", request.prompt] }),
    "version-check": () => ({ args: ["--version"] }),
  },
});

/** Registry entry of `fake-minimal`. */
export const fakeMinimalHost: CliHostEntry = {
  id: "fake-minimal",
  kind: "cli",
  summary: "built-in scripted fake host behind a `run` subcommand, empty environment, no capabilities",
  testOnly: true,
  capabilities: [],
  runner: fakeMinimalRunner,
};
