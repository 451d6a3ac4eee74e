/**
 * Hosts described in the config file instead of code. A `kind: cli` entry becomes a {@linkcode HostRunner}
 * whose argv comes from per-golden-path templates; `{prompt}`, `{model}` and `{cwd}` are substituted, and
 * whose `capabilityMarkers` say which argv elements prove each claimed capability. A
 * `kind: web` entry becomes a web host driven through the selectors it gives (`hosts/web/yaml_host.ts`).
 *
 * @module
 */
import type { CliHostConfig, Config } from "../src/config.ts";
import {
  CAPABILITY_FLAGS,
  type GoldenPath,
  type HostCapabilities,
  type HostInvocation,
  type HostRunner,
  type InvocationRequest,
  NO_CAPABILITIES,
} from "../src/exec/host_runner.ts";
import type { CliHostEntry, HostEntry } from "../src/host.ts";
import { findExecutable } from "../src/exec/find_executable.ts";
import { yamlHostEntry } from "./web/yaml_host.ts";

/** Registry entries for every host in the config file. */
export function configHosts(config: Config): HostEntry[] {
  return config.hosts.map((host): HostEntry =>
    host.kind === "cli" ? cliEntry(host) : yamlHostEntry(host, config.source)
  );
}

function cliEntry(host: CliHostConfig): CliHostEntry {
  const capabilities: HostCapabilities = Object.freeze(Object.fromEntries(
    CAPABILITY_FLAGS.map((flag) => [flag, host.capabilities[flag] ?? NO_CAPABILITIES[flag]]),
  ) as unknown as HostCapabilities);
  const runner: HostRunner = {
    name: host.id,
    binary: host.binary,
    dialect: host.dialect,
    capabilities,
    streamShape: host.streamShape,
    goldenPaths: Object.keys(host.paths),
    capabilityMarkers: Object.freeze(Object.fromEntries(
      Object.entries(host.capabilityMarkers).flatMap(([flag, markers]) =>
        markers ? [[flag, Object.freeze([...markers])]] : []
      ),
    )),
    detect: () => findExecutable(host.binary, host.id),
    build(path: GoldenPath, request: InvocationRequest): HostInvocation {
      const template = host.paths[path];
      if (!template) {
        throw new RangeError(`Host "${host.id}" has no argv for golden path "${path}" in its config`);
      }
      const values: Record<string, string> = {
        prompt: request.prompt,
        model: request.model ?? "",
        cwd: request.workingDir ?? "",
      };
      const args = template
        .map((arg) => arg.replace(/\{(prompt|model|cwd)\}/g, (_, key: string) => values[key]!))
        .filter((arg, i) => arg !== "" || template[i] === "");
      return Object.freeze({
        binary: host.binary,
        args: Object.freeze(args),
        env: Object.freeze({ ...host.env }),
        capabilities,
        cleanupPaths: Object.freeze([]),
        envAllow: Object.freeze([...host.envAllow]),
        ...(request.workingDir ? { cwd: request.workingDir } : {}),
      });
    },
  };
  return {
    id: host.id,
    kind: "cli",
    summary: host.summary ?? `${host.binary} (${host.dialect} dialect, from config)`,
    capabilities: CAPABILITY_FLAGS.filter((flag) => capabilities[flag]),
    runner,
  };
}
